package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Two instances recovering at once (real PostgreSQL, real LocalStack): batches left by an instance that never came
 * back, some with objects, some with incomplete multipart uploads, are removed exactly once each, with no failed try.
 */
class TwoInstancesIT {

    private static final S3TestServices services = S3TestServices.get();
    private static final int BATCHES = 40;
    private static TestBucket bucket;

    @BeforeAll
    static void bucket() {
        bucket = services.createBucket("two-instances");
    }

    @AfterAll
    static void cleanUp() {
        bucket.close();
    }

    private static JdbcUploadJournal journal(DataSource database, FileUploader storage, String instance) {
        return JdbcUploadJournal.builder(database, storage).instanceName(instance).createTables(true)
                .keepMargin(Duration.ZERO).pollingInterval(Duration.ofMillis(300)).threads(4).build();
    }

    @Test
    void eachLeftBatchIsRemovedOnceAndNothingFails() {
        DataSource database = Postgres.dataSource(Postgres.newDatabase("two"));
        S3Client s3 = services.s3Client();
        FileUploader storage = S3FileUploader.builder(s3, bucket.name()).build();
        JdbcUploadJournal gone = journal(database, storage, "gone");
        gone.close(); // an instance that recorded batches and died: it runs nothing any more
        for (int b = 0; b < BATCHES; b++) {
            String object = "left/" + b + "/photo.jpg";
            String started = "left/" + b + "/video.mp4";
            gone.begin(new BatchEvent("app", b, 2), List.of(object, started), Duration.ofMillis(1));
            s3.putObject(put -> put.bucket(bucket.name()).key(object), RequestBody.fromString(object));
            s3.createMultipartUpload(create -> create.bucket(bucket.name()).key(started));
        }
        assertThat(bucket.keys()).hasSize(BATCHES);
        assertThat(bucket.incompleteUploads()).hasSize(BATCHES);

        try (JdbcUploadJournal one = journal(database, storage, "one");
                JdbcUploadJournal two = journal(database, storage, "two")) {
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                    .until(() -> one.status().unsettledBatches() == 0);
            JournalStatus first = one.status();
            JournalStatus second = two.status();
            assertThat(first.compensationsCompleted() + second.compensationsCompleted()).isEqualTo(BATCHES);
            assertThat(first.compensationsRetried() + second.compensationsRetried()).isZero();
            System.out.println("two instances recovering at once: " + first.compensationsCompleted() + " + "
                    + second.compensationsCompleted() + " compensations");
        }
        assertThat(bucket.keys()).isEmpty();
        assertThat(bucket.incompleteUploads()).isEmpty();
    }
}
