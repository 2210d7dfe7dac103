package io.github.boundedupload.starter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import io.github.boundedupload.testsupport.TestProxy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The upload journal in Spring Boot's shutdown, proven on a real application process: {@link DeferredDrainApplication}
 * submits deferred uploads to the journal (H2 in a file), which upload them two at a time to a real S3 server through a
 * Toxiproxy proxy slowed to 500 KB/s, and receives SIGTERM while they run. Then:
 *
 * <ul>
 *   <li>the process exits within 30 s of SIGTERM (Kubernetes' default termination grace period), with the journal's
 *       scheduler stopped before it (and nothing of its left running);</li>
 *   <li>a second process on the same database, on a fast network, stores what the first left, and nothing is lost: the
 *       bucket holds every attachment submitted, with its size, and the journal nothing pending.</li>
 * </ul>
 *
 * Each run writes the child's output to {@code target/deferred-drain-child-<n>.log}.
 */
class DeferredDrainOnSigtermIT {

    private static final Duration TERMINATION_GRACE = Duration.ofSeconds(30);
    private static final int ATTACHMENTS = 12;

    private final S3TestServices services = S3TestServices.get();

    @Test
    void sigtermWhileDeferredUploadsRunStopsTheJournalInTimeAndTheNextInstanceLosesNothing() throws Exception {
        Path target = Path.of("target").toAbsolutePath();
        Path database = target.resolve("deferred-drain-db");
        for (String suffix : List.of(".mv.db", ".trace.db")) {
            Files.deleteIfExists(Path.of(database + suffix));
        }
        try (TestBucket bucket = services.createBucket("deferred-drain");
                TestProxy proxy = services.createProxy("deferred-drain")) {
            proxy.toxiproxy().toxics().bandwidth("slow-up", ToxicDirection.UPSTREAM, 500);
            Set<String> submitted = new HashSet<>();
            Set<String> stored = new HashSet<>();

            Path firstLog = target.resolve("deferred-drain-child-1.log");
            Process first = start(bucket, proxy, database, ATTACHMENTS, firstLog);
            try {
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                        .until(() -> lines(firstLog).stream().anyMatch(line -> line.startsWith("stored "))
                                || !first.isAlive());
                assertThat(first.isAlive()).as("the first instance runs (see its log)").isTrue();
                long sigterm = System.nanoTime();
                first.destroy(); // SIGTERM
                assertThat(first.waitFor(2, TimeUnit.MINUTES)).as("the first instance exited").isTrue();
                Duration exit = Duration.ofNanos(System.nanoTime() - sigterm);
                read(firstLog, submitted, stored);
                String log = Files.readString(firstLog, StandardCharsets.UTF_8);
                System.out.println("first instance: exit code " + first.exitValue() + ", " + exit.toMillis()
                        + " ms after SIGTERM; submitted " + submitted.size() + ", stored " + stored.size());

                assertThat(submitted).hasSize(ATTACHMENTS);
                assertThat(stored).as("some deferred uploads are left for the next instance").hasSizeLessThan(
                        ATTACHMENTS);
                assertThat(log).as("the journal stopped in the drain, nothing of it left running")
                        .containsPattern("bounded-upload 'drain': the upload journal stopped in \\d+ ms")
                        .doesNotContain("still run after the stop timeout").doesNotContain("did not complete");
                assertThat(exit).as("exited within the termination grace period").isLessThan(TERMINATION_GRACE);
                assertThat(first.exitValue()).as("exit code after SIGTERM").isEqualTo(143);
            } finally {
                first.destroyForcibly();
            }

            proxy.toxiproxy().toxics().get("slow-up").remove();
            Path secondLog = target.resolve("deferred-drain-child-2.log");
            Process second = start(bucket, proxy, database, 0, secondLog);
            try {
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    read(secondLog, submitted, stored);
                    return stored.containsAll(submitted) || !second.isAlive();
                });
                assertThat(stored).as("the second instance stored what the first left").isEqualTo(submitted);
                second.destroy();
                assertThat(second.waitFor(2, TimeUnit.MINUTES)).as("the second instance exited").isTrue();
            } finally {
                second.destroyForcibly();
            }

            assertThat(bucket.keys()).as("the bucket holds every attachment submitted")
                    .containsExactlyInAnyOrderElementsOf(submitted);
            for (String key : submitted) {
                assertThat(bucket.head(key).orElseThrow().contentLength()).as("size of " + key)
                        .isEqualTo(DeferredDrainApplication.SIZE);
            }
            assertThat(bucket.incompleteUploads()).isEmpty();
            assertThat(notStored(database)).as("deferred uploads not stored, in the journal").isZero();
            assertThat(lines(firstLog)).noneMatch(line -> line.startsWith("failed "));
            assertThat(lines(secondLog)).noneMatch(line -> line.startsWith("failed "));
        }
    }

    private Process start(TestBucket bucket, TestProxy proxy, Path database, int submit, Path log)
            throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m",
                "-Daws.accessKeyId=" + S3TestServices.ACCESS_KEY,
                "-Daws.secretAccessKey=" + S3TestServices.SECRET_KEY, "-cp", System.getProperty("java.class.path"),
                DeferredDrainApplication.class.getName(), "--spring.main.keep-alive=true",
                "--spring.main.web-application-type=none", DrainOnSigtermIT.WITHOUT_SPRING_CLOUD_AWS,
                "--drain.database=" + database, "--drain.submit=" + submit,
                // The lines the test reads, whatever the class path's logging configuration (Spring Boot 3's tests: WARN).
                "--logging.level.io.github.boundedupload=INFO", "--logging.level.com.github.kagkarlsson=INFO",
                "--bounded-upload.name=drain", "--bounded-upload.journal.enabled=true",
                "--bounded-upload.journal.create-tables=true", // H2 in a file is not an embedded database
                "--bounded-upload.journal.polling-interval=1s",
                "--bounded-upload.s3.bucket=" + bucket.name(), "--bounded-upload.s3.endpoint=" + proxy.endpoint(),
                "--bounded-upload.s3.region=" + services.region().id(), "--bounded-upload.s3.path-style-access=true"));
        Files.deleteIfExists(log);
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** Adds what the log reports submitted and stored. */
    private static void read(Path log, Set<String> submitted, Set<String> stored) throws IOException {
        for (String line : lines(log)) {
            String[] words = line.split(" ");
            if (words[0].equals("submitted")) {
                submitted.add(words[1]);
            } else if (words[0].equals("stored")) {
                stored.add(words[1]);
            }
        }
    }

    private static List<String> lines(Path log) throws IOException {
        if (!Files.exists(log)) {
            return List.of();
        }
        return Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(line -> line.startsWith(
                DrainApplication.LINE)).map(line -> line.substring(DrainApplication.LINE.length())).toList();
    }

    private static long notStored(Path database) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + database);
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM bounded_upload_deferred WHERE state <> "
                        + "'STORED'")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
