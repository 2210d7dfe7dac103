package io.github.boundedupload.benchmarks;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.benchmarks.ProductApp.Way;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import io.github.boundedupload.testsupport.TestProxy;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Scenario G, source 003: a product registration with one 100 KiB image, the storage 500 ms away (Toxiproxy in front
 * of LocalStack), the product's row in PostgreSQL. In one run: the response time of each way, measured interleaved;
 * then, each way, an application that registers N products is killed with SIGKILL right after its last response, and
 * a restarted instance counts how many of the N images the storage ends up holding. Writes
 * {@code docs/benchmarks-deferred.md}. Changes when what scenario G measures, or the report it writes, changes.
 *
 * <pre>
 * java -cp "$(cat benchmarks/target/classpath.txt):benchmarks/target/classes" \
 *     io.github.boundedupload.benchmarks.ProductRegistrations [--rounds=20] [--products=20] [--out=docs]
 * </pre>
 */
public final class ProductRegistrations {

    private static final Duration LATENCY = Duration.ofMillis(500);
    private static final long SEED = 20261125L;

    private ProductRegistrations() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = intArg(args, "--rounds=", 20);
        int products = intArg(args, "--products=", 20);
        Path out = Path.of(stringArg(args, "--out=", "docs"));
        S3TestServices services = S3TestServices.get();
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
                TestBucket bucket = services.createBucket("products");
                TestProxy proxy = services.createProxy("products")) {
            proxy.toxiproxy().toxics().latency("storage-latency", ToxicDirection.DOWNSTREAM, LATENCY.toMillis());
            String url = postgres.getJdbcUrl("postgres", "postgres");
            PGSimpleDataSource database = new PGSimpleDataSource();
            database.setUrl(url);
            ProductApp.createTable(database);

            Map<Way, List<Long>> times = new EnumMap<>(Way.class);
            Random random = new Random(SEED);
            try (ProductApp app = new ProductApp(url, proxy.endpoint(), bucket.name(), "measuring")) {
                for (Way way : Way.values()) { // warm-up
                    app.register(way, "warm-up-" + way, ProductApp.image(random));
                }
                for (int round = 0; round < rounds; round++) {
                    for (int i = 0; i < Way.values().length; i++) {
                        Way way = Way.values()[(round + i) % Way.values().length];
                        long start = System.nanoTime();
                        app.register(way, "product-" + round + "-" + way, ProductApp.image(random));
                        times.computeIfAbsent(way, w -> new ArrayList<>()).add(System.nanoTime() - start);
                        quiet(app);
                    }
                }
            }

            Map<Way, Integer> survived = new EnumMap<>(Way.class);
            Map<Way, Long> recovery = new EnumMap<>(Way.class);
            for (Way way : Way.values()) {
                List<String> responded = runAndKill(way, products, url, proxy.endpoint().toString(), bucket.name());
                long restart = System.nanoTime();
                if (way == Way.DEFERRED) {
                    try (ProductApp restarted = new ProductApp(url, proxy.endpoint(), bucket.name(), "restarted")) {
                        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
                        while (restarted.deferred.stats().pendingAttachments() > 0 && System.nanoTime() < deadline) {
                            Thread.sleep(200); // polling the database for the end of the recovery, not synchronising
                        }
                    }
                }
                recovery.put(way, Duration.ofNanos(System.nanoTime() - restart).toMillis());
                Set<String> stored = new HashSet<>(bucket.keys());
                survived.put(way, (int) responded.stream().filter(stored::contains).count());
                System.out.printf(Locale.ROOT, "%s: %d responded, %d stored after the kill%n", way, responded.size(),
                        survived.get(way));
            }
            Files.writeString(out.resolve("benchmarks-deferred.md"), report(times, survived, recovery, products,
                    rows(database)), StandardCharsets.UTF_8);
        }
    }

    /** Waits until nothing of the previous registration runs in the background, so that it does not slow the next. */
    private static void quiet(ProductApp app) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((app.deferred.stats().pendingAttachments() > 0 || app.uploader.stats().activeBatches() > 0)
                && System.nanoTime() < deadline) {
            Thread.sleep(20); // polling for quiet between measurements, not synchronising a result
        }
    }

    private static List<String> runAndKill(Way way, int products, String url, String endpoint, String bucket)
            throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                ProductApp.class.getName(), way.name(), String.valueOf(products), url, endpoint, bucket,
                String.valueOf(SEED))
                .redirectError(ProcessBuilder.Redirect.appendTo(Path.of("benchmarks", "target",
                        "product-app.log").toFile()))
                .start();
        List<String> responded = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith("responded ")) {
                    responded.add(line.substring("responded ".length()));
                    if (responded.size() == products) {
                        child.destroyForcibly(); // SIGKILL, right after the last response
                        break;
                    }
                }
            }
        }
        child.waitFor(30, TimeUnit.SECONDS);
        return responded;
    }

    private static long rows(DataSource database) throws Exception {
        try (Connection c = database.getConnection(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT COUNT(*) FROM product")) {
            r.next();
            return r.getLong(1);
        }
    }

    private static String report(Map<Way, List<Long>> times, Map<Way, Integer> survived, Map<Way, Long> recovery,
            int products, long rows) {
        StringBuilder md = new StringBuilder();
        md.append("# Scenario G: respond first, upload after (source 003)\n\n");
        md.append("A product registration: one row in PostgreSQL and one image of 100 KiB, the storage (LocalStack)"
                + " 500 ms away behind Toxiproxy. Written by `ProductRegistrations` (module benchmarks) on ")
                .append(Instant.now().toString(), 0, 10).append(", JDK ").append(Runtime.version().feature())
                .append(", one run; the three ways interleaved, ").append(times.get(Way.IN_REQUEST).size())
                .append(" registrations each.\n\n");
        md.append("| way | median response | p90 | median vs in the request | images stored after a SIGKILL right"
                + " after the last of ").append(products).append(" responses |\n|---|---|---|---|---|\n");
        double inRequest = median(times.get(Way.IN_REQUEST));
        for (Way way : Way.values()) {
            List<Long> t = times.get(way);
            md.append(String.format(Locale.ROOT, "| %s | %.1f ms | %.1f ms | %.2fx | %d of %d |%n", way.title,
                    median(t) / 1e6, percentile(t, 0.9) / 1e6, median(t) / inRequest, survived.get(way), products));
        }
        md.append(String.format(Locale.ROOT, "%nThe deferred way's images were stored by the restarted instance in"
                + " %.1f s after the restart (the uploads the kill cut wait for their journal lease, 14 s, before"
                + " they are tried again). The upload in the request is stored before it answers, so it survives by"
                + " construction, at the price of the storage's latency in every response; `@Async` answers faster"
                + " still (it writes the row only) and loses what was in flight or queued at the kill. %d product"
                + " rows in all.%n", recovery.get(Way.DEFERRED) / 1e3, rows));
        md.append("\nRun it again with\n\n```\nscripts/test-services.sh start\n./mvnw -q -pl benchmarks -am package"
                + " -DskipTests\njava -cp \"$(cat benchmarks/target/classpath.txt):benchmarks/target/classes\""
                + " io.github.boundedupload.benchmarks.ProductRegistrations\n```\n");
        return md.toString();
    }

    private static double median(List<Long> values) {
        return percentile(values, 0.5);
    }

    private static double percentile(List<Long> values, double p) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(p * sorted.size())));
    }

    private static int intArg(String[] args, String name, int otherwise) {
        return Integer.parseInt(stringArg(args, name, String.valueOf(otherwise)));
    }

    private static String stringArg(String[] args, String name, String otherwise) {
        for (String arg : args) {
            if (arg.startsWith(name)) {
                return arg.substring(name.length());
            }
        }
        return otherwise;
    }
}
