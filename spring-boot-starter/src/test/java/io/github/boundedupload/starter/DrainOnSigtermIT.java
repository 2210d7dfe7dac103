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
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * The drain in Spring Boot's shutdown, proven on a real application process: {@link DrainApplication}, on the starter's
 * class path with Spring Boot's and the starter's default shutdown settings, uploads to a real S3 server through a
 * Toxiproxy proxy that slows every connection to 500 KB/s, and receives SIGTERM while a large attachment (three 8 MiB
 * parts, about 17 s to send; S3 holds its multipart upload) and a medium one (2 MiB, about 4 s) are on their way.
 * Then:
 *
 * <ul>
 *   <li>every attachment it submitted is reported: stored, or not stored (cancelled, deleted again) or refused;</li>
 *   <li>the bucket itself holds exactly the ones reported stored, with their sizes, and no incomplete multipart
 *       upload;</li>
 *   <li>the medium one finished within the grace period, the large one did not and was ended as the failure policy
 *       promises (all-or-nothing: its whole batch removed; collect: the small ones of its batch kept);</li>
 *   <li>a batch submitted once the context is closing is refused with a clear message;</li>
 *   <li>the process exits within 30 s of SIGTERM (Kubernetes' default termination grace period).</li>
 * </ul>
 *
 * Each run writes what it saw to {@code target/drain-report-<policy>.txt} and the child's output to
 * {@code target/drain-child-<policy>.log}.
 */
class DrainOnSigtermIT {

    /** Kubernetes' default terminationGracePeriodSeconds: SIGKILL comes after it. */
    private static final Duration TERMINATION_GRACE = Duration.ofSeconds(30);
    private static final int BANDWIDTH_KB_PER_SECOND = 500;

    /** Spring Cloud AWS is on this test class path (SpringCloudAwsApplicationIT); this application does without it. */
    static final String WITHOUT_SPRING_CLOUD_AWS = "--spring.autoconfigure.exclude="
            + "io.awspring.cloud.autoconfigure.core.AwsAutoConfiguration,"
            + "io.awspring.cloud.autoconfigure.core.CredentialsProviderAutoConfiguration,"
            + "io.awspring.cloud.autoconfigure.core.RegionProviderAutoConfiguration,"
            + "io.awspring.cloud.autoconfigure.imds.ImdsAutoConfiguration,"
            + "io.awspring.cloud.autoconfigure.s3.S3AutoConfiguration,"
            + "io.awspring.cloud.autoconfigure.s3.S3TransferManagerAutoConfiguration,"
            + "io.awspring.cloud.autoconfigure.s3.S3CrtAsyncClientAutoConfiguration";

    private final S3TestServices services = S3TestServices.get();
    private Path log;

    @ParameterizedTest
    @ValueSource(strings = { "all-or-nothing", "collect" })
    void sigtermMidBatchLeavesEveryAttachmentStoredOrReportedAndRemovedAndExitsInTime(String policy)
            throws Exception {
        Path target = Path.of("target");
        Files.createDirectories(target);
        try (TestBucket bucket = services.createBucket("drain-" + policy);
                TestProxy proxy = services.createProxy("drain-" + policy)) {
            proxy.toxiproxy().toxics().bandwidth("slow-up", ToxicDirection.UPSTREAM, BANDWIDTH_KB_PER_SECOND);
            Process child = start(bucket, proxy, policy, target.resolve("drain-child-" + policy + ".log"));
            try {
                // Mid-batch: the medium upload runs, and S3 itself holds the large one's multipart upload.
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                        .until(() -> lines().contains("uploading medium/medium.bin") && bucket.incompleteUploads()
                                .stream().anyMatch(upload -> upload.key().equals("slow/large.bin"))
                                || !child.isAlive());
                assertThat(child.isAlive()).as("the application runs (see its log)").isTrue();

                long sigterm = System.nanoTime();
                child.destroy(); // SIGTERM
                boolean exited = child.waitFor(2, TimeUnit.MINUTES);
                Duration exit = Duration.ofNanos(System.nanoTime() - sigterm);
                assertThat(exited).as("the process exited").isTrue();

                Map<String, Long> submitted = new HashMap<>();
                Map<String, String> outcome = new HashMap<>();
                List<String> refused = new ArrayList<>();
                for (String line : lines()) {
                    String[] words = line.split(" ", 3);
                    switch (words[0]) {
                        case "submitted" -> submitted.put(words[1], Long.parseLong(words[2]));
                        case "result" -> assertThat(outcome.put(words[1], words[2])).as("one end for " + words[1])
                                .isNull();
                        case "refused" -> {
                            refused.add(line);
                            outcome.put(words[1], "REFUSED");
                        }
                        default -> { }
                    }
                }
                Set<String> stored = new HashSet<>();
                outcome.forEach((key, status) -> {
                    if (status.equals("STORED")) {
                        stored.add(key);
                    }
                });
                List<String> inBucket = bucket.keys();
                int incomplete = bucket.incompleteUploads().size();
                List<String> report = new ArrayList<>();
                report.add("failure policy: " + policy + "; exit code " + child.exitValue() + ", "
                        + exit.toMillis() + " ms after SIGTERM (budget: " + TERMINATION_GRACE.toSeconds() + " s)");
                report.add("submitted: " + submitted.size() + ", reported: " + outcome.size() + " " + outcome);
                report.add("bucket: " + inBucket.size() + " objects " + inBucket + "; incomplete multipart uploads: "
                        + incomplete);
                report.add("refused: " + refused);
                Files.write(target.resolve("drain-report-" + policy + ".txt"), report, StandardCharsets.UTF_8);
                report.forEach(System.out::println);

                assertThat(outcome.keySet()).as("every attachment submitted is reported")
                        .isEqualTo(submitted.keySet());
                assertThat(outcome.values()).as("each ends stored, or not stored and reported so")
                        .allMatch(status -> List.of("STORED", "CANCELLED", "DELETED", "FAILED", "REFUSED")
                                .contains(status));
                assertThat(inBucket).as("the bucket holds exactly what was reported stored")
                        .containsExactlyInAnyOrderElementsOf(stored);
                for (String key : stored) {
                    HeadObjectResponse head = bucket.head(key).orElseThrow();
                    assertThat(head.contentLength()).as("size of " + key).isEqualTo(submitted.get(key));
                }
                assertThat(incomplete).as("incomplete multipart uploads").isZero();

                assertThat(outcome).as("the medium attachment finished within the grace period")
                        .containsEntry("medium/medium.bin", "STORED");
                assertThat(outcome.get("slow/large.bin")).as("the large one was ended").isIn("CANCELLED", "FAILED");
                if (policy.equals("all-or-nothing")) {
                    assertThat(outcome).as("all-or-nothing: nothing of the slow batch is kept")
                            .containsEntry("slow/small-1.bin", "DELETED").containsEntry("slow/small-2.bin", "DELETED");
                } else {
                    assertThat(outcome).as("collect: the small ones of the slow batch are kept")
                            .containsEntry("slow/small-1.bin", "STORED").containsEntry("slow/small-2.bin", "STORED");
                }
                assertThat(refused).as("a batch submitted while the context closes is refused").hasSize(1)
                        .allSatisfy(line -> assertThat(line).endsWith("uploader 'drain' is closed: it takes no new "
                                + "batch"));

                assertThat(exit).as("exited within the termination grace period").isLessThan(TERMINATION_GRACE);
                assertThat(child.exitValue()).as("exit code after SIGTERM").isEqualTo(143);
            } finally {
                child.destroyForcibly();
            }
        }
    }

    private Process start(TestBucket bucket, TestProxy proxy, String policy, Path log) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-Xmx256m", "-Daws.accessKeyId=" + S3TestServices.ACCESS_KEY,
                "-Daws.secretAccessKey=" + S3TestServices.SECRET_KEY, "-cp", System.getProperty("java.class.path"),
                DrainApplication.class.getName(), "--spring.main.keep-alive=true",
                "--spring.main.web-application-type=none", WITHOUT_SPRING_CLOUD_AWS,
                "--bounded-upload.name=drain", "--bounded-upload.failure-policy=" + policy,
                "--bounded-upload.s3.bucket=" + bucket.name(), "--bounded-upload.s3.endpoint=" + proxy.endpoint(),
                "--bounded-upload.s3.region=" + services.region().id(), "--bounded-upload.s3.path-style-access=true",
                "--bounded-upload.s3.multipart-threshold=8MB", "--bounded-upload.s3.part-size=8MB");
        Files.deleteIfExists(log);
        this.log = log;
        // To a file, not a pipe: a pipe read while the process exits may lose the last lines (JDK's reaper).
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** The lines the application reported so far. */
    private List<String> lines() throws IOException {
        if (!Files.exists(log)) {
            return List.of();
        }
        return Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(line -> line.startsWith(
                DrainApplication.LINE)).map(line -> line.substring(DrainApplication.LINE.length())).toList();
    }
}
