package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import io.github.boundedupload.testsupport.TestProxy;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What an operator's fleet meets, done for real: instances of one application share a PostgreSQL and a bucket; one
 * instance ({@link FleetChild}, a JVM of its own) is stopped with SIGSTOP at a seeded step (during a request batch's
 * uploads, before the keep, between the keep and the commit, during a deferred upload, during a compensation) for
 * longer than the liveness timeout, resumed with SIGCONT, and killed with SIGKILL a seeded moment later; another is cut
 * off from PostgreSQL through Toxiproxy at a seeded step, for as long, then reconnected and killed. An instance in this
 * JVM stays alive throughout and takes their work over. When everything has settled, the bucket itself is read with
 * the raw SDK: every committed row's object and every stored deferred attachment are there, byte for byte; there is no
 * object without an owner and no incomplete multipart upload; and nothing logged a db-scheduler ERROR (for the instance
 * cut off from its database, nothing but db-scheduler's own reports of the outage) or an ERROR of the library.
 *
 * <p>Seeds: {@code -Dbounded-upload.pause.seeds=N} (3 by default, as CI runs them; the longer run of the docs uses 24)
 * from {@code -Dbounded-upload.pause.seed} on. Each subclass runs them against one S3 server, in a JVM of its own, so
 * that both servers run at once. Figures go to {@code target/pause-report-<server>.txt}, the instances' logs to
 * {@code target/pause/}.
 */
abstract class PauseScenarios {

    private static final String[] STEPS = {"uploading b 1", "finished b 1", "kept b 1", "uploading d 0",
        "uploading d 1", "compensating 0", "compensating 3"};
    private static final long FIRST_SEED = Long.getLong("bounded-upload.pause.seed", 20261128L);
    private static final int SEEDS = Integer.getInteger("bounded-upload.pause.seeds", 3);

    private static S3TestServices services;
    private static final List<String> report = new ArrayList<>();

    /** The S3 server of this class: {@code localstack} or {@code versitygw}. */
    static void selectServer(String id) {
        System.setProperty("bounded-upload.s3-server", id);
    }

    static Stream<Long> seeds() {
        return LongStream.range(FIRST_SEED, FIRST_SEED + SEEDS).boxed();
    }

    @BeforeAll
    static void services() {
        services = S3TestServices.get();
    }

    @AfterAll
    static void writeReport() throws IOException {
        Path file = Path.of("target", "pause-report-" + services.server().id() + ".txt");
        Files.write(file, report, StandardCharsets.UTF_8);
        report.forEach(System.out::println);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.github.boundedupload.jdbc.PauseScenarios#seeds")
    void aPausedAndACutOffInstanceLoseNothingAndLeaveNothing(long seed) throws Exception {
        Random random = new Random(seed);
        String url = Postgres.newDatabase("pause");
        DataSource database = Postgres.dataSource(url);
        FleetChild.createTables(database);
        Path logs = Files.createDirectories(Path.of("target", "pause"));
        String server = services.server().id();
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        log.start();
        root.addAppender(log);
        try (TestBucket bucket = services.createBucket("pause-" + seed);
                TestProxy s3 = services.createProxy("pause-s3-" + seed);
                TestProxy db = services.createProxyTo("pause-db-" + seed, Postgres.server().getPort())) {
            s3.toxiproxy().toxics().latency("latency", ToxicDirection.DOWNSTREAM, 60).setJitter(40);
            Survivor survivor = new Survivor(database, services.s3Client(), bucket.name());
            try {
                String pausedAt = STEPS[random.nextInt(STEPS.length)];
                String cutAt = STEPS[random.nextInt(STEPS.length)];
                long pausedExtra = 1_000 + random.nextInt(4_000);
                long cutExtra = 1_000 + random.nextInt(4_000);
                long pausedRun = 500 + random.nextInt(3_500);
                long cutRun = 500 + random.nextInt(3_500);
                String paused = "paused-" + server + "-" + seed;
                String cut = "cut-" + server + "-" + seed;
                Child pausedChild = Child.start(paused, url, s3, bucket.name(), random.nextLong(), pausedAt,
                        logs.resolve(paused + ".log"));
                Child cutChild = Child.start(cut, url.replace(":" + Postgres.server().getPort() + "/",
                        ":" + db.endpoint().getPort() + "/"), s3, bucket.name(), random.nextLong(), "-",
                        logs.resolve(cut + ".log"));
                CompletableFuture<String> pausing = CompletableFuture.supplyAsync(() -> pause(pausedChild, pausedAt,
                        database, pausedExtra, pausedRun));
                CompletableFuture<String> cutting = CompletableFuture.supplyAsync(() -> cutOff(cutChild, cutAt, db,
                        database, cutExtra, cutRun));
                String pausedHow = pausing.get(5, TimeUnit.MINUTES);
                String cutHow = cutting.get(5, TimeUnit.MINUTES);
                long killed = System.nanoTime();

                await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250))
                        .until(() -> settled(database));
                Duration recovery = Duration.ofNanos(System.nanoTime() - killed);

                Map<String, String> committed = rows(database, "SELECT object_key, sha256 FROM committed");
                Map<String, String> deferred = rows(database, "SELECT e.object_key, e.sha256 FROM deferred_expected e"
                        + " JOIN bounded_upload_deferred d ON d.object_key = e.object_key WHERE d.state = 'STORED'");
                Map<String, String> accepted = rows(database, "SELECT object_key, sha256 FROM deferred_expected");
                List<String> objects = bucket.keys();
                List<String> orphans = new ArrayList<>(objects);
                orphans.removeAll(committed.keySet());
                orphans.removeAll(deferred.keySet());
                Map<String, String> wrong = new HashMap<>();
                committed.forEach((key, sha) -> check(bucket, key, sha, wrong));
                deferred.forEach((key, sha) -> check(bucket, key, sha, wrong));
                List<String> incomplete = bucket.incompleteUploads().stream().map(u -> u.key()).toList();
                List<String> errors = errors(log, survivor.name, paused, cut, logs);
                report.add(server + " seed " + seed + ": " + paused + " " + pausedHow + "; " + cut + " " + cutHow
                        + "; recovered " + recovery.toMillis() + " ms after the kills; committed rows "
                        + committed.size() + ", deferred stored " + deferred.size() + "/" + accepted.size()
                        + ", objects " + objects.size() + ", orphans " + orphans.size() + ", wrong or missing "
                        + wrong.size() + ", incomplete multipart uploads " + incomplete.size() + ", ERROR lines "
                        + errors.size());

                assertThat(committed).as("committed rows").isNotEmpty();
                assertThat(deferred).as("every accepted deferred attachment, stored").hasSameSizeAs(accepted);
                assertThat(wrong).as("committed or stored objects missing or not byte for byte").isEmpty();
                assertThat(orphans).as("objects without an owner").isEmpty();
                assertThat(incomplete).as("incomplete multipart uploads").isEmpty();
                assertThat(errors).as("ERROR lines").isEmpty();
            } finally {
                survivor.close();
            }
        } finally {
            root.detachAppender(log);
        }
    }

    /**
     * Lets the child run until it holds at {@code at}, stops it there (SIGSTOP) until the fleet took it for dead and a
     * seeded moment more, resumes it (SIGCONT) and kills it (SIGKILL) a seeded moment later. Returns what was done.
     */
    private static String pause(Child child, String at, DataSource database, long extra, long run) {
        boolean held = child.awaitLine("held " + at, Duration.ofSeconds(40));
        signal(child.process, "STOP");
        long stopped = System.nanoTime();
        awaitDeclaredDead(database, child.name);
        sleep(extra);
        long pause = Duration.ofNanos(System.nanoTime() - stopped).toMillis();
        signal(child.process, "CONT");
        child.resume();
        sleep(run);
        child.process.destroyForcibly();
        return "stopped " + (held ? "at '" + at + "'" : "where it was (it did not reach '" + at + "' in 40 s)")
                + " for " + pause + " ms, killed " + run + " ms after SIGCONT";
    }

    /** Like {@link #pause}, but the child runs on, cut off from PostgreSQL (the proxy disabled) instead of stopped. */
    private static String cutOff(Child child, String at, TestProxy db, DataSource database, long extra, long run) {
        boolean reached = child.awaitLine(at, Duration.ofSeconds(40));
        try {
            db.toxiproxy().disable();
            long cut = System.nanoTime();
            awaitDeclaredDead(database, child.name);
            sleep(extra);
            long outage = Duration.ofNanos(System.nanoTime() - cut).toMillis();
            db.toxiproxy().enable();
            sleep(run);
            child.process.destroyForcibly();
            return "cut off " + (reached ? "at '" + at + "'" : "where it was (it did not reach '" + at + "' in 40 s)")
                    + " for " + outage + " ms, killed " + run + " ms after it reconnected";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Until the survivor declared the child dead: its session is gone, by the database's clock. */
    private static void awaitDeclaredDead(DataSource database, String name) {
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100)).until(() -> {
            try (Connection c = database.getConnection(); PreparedStatement s = c.prepareStatement(
                    "SELECT COUNT(*) FROM bounded_upload_instance WHERE name = ?")) {
                s.setString(1, name);
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    return r.getInt(1) == 0;
                }
            }
        });
    }

    /** The fault's length: how long the process stays stopped or cut off beyond what the test waits for. */
    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void signal(Process process, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Nothing left to do: no batch unsettled, no deferred attachment pending, no task but the recovery, and only the
     * survivor alive.
     */
    private static boolean settled(DataSource database) throws SQLException {
        try (Connection c = database.getConnection(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT (SELECT COUNT(*) FROM bounded_upload_batch),"
                        + " (SELECT COUNT(*) FROM bounded_upload_deferred WHERE state = 'PENDING'),"
                        + " (SELECT COUNT(*) FROM bounded_upload_task WHERE task_name <> 'bounded-upload-recovery'),"
                        + " (SELECT COUNT(*) FROM bounded_upload_instance)")) {
            r.next();
            return r.getInt(1) == 0 && r.getInt(2) == 0 && r.getInt(3) == 0 && r.getInt(4) == 1;
        }
    }

    private static Map<String, String> rows(DataSource database, String query) throws SQLException {
        Map<String, String> rows = new HashMap<>();
        try (Connection c = database.getConnection(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery(query)) {
            while (r.next()) {
                rows.put(r.getString(1), r.getString(2));
            }
        }
        return rows;
    }

    private static void check(TestBucket bucket, String key, String sha256, Map<String, String> wrong) {
        Optional<String> actual = bucket.sha256(key);
        if (!actual.equals(Optional.of(sha256))) {
            wrong.put(key, actual.orElse("missing"));
        }
    }

    /**
     * ERROR lines: the survivor's (in this JVM), and the children's, from their logs. The child cut off from its
     * database may have db-scheduler's own ERROR lines about the outage ("Unhandled exception", a completion that could
     * not reach the database), never one that "indicates a bug", and none of the library's.
     */
    private static List<String> errors(ListAppender<ILoggingEvent> log, String survivor, String paused, String cut,
            Path logs) throws IOException {
        List<String> errors = new ArrayList<>();
        for (ILoggingEvent event : log.list) {
            if (event.getLevel().isGreaterOrEqual(Level.ERROR)) {
                errors.add(survivor + ": " + event.getLoggerName() + " " + event.getFormattedMessage());
            }
        }
        for (String child : List.of(paused, cut)) {
            for (String line : Files.readAllLines(logs.resolve(child + ".log"), StandardCharsets.UTF_8)) {
                if (!line.contains(" ERROR ")) {
                    continue;
                }
                boolean outage = child.equals(cut) && line.contains(" c.g.k.scheduler.")
                        && !line.contains("Indicates a bug");
                if (!outage) {
                    errors.add(child + ": " + line);
                }
            }
        }
        return errors;
    }

    /** The instance that stays alive: in this JVM, straight to S3, with the journal's settings of the fleet. */
    private static final class Survivor implements AutoCloseable {
        final String name = "survivor-" + ProcessHandle.current().pid();
        private final JdbcUploadJournal journal;
        private final ConcurrentAttachmentUploader uploader;

        Survivor(DataSource database, S3Client s3, String bucket) {
            S3FileUploader storage = S3FileUploader.builder(s3, bucket).build();
            this.journal = FleetChild.journal(database, storage, name);
            this.uploader = ConcurrentAttachmentUploader.create(storage, FleetChild.config().journal(journal)
                    .build());
            DeferredUploads.builder(journal, uploader).build();
        }

        @Override
        public void close() {
            uploader.close();
            journal.close();
        }
    }

    /** A {@link FleetChild} process, its steps read as they come. */
    private static final class Child {
        final String name;
        final Process process;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        private Child(String name, Process process, Path steps) {
            this.name = name;
            this.process = process;
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8)); var out = Files.newBufferedWriter(steps, StandardCharsets.UTF_8)) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        lines.add(line);
                        out.write(java.time.LocalTime.now() + " " + line + "\n");
                        out.flush();
                    }
                } catch (IOException e) {
                    // the process was killed
                }
            }, "pause-it-" + name);
            reader.setDaemon(true);
            reader.start();
        }

        static Child start(String name, String url, TestProxy s3, String bucket, long seed, String hold, Path log)
                throws IOException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = List.of(java, "-Xmx384m", "-cp", System.getProperty("java.class.path"),
                    FleetChild.class.getName(), url, s3.endpoint().toString(), S3TestServices.ACCESS_KEY,
                    S3TestServices.SECRET_KEY, S3TestServices.get().region().id(), bucket, name,
                    String.valueOf(seed), hold);
            Files.writeString(log, "", StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
            return new Child(name, new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(
                    log.toFile())).start(), log.resolveSibling(name + ".steps"));
        }

        /** Waits for a line of the child's: true when it came, false when it did not within {@code atMost}. */
        boolean awaitLine(String expected, Duration atMost) {
            long end = System.nanoTime() + atMost.toNanos();
            try {
                for (long left = atMost.toNanos(); left > 0; left = end - System.nanoTime()) {
                    String line = lines.poll(left, TimeUnit.NANOSECONDS);
                    if (line == null) {
                        return false;
                    }
                    if (line.equals(expected)) {
                        return true;
                    }
                }
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        /** Lets a held step go on. */
        void resume() {
            try {
                OutputStream in = process.getOutputStream();
                in.write("go\n".getBytes(StandardCharsets.UTF_8));
                in.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
