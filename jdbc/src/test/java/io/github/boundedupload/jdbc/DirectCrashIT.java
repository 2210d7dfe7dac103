package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.s3.S3UploadSigner;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Direct uploads killed between the upload and the confirm, and anywhere around them: a child JVM
 * ({@link DirectCrashChild}) grants, sends the files on the signed PUTs, and confirms them in a PostgreSQL transaction
 * with the application's rows, and is killed with SIGKILL at seeded random points (after the grant, after a PUT,
 * between the two parts of a file sent in parts, during the confirm's copies, a multipart copy among them, before and after the commit); this JVM, another instance
 * on the same database, reconciles the staging prefix and recovers the journal's batches. Afterwards the bucket
 * itself holds exactly the copies of committed rows: nothing under the staging prefix, no copy of a confirm that did
 * not commit, no incomplete multipart upload, no row without its object.
 */
class DirectCrashIT {

    /** Seeded, so that a failure can be replayed: the kill points are chosen from it. */
    private static final long SEED = 20261128L;
    private static final int KILL_POINTS = 14;
    private static final int ROUNDS_PER_CHILD = 2;
    private static final String[] STEPS = {"granted", "sent", "sent-part", "copied", "confirmed", "rows-inserted",
        "committed"};

    private static final S3TestServices services = S3TestServices.get();
    private static TestBucket bucket;

    @BeforeAll
    static void bucket() {
        bucket = services.createBucket("direct-crash");
    }

    @AfterAll
    static void cleanUp() {
        bucket.close();
    }

    @Test
    void afterKillsAtRandomPointsTheBucketHoldsExactlyTheCopiesOfCommittedRows() throws Exception {
        String url = CrashIT.databaseWithAttachments("direct_crash");
        DataSource database = Postgres.dataSource(url);
        FileUploader storage = io.github.boundedupload.s3.S3FileUploader.builder(services.s3Client(), bucket.name())
                .build();
        Random random = new Random(SEED);
        List<String> report = new ArrayList<>();
        int killed = 0;
        try (JdbcUploadJournal recovering = CrashChild.journal(database, storage, "recovering");
                S3Presigner presigner = S3Presigner.builder().region(services.region())
                        .credentialsProvider(services.credentials()).endpointOverride(services.s3Endpoint())
                        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                        .build()) {
            // This instance reconciles the prefix the children grant under, as any instance of the fleet would.
            JdbcGrantStore.of(recovering, DirectCrashChild.LIFETIME).serve("staging/", DirectCrashChild.LIFETIME,
                    S3UploadSigner.builder(presigner, bucket.name()).client(services.s3Client()).build());
            for (int point = 0; point < KILL_POINTS; point++) {
                int round = random.nextInt(ROUNDS_PER_CHILD);
                String at = round + " " + STEPS[point % STEPS.length]; // every step twice, in a seeded random round
                Process child = start(url, random.nextLong());
                boolean reached = CrashIT.runUntil(child, at);
                child.waitFor(30, TimeUnit.SECONDS);
                report.add("kill point " + point + " at '" + at + "': " + (reached ? "killed there" : "not reached"));
                if (reached) {
                    killed++;
                }
            }
            assertThat(killed).as("kill points reached").isGreaterThanOrEqualTo(10);

            // The children's batches settled (lease or liveness), and the staging prefix reconciled (6 s): its objects
            // removed, its multipart uploads aborted.
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).until(() ->
                    recovering.status().unsettledBatches() == 0 && bucket.keys("staging/").isEmpty()
                            && bucket.incompleteUploads().isEmpty()
                            && bucket.keys().size() == CrashIT.committedRows(database).size());
        }
        List<String> rows = List.copyOf(CrashIT.committedRows(database));
        report.add("kill points tried: " + KILL_POINTS + ", killed at: " + killed + ", seed: " + SEED);
        report.add("committed rows: " + rows.size() + ", objects: " + bucket.keys().size());
        Files.write(Path.of("target", "direct-crash-report.txt"), report, StandardCharsets.UTF_8);
        report.forEach(System.out::println);

        assertThat(rows).as("committed rows").isNotEmpty();
        assertThat(bucket.keys()).as("the bucket holds exactly the committed rows' objects")
                .containsExactlyInAnyOrderElementsOf(rows);
        assertThat(bucket.keys("staging/")).as("nothing staged is left").isEmpty();
        assertThat(bucket.incompleteUploads()).as("incomplete multipart uploads").isEmpty();
    }

    private Process start(String url, long seed) throws IOException {
        return CrashIT.startChild(DirectCrashChild.class, url, bucket, "direct-crash-child.log",
                String.valueOf(ROUNDS_PER_CHILD), String.valueOf(seed));
    }
}
