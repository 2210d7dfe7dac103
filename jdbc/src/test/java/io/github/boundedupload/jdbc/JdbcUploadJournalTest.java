package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadJournal;
import io.github.boundedupload.spi.UploadRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.h2.jdbcx.JdbcDataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal on H2 with the local-disk storage: keeping in the caller's transaction, removal after a rollback, after
 * deletes the uploader gave up, and after a process that never came back; refusal of a key an unsettled batch holds.
 * (The same against PostgreSQL and S3, with real crashes, is in the integration tests.)
 */
class JdbcUploadJournalTest {

    @TempDir
    Path root;

    private JdbcDataSource database;
    private FlakyStorage storage;
    private final List<AutoCloseable> closeLast = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        database = new JdbcDataSource();
        database.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        storage = new FlakyStorage(new LocalFileUploader(root));
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = closeLast.size() - 1; i >= 0; i--) {
            closeLast.get(i).close();
        }
    }

    private JdbcUploadJournal journal(String instance) {
        return journal(instance, builder -> { });
    }

    private JdbcUploadJournal journal(String instance, Consumer<JdbcUploadJournal.Builder> settings) {
        JdbcUploadJournal.Builder builder = JdbcUploadJournal.builder(database, storage).instanceName(instance)
                .createTables(true).keepMargin(Duration.ZERO).pollingInterval(Duration.ofMillis(200))
                .retryPauses(Duration.ofMillis(20), Duration.ofMillis(100)).failingAfter(3);
        settings.accept(builder);
        JdbcUploadJournal journal = builder.build();
        closeLast.add(journal);
        return journal;
    }

    /** A batch stored, then rolled back: its compensation starts once its lease ends. */
    private void rolledBackBatch(ConcurrentAttachmentUploader uploader) throws Exception {
        try (Connection tx = database.getConnection()) {
            tx.setAutoCommit(false);
            JdbcUploadJournal.inTransaction(tx, () -> uploader.uploadAll(files(2)));
            tx.rollback();
        }
        assertThat(stored()).hasSize(2);
    }

    private ConcurrentAttachmentUploader uploader(UploadJournal journal) {
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder()
                .journal(journal).batchTimeout(Duration.ofSeconds(1)).stopTimeout(Duration.ofMillis(200))
                .rollbackDeadline(Duration.ofMillis(100)).build());
        closeLast.add(uploader);
        return uploader;
    }

    private static List<Attachment> files(int n) {
        List<Attachment> attachments = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            attachments.add(Attachment.of("photo-" + i + ".jpg", ("photo " + i).getBytes(StandardCharsets.UTF_8)));
        }
        return attachments;
    }

    private List<Path> stored() throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().startsWith("."))
                    .toList();
        }
    }

    @Test
    void aBatchKeptInACommittedTransactionStaysAndLeavesNothingInTheJournal() throws Exception {
        JdbcUploadJournal journal = journal("one");
        ConcurrentAttachmentUploader uploader = uploader(journal);
        try (Connection tx = database.getConnection()) {
            tx.setAutoCommit(false);
            BatchResult result = JdbcUploadJournal.inTransaction(tx, () -> uploader.uploadAll(files(3)));
            assertThat(result.allStored()).isTrue();
            tx.commit();
        }
        assertThat(stored()).hasSize(3);
        JournalStatus status = journal.status();
        assertThat(status.unsettledBatches()).isZero();
        assertThat(status.oldestUnsettled()).isEmpty();
    }

    @Test
    void aBatchWhoseTransactionRollsBackIsRemovedWhenItsLeaseEnds() throws Exception {
        JdbcUploadJournal journal = journal("one");
        ConcurrentAttachmentUploader uploader = uploader(journal);
        try (Connection tx = database.getConnection()) {
            tx.setAutoCommit(false);
            JdbcUploadJournal.inTransaction(tx, () -> uploader.uploadAll(files(3)));
            assertThat(stored()).hasSize(3);
            tx.rollback();
        }
        assertThat(journal.status().unsettledBatches()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(stored()).isEmpty();
            assertThat(journal.status().unsettledBatches()).isZero();
        });
        assertThat(journal.status().compensationsCompleted()).isEqualTo(1);
    }

    @Test
    void outsideATransactionASucceededBatchIsKeptAtOnce() throws Exception {
        JdbcUploadJournal journal = journal("one");
        ConcurrentAttachmentUploader uploader = uploader(journal);
        assertThat(uploader.uploadAllAsync(files(2)).join().allStored()).isTrue();
        assertThat(uploader.uploadAll(files(2)).allStored()).isTrue();
        assertThat(journal.status().unsettledBatches()).isZero();
        assertThat(stored()).hasSize(4);
    }

    @Test
    void deletesTheUploaderGaveUpAreRetriedByTheJournalUntilTheStorageConfirms() throws Exception {
        JdbcUploadJournal journal = journal("one");
        ConcurrentAttachmentUploader uploader = uploader(journal);
        storage.failUploadsNamed("photo-2.jpg", 2); // once the two others are stored: there is something to delete
        storage.deletesFail.set(true);
        assertThatThrownBy(() -> uploader.uploadAll(files(3))).isInstanceOf(BatchFailedException.class);
        // The uploader's own rollback gave up (its deadline is 100 ms): the journal holds the batch, retrying.
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            JournalStatus status = journal.status();
            assertThat(status.compensationsPending()).isEqualTo(1);
            assertThat(status.compensationsFailing()).isEqualTo(1);
            assertThat(status.failing()).singleElement().asString().contains("storage unreachable");
        });
        assertThat(stored()).isNotEmpty();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new JournalMeters(journal, Duration.ZERO).bindTo(registry); // and not kept: the meters must still read
        System.gc();
        assertThat(registry.get("bounded.upload.journal.compensations.failing").gauge().value()).isEqualTo(1);
        assertThat(registry.get("bounded.upload.journal.compensations.retried").functionCounter().count())
                .isGreaterThanOrEqualTo(3);

        storage.deletesFail.set(false);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(stored()).isEmpty();
            assertThat(journal.status().unsettledBatches()).isZero();
        });
        assertThat(registry.get("bounded.upload.journal.batches.unsettled").gauge().value()).isZero();
        assertThat(registry.get("bounded.upload.journal.compensations.completed").functionCounter().count())
                .isEqualTo(1);
    }

    @Test
    void closeWaitsWithinItsStopTimeoutForTheCompensationItRuns() throws Exception {
        JdbcUploadJournal journal = journal("one", builder -> builder.stopTimeout(Duration.ofMinutes(5)));
        ConcurrentAttachmentUploader uploader = uploader(journal);
        CountDownLatch release = storage.holdDeletes();
        rolledBackBatch(uploader);
        assertThat(storage.deleting.await(20, TimeUnit.SECONDS)).as("the compensation deletes").isTrue();

        uploader.close();
        Thread closing = new Thread(journal::close, "closing");
        closing.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> closing.getState() == Thread.State.TIMED_WAITING);
        release.countDown();
        closing.join();

        assertThat(storage.deleteInterrupted).as("the running delete was let finish").isFalse();
        assertThat(stored()).as("the compensation ended before the journal closed").isEmpty();
        assertThat(journal.status().unsettledBatches()).isZero();
        journal.close(); // again: nothing happens
    }

    @Test
    void whatStillRunsAfterTheStopTimeoutIsInterruptedAndTakenUpByAnInstanceThatIsAlive() throws Exception {
        Consumer<JdbcUploadJournal.Builder> fast = builder -> builder.stopTimeout(Duration.ofMillis(100))
                .heartbeatInterval(Duration.ofMillis(100)).livenessTimeout(Duration.ofMillis(300));
        JdbcUploadJournal one = journal("one", fast);
        ConcurrentAttachmentUploader uploader = uploader(one);
        storage.holdDeletes();
        rolledBackBatch(uploader);
        assertThat(storage.deleting.await(20, TimeUnit.SECONDS)).as("the compensation deletes").isTrue();

        uploader.close();
        one.close();
        assertThat(storage.deleteInterrupted).as("the delete still running was interrupted").isTrue();
        assertThat(stored()).as("nothing was deleted yet").hasSize(2);

        storage.letDeletesThrough();
        JdbcUploadJournal two = journal("two", fast);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(stored()).isEmpty();
            assertThat(two.status().unsettledBatches()).isZero();
        });
    }

    @Test
    void aBatchBegunByAnInstanceThatNeverCameBackIsRemovedByAnother() throws Exception {
        JdbcUploadJournal gone = journal("gone");
        String key = "left/behind.txt";
        // What a process does before it dies: the journal entry, then the object; then nothing.
        gone.begin(new BatchEvent("app", 1, 1), List.of(key), Duration.ofMillis(100));
        storage.upload(request(key));
        gone.close();
        assertThat(stored()).hasSize(1);

        JdbcUploadJournal alive = journal("alive");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(stored()).isEmpty();
            assertThat(alive.status().unsettledBatches()).isZero();
        });
    }

    @Test
    void aKeyAnUnsettledBatchHoldsIsRefusedBeforeAnythingIsWritten() throws Exception {
        JdbcUploadJournal journal = journal("one");
        journal.begin(new BatchEvent("app", 1, 1), List.of("avatars/42.png"), Duration.ofMinutes(5));
        ConcurrentAttachmentUploader uploader = uploader(journal);
        Attachment same = Attachment.builder("avatar.png", AttachmentContent.ofBytes(new byte[] {1}))
                .key("avatars/42.png").build();
        assertThatThrownBy(() -> uploader.uploadAll(List.of(files(1).get(0), same)))
                .isInstanceOf(UploadException.class)
                .hasMessageContaining("nothing of it was started")
                .hasMessageContaining("'avatars/42.png' belongs to a batch that is not settled");
        assertThat(stored()).isEmpty();
        assertThat(journal.status().unsettledBatches()).isEqualTo(1);
    }

    @Test
    void aBatchCannotBeKeptOnceItsLeaseEndedAndItIsBeingRemoved() throws Exception {
        JdbcUploadJournal journal = journal("one");
        String key = "late/keep.txt";
        UploadJournal.Entry entry = journal.begin(new BatchEvent("app", 1, 1), List.of(key),
                Duration.ofMillis(1));
        storage.upload(request(key));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(stored()).isEmpty());
        assertThatThrownBy(() -> entry.keep(List.of(key))).isInstanceOf(UploadException.class)
                .hasMessageContaining("is being removed already: its lease ended");
    }

    @Test
    void withoutCreateTablesAJournalOnAnIncompleteSchemaRefusesToStartNamingWhatIsMissing() throws SQLException {
        assertThat(JournalMigrations.missing(database)).startsWith("bounded_upload_batch").hasSize(8);
        assertThatThrownBy(() -> JdbcUploadJournal.builder(database, storage).build())
                .isInstanceOf(UploadException.class)
                .hasMessageStartingWith("the upload journal's schema is missing on H2: bounded_upload_batch,"
                        + " bounded_upload_key, bounded_upload_task, bounded_upload_deferred, bounded_upload_instance,"
                        + " bounded_upload_grant, bounded_upload_grant_caller, bounded_upload_grant.upload_id and"
                        + " by_form (version 4). Create it with createTables(true)");

        try (Connection c = database.getConnection(); var s = c.createStatement()) {
            s.execute("CREATE TABLE bounded_upload_grant (id INT)"); // a table of version 3, without version 4
        }
        assertThat(JournalMigrations.missing(database)).contains("bounded_upload_grant.upload_id and by_form"
                + " (version 4)").doesNotContain("bounded_upload_grant");

        try (Connection c = database.getConnection(); var s = c.createStatement()) {
            s.execute("DROP TABLE bounded_upload_grant");
        }
        journal("one");
        assertThat(JournalMigrations.missing(database)).isEmpty();
        JdbcUploadJournal.builder(database, storage).instanceName("two").build().close(); // starts on it
    }

    @Test
    void everySchemaScriptHasTheJournalsTables() throws SQLException {
        for (String database : List.of("postgresql", "mysql", "h2")) {
            for (String version : List.of("V1__bounded_upload_journal.sql", "V2__bounded_upload_liveness.sql",
                    "V3__bounded_upload_grant.sql", "V4__bounded_upload_grant_kinds.sql")) {
                String migration = "flyway/" + database + "/" + version;
                assertThat(JdbcUploadJournal.class.getResource(migration)).as(migration).isNotNull();
            }
        }
        assertThat(JdbcUploadJournal.class.getResource("liquibase/bounded-upload-journal.xml")).isNotNull();
        journal("one");
        journal("two"); // creating again finds the tables there
        try (Connection c = database.getConnection();
                var tables = c.getMetaData().getTables(null, null, "BOUNDED_UPLOAD_%", null)) {
            List<String> names = new ArrayList<>();
            while (tables.next()) {
                names.add(tables.getString("TABLE_NAME"));
            }
            assertThat(names).containsExactlyInAnyOrder("BOUNDED_UPLOAD_BATCH", "BOUNDED_UPLOAD_KEY",
                    "BOUNDED_UPLOAD_TASK", "BOUNDED_UPLOAD_DEFERRED", "BOUNDED_UPLOAD_INSTANCE", "BOUNDED_UPLOAD_GRANT",
                    "BOUNDED_UPLOAD_GRANT_CALLER");
        }
        MigrationsIT.hasVersion4(database);
    }

    @Test
    void tablesThatCannotBeCreatedAreReportedWithTheDatabasesReasonNotAsAnUnreachableDatabase() throws SQLException {
        try (Connection c = database.getConnection(); var s = c.createStatement()) {
            s.execute("CREATE TABLE bounded_upload_key (something_else INT)"); // not the journal's: its index fails
        }
        assertThatThrownBy(() -> journal("one")).isInstanceOf(UploadException.class)
                .hasMessageStartingWith("the upload journal could not create its tables on H2: ")
                .hasMessageContaining("BATCH_ID")
                .hasMessageNotContaining("could not reach");
    }

    private static UploadRequest request(String key) {
        return UploadRequest.of(key, Attachment.of("x.txt", "x".getBytes(StandardCharsets.UTF_8)));
    }

    /** The local disk, with uploads of chosen names and every delete failing on demand. */
    static final class FlakyStorage implements FileUploader {
        private final FileUploader target;
        final AtomicBoolean deletesFail = new AtomicBoolean();
        private volatile String failing = "";
        private volatile CountDownLatch storedBeforeFailing = new CountDownLatch(0);
        final AtomicInteger deleteTries = new AtomicInteger();
        /** Counted down when a delete waits for {@link #holdDeletes()}'s latch. */
        final CountDownLatch deleting = new CountDownLatch(1);
        volatile boolean deleteInterrupted;
        private volatile @Nullable CountDownLatch gate;

        FlakyStorage(FileUploader target) {
            this.target = target;
        }

        /** Deletes wait for the latch returned, or until interrupted. */
        CountDownLatch holdDeletes() {
            CountDownLatch release = new CountDownLatch(1);
            gate = release;
            return release;
        }

        void letDeletesThrough() {
            gate = null;
        }

        void failUploadsNamed(String name) {
            failUploadsNamed(name, 0);
        }

        /** Fails the uploads of that name once {@code storedFirst} other uploads are stored (or after 20 s). */
        void failUploadsNamed(String name, int storedFirst) {
            storedBeforeFailing = new CountDownLatch(storedFirst);
            failing = name;
        }

        @Override
        public StoredObject upload(UploadRequest request) throws IOException {
            if (request.attachment().fileName().equals(failing)) {
                try {
                    storedBeforeFailing.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new IOException("refused " + failing);
            }
            StoredObject stored = target.upload(request);
            storedBeforeFailing.countDown();
            return stored;
        }

        @Override
        public void delete(String key) throws IOException {
            deleteTries.incrementAndGet();
            CountDownLatch release = gate;
            if (release != null) {
                deleting.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    deleteInterrupted = true;
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while deleting " + key);
                }
            }
            if (deletesFail.get()) {
                throw new IOException("storage unreachable");
            }
            target.delete(key);
        }
    }
}
