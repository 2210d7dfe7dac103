package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import io.github.boundedupload.testsupport.TestData;
import io.github.boundedupload.testsupport.TestProxy;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * How soon a fleet recovers the work of an instance that died, on the default settings (a batch timeout of 30 minutes,
 * so a journal lease of 31; heartbeats every 10 s, dead after 6 missed, an instance dead after a minute without a
 * heartbeat). An instance ({@link DeadInstanceChild}) is killed with SIGKILL while it uploads a deferred attachment,
 * while a request's batch of it has stored three objects and uploads a fourth, and while it removes a batch nobody
 * keeps (a compensation), the storage 500 ms away. Two other instances then start, as a fleet has them, and both find
 * the dead runs. Measured from the kill: when the deferred attachment is stored, with its bytes, when the request's
 * batch's objects are gone, and when the compensation has removed every object. All within a few minutes, not after
 * the 31-minute lease; and recovering each other's work
 * logs no ERROR (db-scheduler's "Expected one execution to be updated, but updated 0. Indicates a bug." when both
 * instances revive the same dead run).
 */
class DeadInstanceRecoveryIT {

    static final String COMPENSATED = "left-by-the-dead/";
    static final String MID_BATCH = "mid-batch/";
    static final int MID_BATCH_STORED = 3;
    private static final String SLOW = "slow/0";
    private static final int COMPENSATED_KEYS = 20;
    private static final long SEED = 20261126L;
    private static final Duration A_FEW_MINUTES = Duration.ofMinutes(3);

    private static final S3TestServices services = S3TestServices.get();
    private static TestBucket bucket;
    private static TestProxy proxy;

    @BeforeAll
    static void services() throws IOException {
        bucket = services.createBucket("dead-instance");
        proxy = services.createProxy("dead-instance");
        proxy.toxiproxy().toxics().latency("storage-latency", ToxicDirection.DOWNSTREAM, 500);
    }

    @AfterAll
    static void cleanUp() {
        proxy.close();
        bucket.close();
    }

