package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import io.github.boundedupload.testsupport.TestProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The storage unreachable (Toxiproxy, real LocalStack, real PostgreSQL) for longer than the batch's own retries:
 * the journal keeps trying, and once the storage is back its compensations and deferred uploads complete.
 */
class OutageIT {

    private static final S3TestServices services = S3TestServices.get();

    private TestBucket bucket;
    private TestProxy proxy;
    private S3Client client;
    private DataSource database;
    private JdbcUploadJournal journal;
    private ConcurrentAttachmentUploader uploader;

    @BeforeEach
    void setUp() {
        bucket = services.createBucket("outage");
        proxy = services.createProxy("outage");
        client = services.s3ClientBuilder(proxy.endpoint())
                .overrideConfiguration(ClientOverrideConfiguration.builder().retryStrategy(RetryMode.STANDARD)
                        .apiCallTimeout(Duration.ofSeconds(5)).build())
                .build();
        database = Postgres.dataSource(Postgres.newDatabase("outage"));
    }

    @AfterEach
    void tearDown() {
        if (uploader != null) {
            uploader.close();
        }
        if (journal != null) {
            journal.close();
        }
        client.close();
        proxy.close();
        bucket.close();
    }

    private void start(UploadListener listener) {
        S3FileUploader storage = S3FileUploader.builder(client, bucket.name()).build();
        journal = JdbcUploadJournal.builder(database, storage).instanceName("outage").createTables(true)
                .keepMargin(Duration.ZERO).pollingInterval(Duration.ofMillis(500))
                .retryPauses(Duration.ofMillis(200), Duration.ofSeconds(1)).failingAfter(3).build();
        uploader = ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder().journal(journal)
                .maxConcurrentUploadsPerBatch(1).batchTimeout(Duration.ofSeconds(3))
                .stopTimeout(Duration.ofMillis(500)).rollbackDeadline(Duration.ofSeconds(1)).listener(listener)
                .build());
    }

    private static List<Attachment> files(int n) {
        List<Attachment> files = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            files.add(Attachment.of("scan-" + i + ".pdf", ("page " + i).getBytes(StandardCharsets.UTF_8)));
        }
        return files;
    }

    @Test
    void aFailedBatchWhoseDeletesOutlastTheUploadersRetriesIsRemovedOnceTheStorageIsBack() {
        // The storage goes away right after the first upload: the second fails, and the rollback cannot delete the
        // first within the uploader's rollback deadline (1 s).
        start(new UploadListener() {
            @Override
            public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
                disable();
            }
        });
        assertThatThrownBy(() -> uploader.uploadAll(files(3))).isInstanceOf(BatchFailedException.class);
        assertThat(bucket.keys()).hasSize(1);

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(journal.status().compensationsFailing()).isEqualTo(1);
        });
        assertThat(bucket.keys()).hasSize(1);

        proxy.heal();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(journal.status().unsettledBatches()).isZero();
            assertThat(bucket.keys()).isEmpty();
        });
        assertThat(journal.status().compensationsRetried()).isGreaterThanOrEqualTo(3);
        assertThat(journal.status().compensationsCompleted()).isEqualTo(1);
    }

    @Test
    void aBatchWhoseTransactionRollsBackDuringAnOutageIsRemovedOnceTheStorageIsBack() throws Exception {
        start(new UploadListener() { });
        try (Connection tx = database.getConnection()) {
            tx.setAutoCommit(false);
            assertThat(JdbcUploadJournal.inTransaction(tx, () -> uploader.uploadAll(files(3))).allStored()).isTrue();
            disable();
            tx.rollback();
        }
        assertThat(bucket.keys()).hasSize(3);
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(journal.status().compensationsFailing()).isEqualTo(1));

        proxy.heal();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(journal.status().unsettledBatches()).isZero();
            assertThat(bucket.keys()).isEmpty();
        });
    }

    @Test
    void deferredUploadsOutlastAnOutageLongerThanTheRetriesOfOneAttempt() {
        start(new UploadListener() { });
        DeferredUploads deferred = DeferredUploads.builder(journal, uploader).build();
        disable();
        DeferredBatch batch = deferred.submit(files(3));
        // Each attempt is an uploadAll whose client retries (standard mode, 3 attempts) and fails: the task is retried.
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(deferred.stats().retried()).isGreaterThanOrEqualTo(3));
        assertThat(deferred.attachments(batch.id())).extracting(DeferredAttachment::state)
                .containsOnly(DeferredAttachment.State.PENDING);
        assertThat(bucket.keys()).isEmpty();

        proxy.heal();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(deferred.attachments(batch.id()))
                .extracting(DeferredAttachment::state).containsOnly(DeferredAttachment.State.STORED));
        assertThat(bucket.keys()).containsExactlyInAnyOrderElementsOf(batch.keys());
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(journal.status().unsettledBatches()).isZero());
    }

    private void disable() {
        try {
            proxy.toxiproxy().disable();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
