package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.InvalidAttachmentException;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.local.LocalFileUploader;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deferred uploads on H2 and the local disk: accepted in the caller's transaction (a rollback leaves nothing), stored
 * in the background and heard once each, retried through an outage, failed after their deadline, refused when
 * staging is full. (PostgreSQL, S3 and SIGKILL are in DeferredCrashIT.)
 */
class DeferredUploadsTest {

    @TempDir
    Path root;

    private JdbcDataSource database;
    private JdbcUploadJournalTest.FlakyStorage storage;
    private JdbcUploadJournal journal;
    private ConcurrentAttachmentUploader uploader;
    private final List<DeferredAttachment> heard = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        database = new JdbcDataSource();
        database.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        storage = new JdbcUploadJournalTest.FlakyStorage(new LocalFileUploader(root));
        journal = JdbcUploadJournal.builder(database, storage).instanceName("one").createTables(true)
                .keepMargin(Duration.ZERO).pollingInterval(Duration.ofMillis(200))
                .retryPauses(Duration.ofMillis(20), Duration.ofMillis(100)).build();
        uploader = ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder().journal(journal)
                .batchTimeout(Duration.ofSeconds(2)).stopTimeout(Duration.ofMillis(200))
                .rollbackDeadline(Duration.ofMillis(100)).build());
    }

    @AfterEach
    void tearDown() {
        uploader.close();
        journal.close();
    }

    private DeferredUploads deferred(DeferredUploads.Builder settings) {
        return settings.listener(new DeferredUploadListener() {
            @Override
            public void stored(DeferredAttachment attachment) {
                heard.add(attachment);
            }

            @Override
            public void failed(DeferredAttachment attachment) {
                heard.add(attachment);
            }
        }).build();
    }

    private static List<Attachment> files(String prefix, int n) {
        List<Attachment> files = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            files.add(Attachment.of(prefix + "-" + i + ".png", (prefix + " " + i).getBytes(StandardCharsets.UTF_8)));
        }
        return files;
    }

    @Test
    void acceptedInACommittedTransactionTheAttachmentsAreStoredAfterwardsAndHeardOnce() throws Exception {
        DeferredUploads deferred = deferred(DeferredUploads.builder(journal, uploader));
        DeferredBatch batch;
        try (Connection tx = database.getConnection()) {
            tx.setAutoCommit(false);
            batch = JdbcUploadJournal.inTransaction(tx, () -> deferred.submit(files("product", 3)));
            assertThat(batch.keys()).hasSize(3);
            tx.commit();
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(deferred.attachments(batch.id()))
                .extracting(DeferredAttachment::state).containsOnly(DeferredAttachment.State.STORED).hasSize(3));
        for (int i = 0; i < 3; i++) {
            assertThat(root.resolve(batch.keys().get(i))).hasContent("product " + i);
        }
        assertThat(heard).extracting(DeferredAttachment::key).containsExactlyInAnyOrderElementsOf(batch.keys());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new JournalMeters(journal, Duration.ZERO).withDeferred(deferred).bindTo(registry);
        assertThat(registry.get("bounded.upload.deferred.stored").tag("uploader", "default").functionCounter()
                .count()).isEqualTo(3);
        assertThat(registry.get("bounded.upload.deferred.pending").gauge().value()).isZero();
        assertThat(deferred.stats().pendingAttachments()).isZero();
        assertThat(deferred.stats().stagedBytes()).isZero();
        assertThat(journal.status().unsettledBatches()).isZero();
    }

    @Test
    void aRolledBackRequestLeavesNothingToUpload() throws Exception {
        DeferredUploads deferred = deferred(DeferredUploads.builder(journal, uploader));
        DeferredBatch batch;
        try (Connection tx = database.getConnection()) {
            tx.setAutoCommit(false);
            batch = JdbcUploadJournal.inTransaction(tx, () -> deferred.submit(files("product", 2)));
            tx.rollback();
        }
        assertThat(deferred.attachments(batch.id())).isEmpty();
        assertThat(deferred.stats().pendingAttachments()).isZero();
        // A later batch runs, so the task of the rolled-back one would have run before it, had it existed.
        DeferredBatch later = deferred.submit(files("later", 1));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(deferred.attachments(later.id()))
                .extracting(DeferredAttachment::state).containsExactly(DeferredAttachment.State.STORED));
        assertThat(Files.exists(root.resolve(batch.keys().get(0)))).isFalse();
        assertThat(heard).extracting(DeferredAttachment::batchId).containsOnly(later.id());
    }

    @Test
    void anOutageLongerThanOneAttemptIsRetriedThroughUntilStored() {
        DeferredUploads deferred = deferred(DeferredUploads.builder(journal, uploader));
        storage.failUploadsNamed("product-1.png");
        DeferredBatch batch = deferred.submitInOrder(files("product", 3));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(deferred.attachments(batch.id())).extracting(DeferredAttachment::state).containsExactly(
                    DeferredAttachment.State.STORED, DeferredAttachment.State.PENDING,
                    DeferredAttachment.State.PENDING);
            assertThat(deferred.stats().retried()).isGreaterThanOrEqualTo(3);
        });
        // In order: the third waits for the second.
        assertThat(Files.exists(root.resolve(batch.keys().get(2)))).isFalse();

        storage.failUploadsNamed("none");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(deferred.attachments(batch.id()))
                .extracting(DeferredAttachment::state).containsOnly(DeferredAttachment.State.STORED));
        assertThat(heard).extracting(DeferredAttachment::index).containsExactly(0, 1, 2);
    }

    @Test
    void anAttachmentNotStoredBeforeItsDeadlineFailsWithTheLastReason() {
        DeferredUploads deferred = deferred(DeferredUploads.builder(journal, uploader)
                .deadline(Duration.ofMillis(500)));
        storage.failUploadsNamed("product-0.png");
        DeferredBatch batch = deferred.submit(files("product", 1));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(deferred.attachments(batch.id()))
                .singleElement().satisfies(attachment -> {
                    assertThat(attachment.state()).isEqualTo(DeferredAttachment.State.FAILED);
                    assertThat(attachment.failure()).hasValueSatisfying(reason -> assertThat(reason)
                            .contains("not stored before its deadline").contains("refused product-0.png"));
                }));
        assertThat(heard).singleElement().extracting(DeferredAttachment::state)
                .isEqualTo(DeferredAttachment.State.FAILED);
        assertThat(Files.exists(root.resolve(batch.keys().get(0)))).isFalse();
    }

    @Test
    void aBatchLargerThanTheStagingBoundIsRefusedBeforeTheRestOfItIsRead() {
        DeferredUploads deferred = deferred(DeferredUploads.builder(journal, uploader).maxStagedBytes(25));
        java.util.concurrent.atomic.AtomicInteger opened = new java.util.concurrent.atomic.AtomicInteger();
        List<Attachment> batch = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            batch.add(Attachment.of("ten-" + i + ".bin", io.github.boundedupload.AttachmentContent.ofStream(() -> {
                opened.incrementAndGet();
                return new java.io.ByteArrayInputStream(new byte[10]);
            }, 10)));
        }
        assertThatThrownBy(() -> deferred.submit(batch)).isInstanceOf(StagingFullException.class)
                .hasMessageContaining("first 3 attachments already have 30 bytes");
        assertThat(opened).hasValue(3);
        assertThat(deferred.stats().pendingAttachments()).isZero();
    }

    @Test
    void aFullStagingRefusesTheBatchBeforeAnythingIsAccepted() {
        storage.failUploadsNamed("first-0.png"); // stays staged
        DeferredUploads deferred = deferred(DeferredUploads.builder(journal, uploader).maxStagedAttachments(2));
        deferred.submit(files("first", 1));
        assertThatThrownBy(() -> deferred.submit(files("second", 2))).isInstanceOf(StagingFullException.class)
                .hasMessageContaining("cannot stage 2 attachments").hasMessageContaining("nothing was accepted");
        assertThat(deferred.stats().pendingAttachments()).isEqualTo(1);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new JournalMeters(journal, Duration.ZERO).withDeferred(deferred).bindTo(registry);
        assertThat(registry.get("bounded.upload.deferred.pending").gauge().value()).isEqualTo(1);
        assertThat(registry.get("bounded.upload.deferred.staged").gauge().value()).isEqualTo("first 0".length());

        try (ConcurrentAttachmentUploader other = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("small").build())) {
            DeferredUploads small = deferred(DeferredUploads.builder(journal, other).maxAttachmentSize(4));
            assertThatThrownBy(() -> small.submit(files("big", 1))).isInstanceOf(StagingFullException.class)
                    .hasMessageContaining("file 1 'big-0.png' is");
        }
    }

    @Test
    void badInputIsRefusedAtOnceNamingTheAttachment() {
        DeferredUploads deferred = deferred(DeferredUploads.builder(journal, uploader));
        assertThatThrownBy(() -> deferred.submit(List.of(Attachment.of("../etc/passwd", new byte[] {1}))))
                .isInstanceOf(InvalidAttachmentException.class).hasMessageContaining("file 1 '../etc/passwd'");
        assertThat(deferred.stats().pendingAttachments()).isZero();
    }

    @Test
    void contentThatIsAStoredObjectIsRefusedAtOnceNamingTheAttachment() {
        DeferredUploads deferred = deferred(DeferredUploads.builder(journal, uploader));
        Attachment copy = Attachment.of("copy.png", AttachmentContent.ofStoredObject(StoredObject.builder(
                "staging/0b6f", 3).build()));
        assertThatThrownBy(() -> deferred.submit(List.of(Attachment.of("a.png", new byte[] {1}), copy)))
                .isInstanceOf(InvalidAttachmentException.class).hasMessageContaining("file 2 'copy.png'")
                .hasMessageContaining("an object in the storage already");
        assertThat(deferred.stats().pendingAttachments()).isZero();
    }
}