    @Test
    void aDeferredUploadAndACompensationCutBySigkillAreFinishedByTheFleetWithinAFewMinutesOnTheDefaults()
            throws Exception {
        String url = Postgres.newDatabase("dead_instance");
        DataSource database = Postgres.dataSource(url);
        S3Client direct = services.s3Client();
        for (int i = 0; i < COMPENSATED_KEYS; i++) {
            String key = COMPENSATED + i;
            direct.putObject(put -> put.bucket(bucket.name()).key(key), RequestBody.fromString("left"));
        }

        Process child = start(url);
        String deferredKey = runUntilUploading(child);
        child.destroyForcibly(); // SIGKILL, the PUT in flight
        long kill = System.nanoTime();
        child.waitFor(30, TimeUnit.SECONDS);

        // What the kill cut: the upload had begun its journal batch and was not recorded; the request's batch had
        // stored its objects and waited for its last one; the compensation had deleted some of the objects at most.
        assertThat(deferredState(database, deferredKey)).isEqualTo("PENDING");
        assertThat(openBatchesOf(database, "dead")).as("the upload's and the request's journal batches, held by"
                + " their leases").isEqualTo(2);
        assertThat(bucket.keys(MID_BATCH)).as("the request's batch's objects").hasSize(MID_BATCH_STORED);
        assertThat(bucket.keys(COMPENSATED)).as("objects the compensation had not removed yet").isNotEmpty();

        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        log.start();
        root.addAppender(log);
        List<AutoCloseable> fleet = new ArrayList<>();
        Duration stored;
        Duration compensated;
        Duration batchRemoved;
        Duration slowRan;
        BatchResult slow;
        try {
            JdbcUploadJournal first = start(database, "survivor-1", fleet);
            start(database, "survivor-2", fleet);
            // A live instance's batch that runs longer than the liveness timeout: its instance beats, so it keeps it.
            CountDownLatch release = new CountDownLatch(1);
            ConcurrentAttachmentUploader held = ConcurrentAttachmentUploader.create(new Held(S3FileUploader.builder(
                    services.s3Client(), bucket.name()).build(), release), UploaderConfig.builder().name("held")
                    .journal(first).build());
            fleet.add(0, held);
            long slowStart = System.nanoTime();
            CompletableFuture<BatchResult> slowBatch = held.uploadAllAsync(List.of(Attachment.builder("slow.jpg",
                    AttachmentContent.ofBytes(DeferredChild.image(SEED, 1))).key(SLOW).build()));
            CompletableFuture<Duration> removed = CompletableFuture.supplyAsync(() -> {
                await().atMost(A_FEW_MINUTES.plusMinutes(1)).pollInterval(Duration.ofMillis(250))
                        .until(() -> bucket.keys(MID_BATCH).isEmpty());
                return Duration.ofNanos(System.nanoTime() - kill);
            });
            await().atMost(A_FEW_MINUTES.plusMinutes(1)).pollInterval(Duration.ofMillis(250))
                    .until(() -> "STORED".equals(deferredState(database, deferredKey)));
            stored = Duration.ofNanos(System.nanoTime() - kill);
            batchRemoved = removed.get(A_FEW_MINUTES.toMinutes() + 1, TimeUnit.MINUTES);
            Duration longer = JdbcUploadJournal.DEFAULT_LIVENESS_TIMEOUT
                    .plus(JdbcUploadJournal.DEFAULT_POLLING_INTERVAL.multipliedBy(2));
            await().atMost(A_FEW_MINUTES).pollInterval(Duration.ofMillis(250))
                    .until(() -> System.nanoTime() - slowStart > longer.toNanos());
            release.countDown();
            slow = slowBatch.get(1, TimeUnit.MINUTES);
            slowRan = Duration.ofNanos(System.nanoTime() - slowStart);
            await().atMost(A_FEW_MINUTES.plusMinutes(1)).pollInterval(Duration.ofMillis(250))
                    .until(() -> unsettledBatches(database) == 0 && bucket.keys(COMPENSATED).isEmpty());
            compensated = Duration.ofNanos(System.nanoTime() - kill);
        } finally {
            for (AutoCloseable closing : fleet) {
                closing.close();
            }
            root.detachAppender(log);
        }
        List<String> errors = log.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.ERROR))
                .map(e -> e.getLoggerName() + ": " + e.getFormattedMessage()).toList();
        long revivedFirstByAnother = log.list.stream()
                .filter(e -> e.getFormattedMessage().contains("another instance revived it first")).count();

        List<String> report = List.of(
                "defaults: heartbeat every " + JdbcUploadJournal.DEFAULT_HEARTBEAT_INTERVAL.toSeconds() + " s, dead"
                        + " after 6 missed; batch timeout " + UploaderConfig.DEFAULT_BATCH_TIMEOUT.toMinutes()
                        + " min (journal lease about 31 min); storage 500 ms away",
                "deferred upload cut by SIGKILL, stored by another instance " + stored.toSeconds() + " s after the"
                        + " kill",
                "request batch cut by SIGKILL (" + MID_BATCH_STORED + " objects stored, one upload running), its"
                        + " objects removed by another instance " + batchRemoved.toSeconds() + " s after the kill"
                        + " (liveness timeout " + JdbcUploadJournal.DEFAULT_LIVENESS_TIMEOUT.toSeconds() + " s)",
                "compensation cut by SIGKILL, finished by another instance " + compensated.toSeconds() + " s after"
                        + " the kill (" + COMPENSATED_KEYS + " deletes of 500 ms included)",
                "a live instance's batch that ran " + slowRan.toSeconds() + " s (the liveness timeout is "
                        + JdbcUploadJournal.DEFAULT_LIVENESS_TIMEOUT.toSeconds() + " s): kept, "
                        + slow.storedObjects().size() + " object stored",
                "dead runs found by both instances, revived by the other first (logged at INFO): "
                        + revivedFirstByAnother + "; ERROR lines: " + errors.size());
        Files.write(Path.of("target", "dead-instance-recovery.txt"), report, StandardCharsets.UTF_8);
        report.forEach(System.out::println);

        assertThat(stored).as("deferred upload stored after the kill").isLessThan(A_FEW_MINUTES);
        assertThat(batchRemoved).as("request batch's objects removed after the kill").isLessThan(A_FEW_MINUTES);
        assertThat(compensated).as("compensation finished after the kill").isLessThan(A_FEW_MINUTES);
        assertThat(bucket.sha256(deferredKey)).isEqualTo(Optional.of(TestData.sha256(DeferredChild.image(SEED, 0))));
        assertThat(slow.allStored()).as("the live instance's slow batch").isTrue();
        assertThat(slowRan).isGreaterThan(JdbcUploadJournal.DEFAULT_LIVENESS_TIMEOUT);
        assertThat(bucket.sha256(SLOW)).isEqualTo(Optional.of(TestData.sha256(DeferredChild.image(SEED, 1))));
        assertThat(bucket.keys()).containsExactlyInAnyOrder(deferredKey, SLOW);
        assertThat(bucket.incompleteUploads()).isEmpty();
        assertThat(errors).as("ERROR lines while the fleet recovered").isEmpty();
    }

    /**
     * Starts one instance of the fleet: journal, uploader and deferred uploads on the defaults; each uploader is closed
     * before its journal.
     */
    private static JdbcUploadJournal start(DataSource database, String name, List<AutoCloseable> fleet) {
        S3FileUploader storage = S3FileUploader.builder(slowS3(), bucket.name()).build();
        JdbcUploadJournal journal = DeadInstanceChild.journal(database, storage, name);
        fleet.add(0, journal);
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().journal(journal).build());
        fleet.add(0, uploader);
        DeferredUploads.builder(journal, uploader).build();
        return journal;
    }

    /** A storage whose uploads wait for the test before they start. */
    private static final class Held implements FileUploader {
        private final FileUploader storage;
        private final CountDownLatch release;

        Held(FileUploader storage, CountDownLatch release) {
            this.storage = storage;
            this.release = release;
        }

        @Override
        public StoredObject upload(UploadRequest request) throws IOException {
            try {
                if (!release.await(5, TimeUnit.MINUTES)) {
                    throw new IOException("not released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted");
            }
            return storage.upload(request);
        }

        @Override
        public void delete(String key) throws IOException {
            storage.delete(key);
        }
    }

    private static S3Client slowS3() {
        return services.s3ClientBuilder(proxy.endpoint()).build();
    }

    private Process start(String url) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                DeadInstanceChild.class.getName(), url, proxy.endpoint().toString(), S3TestServices.ACCESS_KEY,
                S3TestServices.SECRET_KEY, services.region().id(), bucket.name(), "dead",
                String.valueOf(COMPENSATED_KEYS), String.valueOf(SEED));
        File log = Path.of("target", "dead-instance-child.log").toFile();
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log)).start();
    }

    /**
     * Reads the child's lines until its compensation runs, its request's batch stored its objects and its deferred
     * upload's PUT started; returns that upload's key.
     */
    private static String runUntilUploading(Process child) throws IOException {
        BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8));
        boolean compensating = false;
        int batchStored = 0;
        String uploading = null;
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (line.equals("compensating")) {
                compensating = true;
            } else if (line.startsWith("uploading ") && compensating) {
                uploading = line.substring("uploading ".length());
            } else if (line.startsWith("batch-stored ")) {
                batchStored++;
            }
            if (uploading != null && batchStored == MID_BATCH_STORED) {
                return uploading;
            }
        }
        throw new IllegalStateException("the child ended before its deferred upload started; see"
                + " target/dead-instance-child.log");
    }

    private static String deferredState(DataSource database, String key) throws Exception {
        try (Connection c = database.getConnection(); PreparedStatement s = c.prepareStatement(
                "SELECT state FROM bounded_upload_deferred WHERE object_key = ?")) {
            s.setString(1, key);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? r.getString(1) : "none";
            }
        }
    }

    private static int openBatchesOf(DataSource database, String owner) throws Exception {
        try (Connection c = database.getConnection(); PreparedStatement s = c.prepareStatement(
                "SELECT COUNT(*) FROM bounded_upload_batch WHERE owner = ? AND state = 'OPEN'")) {
            s.setString(1, owner);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getInt(1);
            }
        }
    }

    private static int unsettledBatches(DataSource database) throws Exception {
        try (Connection c = database.getConnection(); PreparedStatement s = c.prepareStatement(
                "SELECT COUNT(*) FROM bounded_upload_batch"); ResultSet r = s.executeQuery()) {
            r.next();
            return r.getInt(1);
        }
    }
}
