package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.BatchTakenOverException;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadJournal;
import io.github.boundedupload.spi.UploadRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Liveness and fencing on H2 with the local-disk storage: an instance proves it is alive to the database; one that
 * stops (here: cut off from its database, as a partition or a long pause would have it) is taken for dead by another,
 * which removes what its batches stored without waiting for their lease; the stale instance, when it comes back, acts
 * on none of it any more, and what it stored after the takeover is taken back and removed. (The same with real
 * processes stopped with SIGSTOP, on PostgreSQL and S3, is in {@code PauseIT}.)
 */
class LivenessTest {

    private static final Duration HEARTBEAT = Duration.ofMillis(200);
    private static final Duration LIVENESS = Duration.ofSeconds(1);

    @TempDir
    Path root;

    private JdbcDataSource database;
    private final List<AutoCloseable> closeLast = new ArrayList<>();

    @BeforeEach
    void setUp() {
        database = new JdbcDataSource();
        database.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = closeLast.size() - 1; i >= 0; i--) {
            closeLast.get(i).close();
        }
    }

    private JdbcUploadJournal journal(String instance, DataSource dataSource, FileUploader storage) {
        JdbcUploadJournal journal = JdbcUploadJournal.builder(dataSource, storage).instanceName(instance)
                .createTables(true).pollingInterval(Duration.ofMillis(100)).heartbeatInterval(HEARTBEAT)
                .livenessTimeout(LIVENESS).retryPauses(Duration.ofMillis(20), Duration.ofMillis(200)).build();
        closeLast.add(journal);
        return journal;
    }

    private ConcurrentAttachmentUploader uploader(UploadJournal journal, FileUploader storage) {
        return uploader(journal, storage, UploaderConfig.DEFAULT_STOP_TIMEOUT);
    }

    private ConcurrentAttachmentUploader uploader(UploadJournal journal, FileUploader storage, Duration stopTimeout) {
        // A batch may run 10 minutes: its journal lease is far longer than anything these tests wait for.
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder()
                .journal(journal).batchTimeout(Duration.ofMinutes(10)).uploadTimeout(Duration.ofMinutes(10))
                .stopTimeout(stopTimeout).build());
        closeLast.add(uploader);
        return uploader;
    }

    private List<String> stored() throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().startsWith("."))
                    .map(f -> root.relativize(f).toString()).sorted().toList();
        }
    }

    /** A batch whose first file is stored and whose second ({@code late.jpg}) is held in its upload. */
    private CompletableFuture<BatchResult> earlyStoredLateHeld(ConcurrentAttachmentUploader uploader, HeldUpload held)
            throws Exception {
        CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(List.of(
                Attachment.of("early.jpg", "early".getBytes(StandardCharsets.UTF_8)),
                Attachment.of("late.jpg", "late".getBytes(StandardCharsets.UTF_8))));
        assertThat(held.started.await(10, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> stored().size() == 1);
        return batch;
    }

    private int rows(String table) throws SQLException {
        try (Connection c = database.getConnection(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            r.next();
            return r.getInt(1);
        }
    }

    @Test
    void anInstanceCutOffPastTheLivenessTimeoutStopsItsBatchWhichAnotherInstanceRemoves() throws Exception {
        LocalFileUploader disk = new LocalFileUploader(root);
        HeldUpload held = new HeldUpload(disk, "late.jpg", true);
        CuttableDataSource cut = new CuttableDataSource(database);
        JdbcUploadJournal stale = journal("stale", cut, held);
        ConcurrentAttachmentUploader uploader = uploader(stale, held, Duration.ofSeconds(10));
        journal("live", database, disk);

        CompletableFuture<BatchResult> batch = earlyStoredLateHeld(uploader, held);

        cut.cut = true; // from now on the stale instance sends no heartbeat
        // Once it cannot vouch for itself any more, it stops the upload in flight: nothing lands late.
        BatchResult result = failure(batch).result();
        UploadResult late = result.results().get(1);
        assertThat(late.status()).isEqualTo(UploadResult.Status.FAILED);
        assertThat(late.failure()).get().isInstanceOf(BatchTakenOverException.class);
        assertThat(result.results().get(0).status()).as("stored before: the instance that takes over removes it")
                .isEqualTo(UploadResult.Status.POSSIBLY_STORED);

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> stored().isEmpty() && rows("bounded_upload_batch") == 0);
        cut.cut = false;
        await().atMost(Duration.ofSeconds(20)).until(() -> rows("bounded_upload_instance") == 2);
        assertThat(stored()).isEmpty();
        assertThat(stale.status().fenced()).as("steps the stale instance did not take").isPositive();
    }

    @Test
    void anObjectThatLandsAfterItsBatchWasTakenOverIsTakenBackAndRemoved() throws Exception {
        LocalFileUploader disk = new LocalFileUploader(root);
        // A call that does not stop when asked: the object lands whatever the uploader says.
        HeldUpload held = new HeldUpload(disk, "late.jpg", false);
        CuttableDataSource cut = new CuttableDataSource(database);
        JdbcUploadJournal stale = journal("stale", cut, held);
        ConcurrentAttachmentUploader uploader = uploader(stale, held, Duration.ofMillis(200));
        JdbcUploadJournal live = journal("live", database, disk);

        CompletableFuture<BatchResult> batch = earlyStoredLateHeld(uploader, held);

        cut.cut = true;
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> stored().isEmpty() && rows("bounded_upload_batch") == 0);
        assertThat(rows("bounded_upload_instance")).as("sessions: the live instance's only").isEqualTo(1);
        assertThat(failure(batch).result().results().get(1).failure()).get()
                .isInstanceOf(io.github.boundedupload.UploadStuckException.class);

        cut.cut = false;
        held.release.countDown(); // the held upload lands now, after the live instance removed the batch
        await().atMost(Duration.ofSeconds(20)).until(() -> held.landed);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(stored()).isEmpty());
        await().atMost(Duration.ofSeconds(20)).until(() -> rows("bounded_upload_batch") == 0
                && rows("bounded_upload_instance") == 2);
        assertThat(stale.status().fenced()).as("steps the stale instance did not take").isPositive();
        assertThat(live.status().fenced()).isZero();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new JournalMeters(stale, Duration.ZERO).bindTo(registry);
        assertThat(registry.get("bounded.upload.journal.fenced").functionCounter().count())
                .isEqualTo(stale.status().fenced());
    }

    @Test
    void aLiveInstanceKeepsABatchThatRunsLongerThanTheLivenessTimeout() throws Exception {
        LocalFileUploader disk = new LocalFileUploader(root);
        HeldUpload held = new HeldUpload(disk, "slow.jpg", true);
        JdbcUploadJournal owner = journal("owner", database, held);
        ConcurrentAttachmentUploader uploader = uploader(owner, held);
        journal("other", database, disk);

        CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(List.of(
                Attachment.of("slow.jpg", "slow".getBytes(StandardCharsets.UTF_8))));
        assertThat(held.started.await(10, TimeUnit.SECONDS)).isTrue();
        // Three liveness timeouts of recovery by the other instance, while the owner beats.
        long until = System.nanoTime() + LIVENESS.multipliedBy(3).toNanos();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> System.nanoTime() - until > 0);
        assertThat(rows("bounded_upload_batch")).as("the batch, still open").isEqualTo(1);
        held.release.countDown();

        assertThat(batch.get(20, TimeUnit.SECONDS).allStored()).isTrue();
        assertThat(stored()).containsExactly(batch.get().results().get(0).storedObject().orElseThrow().key());
        assertThat(owner.status().fenced()).isZero();
        assertThat(rows("bounded_upload_batch")).isZero();
    }

    @Test
    void aClosedInstancesOpenBatchIsRemovedAtTheNextRecoveryNotAtTheEndOfItsLease() throws Exception {
        LocalFileUploader disk = new LocalFileUploader(root);
        JdbcUploadJournal closing = journal("closing", database, disk);
        journal("other", database, disk);
        UploadJournal.Entry entry = closing.begin(new BatchEvent("app", 1, 1), List.of("never-kept.txt"),
                Duration.ofHours(1));
        disk.upload(UploadRequest.builder("never-kept.txt", Attachment.of("a.txt", new byte[] {1})).build());
        closing.close(); // its caller never kept nor settled the batch

        await().atMost(Duration.ofSeconds(20)).until(() -> stored().isEmpty() && rows("bounded_upload_batch") == 0);
        assertThat(entry.owned()).isFalse();
    }

    @Test
    void keysABatchLostAreNeverMovedAwayFromTheBatchThatHoldsThemNow() throws Exception {
        LocalFileUploader disk = new LocalFileUploader(root);
        JdbcUploadJournal journal = journal("one", database, disk);
        UploadJournal.Entry first = journal.begin(new BatchEvent("app", 1, 2), List.of("a.txt", "b.txt"),
                Duration.ofHours(1));
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM bounded_upload_batch"); // what a compensation that took it over ends with
        }
        journal.begin(new BatchEvent("app", 2, 1), List.of("b.txt"), Duration.ofHours(1));

        assertThatThrownBy(() -> first.keep(List.of("a.txt"))).isInstanceOf(UploadException.class)
                .hasMessageContaining("is being removed already");

        try (Connection c = database.getConnection(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT b.state FROM bounded_upload_key k JOIN bounded_upload_batch b"
                        + " ON b.id = k.batch_id WHERE k.object_key = 'b.txt'")) {
            assertThat(r.next()).isTrue();
            assertThat(r.getString(1)).as("b.txt stays with the batch that holds it now").isEqualTo("OPEN");
        }
    }

    private static BatchFailedException failure(CompletableFuture<BatchResult> batch) throws Exception {
        try {
            batch.get(30, TimeUnit.SECONDS);
            throw new AssertionError("the batch did not fail");
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(BatchFailedException.class);
            return (BatchFailedException) e.getCause();
        }
    }

    /**
     * A storage whose upload of one file name starts, then waits for the test before it writes anything; stopped by an
     * interrupt, or (like bytes already on their way) not.
     */
    private static final class HeldUpload implements FileUploader {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean landed;
        private final FileUploader storage;
        private final String fileName;
        private final boolean stops;

        HeldUpload(FileUploader storage, String fileName, boolean stops) {
            this.storage = storage;
            this.fileName = fileName;
            this.stops = stops;
        }

        @Override
        public StoredObject upload(UploadRequest request) throws IOException {
            if (request.fileName().equals(fileName)) {
                started.countDown();
                boolean interrupted = false;
                while (true) {
                    try {
                        if (!release.await(60, TimeUnit.SECONDS)) {
                            throw new IOException("the test did not release the upload");
                        }
                        break;
                    } catch (InterruptedException e) {
                        if (stops) {
                            Thread.currentThread().interrupt();
                            throw new java.io.InterruptedIOException("interrupted");
                        }
                        interrupted = true;
                    }
                }
                StoredObject stored = storage.upload(request);
                landed = true;
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                return stored;
            }
            return storage.upload(request);
        }

        @Override
        public void delete(String key) throws IOException {
            storage.delete(key);
        }
    }

    /** The database as one instance sees it: cut off (no new connection) while {@link #cut} is set. */
    private static final class CuttableDataSource implements DataSource {
        private final DataSource database;
        volatile boolean cut;

        CuttableDataSource(DataSource database) {
            this.database = database;
        }

        @Override
        public Connection getConnection() throws SQLException {
            if (cut) {
                throw new SQLException("cut off from the database (test)", "08001");
            }
            return database.getConnection();
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return false;
        }
    }
}
