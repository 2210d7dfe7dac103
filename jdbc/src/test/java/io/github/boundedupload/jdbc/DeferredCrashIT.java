package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import io.github.boundedupload.testsupport.TestProxy;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Respond first, upload after, lose nothing, proven by crashing: a child JVM ({@link DeferredChild}) registers
 * products in PostgreSQL transactions and hands their images to {@link DeferredUploads}, with S3 (LocalStack) 500 ms
 * away (Toxiproxy); it is killed with SIGKILL at a seeded point after it has answered, while uploads are pending. A
 * new instance (this JVM, the application restarted) takes over. Every accepted image ends stored, with its bytes,
 * under the key its row holds; no object is left without a row; no outcome is heard twice.
 */
class DeferredCrashIT {

    private static final long SEED = 20261125L;
    private static final int ROUNDS = 3;
    private static final int PRODUCTS = 20;

    private static final S3TestServices services = S3TestServices.get();
    private static TestBucket bucket;
    private static TestProxy proxy;
    private String databaseUrl = "";

    @BeforeAll
    static void services() throws IOException {
        bucket = services.createBucket("deferred-crash");
        proxy = services.createProxy("deferred-crash");
        proxy.toxiproxy().toxics().latency("storage-latency", ToxicDirection.DOWNSTREAM, 500);
    }

    @AfterAll
    static void cleanUp() {
        proxy.close();
        bucket.close();
    }

    @Test
    void everyAcceptedImageIsStoredAfterTheApplicationIsKilledAndRestarted() throws Exception {
        databaseUrl = Postgres.newDatabase("deferred");
        DataSource database = Postgres.dataSource(databaseUrl);
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE product (id SERIAL PRIMARY KEY, image_key VARCHAR(1024) NOT NULL)");
        }
        Random random = new Random(SEED);
        List<String> report = new ArrayList<>();
        Map<String, byte[]> accepted = new HashMap<>();
        List<String> heard = new CopyOnWriteArrayList<>();
        long pendingAtKills = 0;
        long recoveryMillis = 0;
        for (int round = 0; round < ROUNDS; round++) {
            long seed = random.nextLong();
            int killAfter = 1 + random.nextInt(PRODUCTS); // accepted products before the kill
            Process child = start(seed);
            List<String> keys = new ArrayList<>();
            int heardBefore = runUntilAccepted(child, killAfter, keys, heard);
            // What was accepted is what the database committed: the child may have committed one more product
            // between the line read and the kill.
            for (String key : rows(database)) {
                if (!accepted.containsKey(key)) {
                    accepted.put(key, DeferredChild.image(seed, index(key)));
                }
            }
            long pending = pending(database);
            pendingAtKills += pending;
            report.add("round " + round + ": killed after " + keys.size() + " accepted (read), " + heardBefore
                    + " outcomes heard, " + pending + " uploads pending");

            long restart = System.nanoTime();
            S3FileUploader storage = S3FileUploader.builder(services.s3Client(), bucket.name()).build();
            try (JdbcUploadJournal journal = CrashChild.journal(database, storage, "restarted-" + round);
                    ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                            CrashChild.config().journal(journal).build())) {
                DeferredUploads.builder(journal, uploader).listener(new DeferredUploadListener() {
                    @Override
                    public void stored(DeferredAttachment attachment) {
                        heard.add(attachment.key());
                    }

                    @Override
                    public void failed(DeferredAttachment attachment) {
                        heard.add(attachment.key());
                    }
                }).build();
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                        .until(() -> pending(database) == 0 && journal.status().unsettledBatches() == 0);
            }
            recoveryMillis = Math.max(recoveryMillis, Duration.ofNanos(System.nanoTime() - restart).toMillis());
        }

        Set<String> rows = rows(database);
        Set<String> objects = new HashSet<>(bucket.keys());
        List<String> lost = new ArrayList<>();
        for (Map.Entry<String, byte[]> image : accepted.entrySet()) {
            if (!bucket.sha256(image.getKey()).equals(java.util.Optional.of(
                    io.github.boundedupload.testsupport.TestData.sha256(image.getValue())))) {
                lost.add(image.getKey());
            }
        }
        Set<String> orphans = new HashSet<>(objects);
        orphans.removeAll(rows);
        Map<String, Integer> times = new HashMap<>();
        heard.forEach(key -> times.merge(key, 1, Integer::sum));
        long heardTwice = times.values().stream().filter(n -> n > 1).count();
        report.add("accepted: " + accepted.size() + ", uploads pending at the kills: " + pendingAtKills
                + ", stored with their bytes: " + (accepted.size() - lost.size()) + ", lost: " + lost.size()
                + ", orphans: " + orphans.size() + ", outcomes heard: " + heard.size() + ", heard twice: "
                + heardTwice + ", seed: " + SEED);
        report.add("longest recovery after a restart: " + recoveryMillis + " ms (an upload cut by the kill is taken"
                + " over once its run is found dead: 6 missed heartbeats of 1 s here)");
        Files.write(Path.of("target", "deferred-crash-report.txt"), report, StandardCharsets.UTF_8);
        report.forEach(System.out::println);

        assertThat(pendingAtKills).as("uploads pending when the application was killed").isPositive();
        assertThat(rows).containsExactlyInAnyOrderElementsOf(accepted.keySet());
        assertThat(lost).as("accepted images not stored with their bytes").isEmpty();
        assertThat(orphans).as("objects without a row").isEmpty();
        assertThat(bucket.incompleteUploads()).isEmpty();
        assertThat(heardTwice).as("outcomes heard twice").isZero();
    }

    private Process start(long seed) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                DeferredChild.class.getName(), databaseUrl, proxy.endpoint().toString(), S3TestServices.ACCESS_KEY,
                S3TestServices.SECRET_KEY, services.region().id(), bucket.name(), String.valueOf(PRODUCTS),
                String.valueOf(seed));
        File log = Path.of("target", "deferred-child.log").toFile();
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log)).start();
    }

    /**
     * Reads the child's lines until it has accepted {@code count} products, and kills it there with SIGKILL; returns
     * how many outcomes it had heard by then (also added to {@code heard}).
     */
    private static int runUntilAccepted(Process child, int count, List<String> keys, List<String> heard)
            throws IOException, InterruptedException {
        int outcomes = 0;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                String[] words = line.split(" ");
                if (words[0].equals("accepted")) {
                    keys.add(words[2]);
                } else if (words[0].equals("heard")) {
                    heard.add(words[1]);
                    outcomes++;
                }
                if (keys.size() == count) {
                    break;
                }
            }
            child.destroyForcibly(); // SIGKILL
        }
        child.waitFor(30, TimeUnit.SECONDS);
        return outcomes;
    }

    /** The product index in a key such as {@code 2026/11/25/<uuid>-product-7.jpg}. */
    private static int index(String key) {
        String name = key.substring(key.lastIndexOf("-product-") + "-product-".length());
        return Integer.parseInt(name.substring(0, name.indexOf('.')));
    }

    private static long pending(DataSource database) throws Exception {
        try (Connection c = database.getConnection(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT COUNT(*) FROM bounded_upload_deferred WHERE state = 'PENDING'")) {
            r.next();
            return r.getLong(1);
        }
    }

    private static Set<String> rows(DataSource database) throws Exception {
        Set<String> rows = new HashSet<>();
        try (Connection c = database.getConnection(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT image_key FROM product")) {
            while (r.next()) {
                rows.add(r.getString(1));
            }
        }
        return rows;
    }
}
