package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Crash safety, proven by crashing: a child JVM ({@link CrashChild}) uploads batches into LocalStack inside PostgreSQL
 * transactions and is killed with SIGKILL at seeded random points (before, during and after the uploads, before and
 * after the commit); this JVM, another instance on the same database, recovers. Afterwards the bucket itself holds
 * exactly the objects of committed rows: no orphan, no incomplete multipart upload, no row without its object.
 */
class CrashIT {

    /** Seeded, so that a failure can be replayed: the kill points are chosen from it. */
    private static final long SEED = 20261125L;
    private static final int KILL_POINTS = 24;
    private static final int BATCHES_PER_CHILD = 3;
    private static final String[] STEPS = {"begin", "uploaded", "part", "uploads-done", "rows-inserted",
        "committed"};

    private static final S3TestServices services = S3TestServices.get();
    private static TestBucket bucket;

    @BeforeAll
    static void bucket() {
        bucket = services.createBucket("crash");
    }

    @AfterAll
    static void cleanUp() {
        bucket.close();
    }

    @Test
    void afterKillsAtRandomPointsTheBucketHoldsExactlyTheObjectsOfCommittedRows() throws Exception {
        String url = databaseWithAttachments("crash");
        DataSource database = Postgres.dataSource(url);
        FileUploader storage = io.github.boundedupload.s3.S3FileUploader.builder(services.s3Client(), bucket.name())
                .build();
        Random random = new Random(SEED);
        List<String> report = new ArrayList<>();
        int killed = 0;
        long lastKill = 0;
        try (JdbcUploadJournal recovering = CrashChild.journal(database, storage, "recovering")) {
            for (int point = 0; point < KILL_POINTS; point++) {
                int batch = random.nextInt(BATCHES_PER_CHILD);
                String step = STEPS[point % STEPS.length]; // every step 4 times, in a seeded random batch
                String at = batch + " " + step;
                Process child = start(url, random.nextLong());
                boolean reached = runUntil(child, at);
                child.waitFor(30, TimeUnit.SECONDS);
                lastKill = System.nanoTime();
                report.add("kill point " + point + " at '" + at + "': " + (reached ? "killed there" : "not reached"));
                if (reached) {
                    killed++;
                }
            }
            assertThat(killed).as("kill points reached").isGreaterThanOrEqualTo(20);

            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                    .until(() -> recovering.status().unsettledBatches() == 0);
        }
        Duration recovery = Duration.ofNanos(System.nanoTime() - lastKill);

        Set<String> rows = committedRows(database);
        Set<String> objects = new HashSet<>(bucket.keys());
        Set<String> orphans = new HashSet<>(objects);
        orphans.removeAll(rows);
        Set<String> missing = new HashSet<>(rows);
        missing.removeAll(objects);
        int incomplete = bucket.incompleteUploads().size();
        report.add("kill points tried: " + KILL_POINTS + ", killed at: " + killed + ", seed: " + SEED);
        report.add("objects checked: " + objects.size() + ", committed rows: " + rows.size() + ", orphans: "
                + orphans.size() + ", rows without their object: " + missing.size()
                + ", incomplete multipart uploads: " + incomplete);
        report.add("recovery: " + recovery.toMillis() + " ms from the last kill until the journal held no batch"
                + " (a lease is 14 s after a batch began)");
        Path file = Path.of("target", "crash-report.txt");
        Files.write(file, report, StandardCharsets.UTF_8);
        report.forEach(System.out::println);

        assertThat(rows).as("committed rows").isNotEmpty();
        assertThat(orphans).as("objects without a committed row").isEmpty();
        assertThat(missing).as("committed rows without their object").isEmpty();
        assertThat(incomplete).as("incomplete multipart uploads").isZero();
    }

    private Process start(String url, long seed) throws IOException {
        return startChild(CrashChild.class, url, bucket, "crash-child.log", String.valueOf(BATCHES_PER_CHILD),
                String.valueOf(seed));
    }

    /** A new PostgreSQL database with the application's table of the children's rows, {@code attachment}. */
    static String databaseWithAttachments(String name) throws SQLException {
        String url = Postgres.newDatabase(name);
        try (Connection c = Postgres.dataSource(url).getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE attachment (object_key VARCHAR(1024) PRIMARY KEY)");
        }
        return url;
    }

    /**
     * Starts a child JVM on this test's class path: its main class, then what every child takes first
     * ({@link ChildArgs}: the database, the S3 endpoint, keys and region), the bucket, then its own arguments; its
     * standard error appended to {@code target/<log>}.
     */
    static Process startChild(Class<?> main, String url, TestBucket bucket, String log, String... own)
            throws IOException {
        S3TestServices services = S3TestServices.get();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                main.getName(), url, services.s3Endpoint().toString(), S3TestServices.ACCESS_KEY,
                S3TestServices.SECRET_KEY, services.region().id(), bucket.name()));
        command.addAll(List.of(own));
        File file = Path.of("target", log).toFile();
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(file)).start();
    }

    /**
     * Reads the child's steps until {@code at}, and kills it there with SIGKILL (true); or until its end (false), and
     * kills it then.
     */
    static boolean runUntil(Process child, String at) throws IOException {
        try (BufferedReader steps = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = steps.readLine(); line != null; line = steps.readLine()) {
                if (line.equals(at) || line.startsWith(at + " ")) {
                    child.destroyForcibly(); // SIGKILL
                    return true;
                }
            }
            child.destroyForcibly();
            return false;
        }
    }

    static Set<String> committedRows(DataSource database) throws SQLException {
        Set<String> rows = new HashSet<>();
        try (Connection c = database.getConnection(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT object_key FROM attachment")) {
            while (r.next()) {
                rows.add(r.getString(1));
            }
        }
        return rows;
    }
}
