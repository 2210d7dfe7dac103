package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import io.github.boundedupload.testsupport.TestData;
import io.github.boundedupload.testsupport.TestProxy;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
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
 * so a journal lease of 31; heartbeats every 10 s, dead after 6 missed). An instance ({@link DeadInstanceChild}) is
 * killed with SIGKILL while it uploads a deferred attachment and while it removes a batch nobody keeps (a
 * compensation), the storage 500 ms away. Two other instances then start, as a fleet has them, and both find the dead
 * runs. Measured from the kill: when the deferred attachment is stored, with its bytes, and when the compensation has
 * removed every object. Both within a few minutes, not after the 31-minute lease; and recovering each other's work
 * logs no ERROR (db-scheduler's "Expected one execution to be updated, but updated 0. Indicates a bug." when both
 * instances revive the same dead run).
 */
class DeadInstanceRecoveryIT {

    static final String COMPENSATED = "left-by-the-dead/";
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

        // What the kill cut: the upload had begun its journal batch and was not recorded; the compensation had
        // deleted some of the objects at most.
        assertThat(deferredState(database, deferredKey)).isEqualTo("PENDING");
        assertThat(openBatchesOf(database, "dead")).as("the upload's journal batch, held by its lease").isOne();
        assertThat(bucket.keys(COMPENSATED)).as("objects the compensation had not removed yet").isNotEmpty();

        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        log.start();
        root.addAppender(log);
        List<AutoCloseable> fleet = new ArrayList<>();
        Duration stored;
        Duration compensated;
        try {
            for (String name : List.of("survivor-1", "survivor-2")) {
                start(database, name, fleet);
            }
            await().atMost(A_FEW_MINUTES.plusMinutes(1)).pollInterval(Duration.ofMillis(250))
                    .until(() -> "STORED".equals(deferredState(database, deferredKey)));
            stored = Duration.ofNanos(System.nanoTime() - kill);
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
                "compensation cut by SIGKILL, finished by another instance " + compensated.toSeconds() + " s after"
                        + " the kill (" + COMPENSATED_KEYS + " deletes of 500 ms included)",
                "dead runs found by both instances, revived by the other first (logged at INFO): "
                        + revivedFirstByAnother + "; ERROR lines: " + errors.size());
        Files.write(Path.of("target", "dead-instance-recovery.txt"), report, StandardCharsets.UTF_8);
        report.forEach(System.out::println);

        assertThat(stored).as("deferred upload stored after the kill").isLessThan(A_FEW_MINUTES);
        assertThat(compensated).as("compensation finished after the kill").isLessThan(A_FEW_MINUTES);
        assertThat(bucket.sha256(deferredKey)).isEqualTo(Optional.of(TestData.sha256(DeferredChild.image(SEED, 0))));
        assertThat(bucket.keys()).containsExactly(deferredKey);
        assertThat(bucket.incompleteUploads()).isEmpty();
        assertThat(errors).as("ERROR lines while the fleet recovered").isEmpty();
    }

    /**
     * Starts one instance of the fleet: journal, uploader and deferred uploads on the defaults; each uploader is closed
     * before its journal.
     */
    private static void start(DataSource database, String name, List<AutoCloseable> fleet) {
        S3FileUploader storage = S3FileUploader.builder(slowS3(), bucket.name()).build();
        JdbcUploadJournal journal = DeadInstanceChild.journal(database, storage, name);
        fleet.add(0, journal);
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().journal(journal).build());
        fleet.add(0, uploader);
        DeferredUploads.builder(journal, uploader).build();
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

    /** Reads the child's lines until its deferred upload's PUT starts; returns that upload's key. */
    private static String runUntilUploading(Process child) throws IOException {
        BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8));
        boolean compensating = false;
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (line.equals("compensating")) {
                compensating = true;
            } else if (line.startsWith("uploading ") && compensating) {
                return line.substring("uploading ".length());
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
