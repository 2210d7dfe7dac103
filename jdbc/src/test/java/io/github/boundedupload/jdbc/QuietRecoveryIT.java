package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.UploadRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Routine recovery is quiet: several live instances find the same dead runs (an instance died in the middle of 40
 * compensations: each run picked by it, its heartbeat an hour old, as a SIGKILL leaves them) and revive them at once.
 * Each is completed exactly once, and nothing logs an ERROR; with db-scheduler's own handler the instances that come
 * second logged "Failed while handling dead execution ... Expected one execution to be updated, but updated 0.
 * Indicates a bug." for each run they lost.
 */
class QuietRecoveryIT {

    private static final int RUNS = 40;
    private static final int INSTANCES = 3;

    @TempDir
    Path root;

    @Test
    void instancesRevivingTheSameDeadRunsLogNoError() throws Exception {
        DataSource database = Postgres.dataSource(Postgres.newDatabase("quiet"));
        LocalFileUploader storage = new LocalFileUploader(root);
        JdbcUploadJournal dead = JdbcUploadJournal.builder(database, storage).instanceName("dead").createTables(true)
                .build();
        dead.close(); // it recorded batches below, and runs nothing any more
        List<String> keys = new ArrayList<>();
        for (int b = 0; b < RUNS; b++) {
            String key = "dead/" + b + ".txt";
            keys.add(key);
            dead.begin(new BatchEvent("app", b, 1), List.of(key), Duration.ofMinutes(30));
            storage.upload(UploadRequest.of(key, io.github.boundedupload.Attachment.of("x.txt",
                    "x".getBytes(StandardCharsets.UTF_8))));
        }
        leaveDeadCompensations(database);

        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger rootLogger = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        log.start();
        rootLogger.addAppender(log);
        List<JdbcUploadJournal> fleet = new ArrayList<>();
        try {
            // Every instance looks for dead runs as it starts: at the same moment.
            fleet.addAll(AtOnce.start(INSTANCES, i -> JdbcUploadJournal.builder(database, storage)
                    .instanceName("live-" + i).heartbeatInterval(Duration.ofMillis(500))
                    .pollingInterval(Duration.ofMillis(500)).threads(4).build()));
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                    .until(() -> fleet.get(0).status().unsettledBatches() == 0);
            long completed = 0;
            for (JdbcUploadJournal live : fleet) {
                completed += live.status().compensationsCompleted();
            }
            assertThat(completed).as("compensations completed, over the instances").isEqualTo(RUNS);
        } finally {
            fleet.forEach(JdbcUploadJournal::close);
            rootLogger.detachAppender(log);
        }
        for (String key : keys) {
            assertThat(Files.exists(root.resolve(key))).as(key).isFalse();
        }
        List<String> errors = log.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.ERROR))
                .map(e -> e.getLoggerName() + ": " + e.getFormattedMessage()).toList();
        long lost = log.list.stream().filter(e -> e.getFormattedMessage().contains("another instance revived it"
                + " first")).count();
        String report = RUNS + " dead runs, " + INSTANCES + " instances reviving them at once: " + lost
                + " found revived by another instance first (INFO), " + errors.size() + " ERROR lines";
        Files.writeString(Path.of("target", "quiet-recovery.txt"), report + System.lineSeparator());
        System.out.println(report);
        assertThat(lost).as("dead runs two instances revived at once (else this test proved nothing)").isPositive();
        assertThat(errors).as("ERROR lines while instances recovered each other's work").isEmpty();
    }

    /** What a SIGKILL in the middle of each compensation leaves: claimed batches, runs picked by the dead instance. */
    private static void leaveDeadCompensations(DataSource database) throws Exception {
        Timestamp hourAgo = Timestamp.from(Instant.now().minus(Duration.ofHours(1)));
        try (Connection c = database.getConnection()) {
            List<String> ids = new ArrayList<>();
            try (var s = c.createStatement(); var r = s.executeQuery("SELECT id FROM bounded_upload_batch")) {
                while (r.next()) {
                    ids.add(r.getString(1));
                }
            }
            try (PreparedStatement claim = c.prepareStatement("UPDATE bounded_upload_batch SET state ="
                    + " 'COMPENSATING' WHERE id = ?");
                    PreparedStatement run = c.prepareStatement("INSERT INTO bounded_upload_task (task_name,"
                            + " task_instance, execution_time, picked, picked_by, last_heartbeat, version,"
                            + " consecutive_failures) VALUES ('bounded-upload-compensation', ?, ?, TRUE, 'dead', ?,"
                            + " 2, 0)")) {
                for (String id : ids) {
                    claim.setString(1, id);
                    claim.executeUpdate();
                    run.setString(1, id);
                    run.setTimestamp(2, hourAgo);
                    run.setTimestamp(3, hourAgo);
                    run.executeUpdate();
                }
            }
        }
    }
}
