package io.github.boundedupload.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.autoconfigure.TestSupport.HealthView;
import io.github.boundedupload.autoconfigure.TestSupport.RecordingStorage;
import io.github.boundedupload.jdbc.JdbcGrantStore;
import io.github.boundedupload.jdbc.JdbcUploadJournal;
import io.github.boundedupload.jdbc.JournalMeters;
import io.github.boundedupload.micrometer.MicrometerUploadListener;
import io.github.boundedupload.micrometer.DefaultBatchObservationConvention;
import io.github.boundedupload.micrometer.DefaultUploadObservationConvention;
import io.github.boundedupload.spi.UploadRequest;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusNamingConvention;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code docs/metrics.md} is made from the meters a running uploader (with the journal, deferred and direct uploads)
 * really registers, with the names Prometheus really scrapes and the health details that show the same numbers; a
 * test fails when it is stale. Regenerate it with
 * <pre>
 * ./mvnw -pl spring-boot-autoconfigure test -Dtest=MetricsDocumentationTests -Dbounded-upload.docs.write=true
 * </pre>
 */
class MetricsDocumentationTests {

    private static final String PAGE = "metrics.md";

    @TempDir
    Path root;

    private ApplicationContextRunner runner(MeterRegistry registry) {
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(registry));
        return TestSupport.runner(root).withConfiguration(TestSupport.springBootMetrics())
                .withUserConfiguration(JournalAutoConfigurationTests.Database.class,
                        DirectUploadsAutoConfigurationTests.Signer.class)
                .withBean(MeterRegistry.class, () -> registry)
                .withBean(ObservationRegistry.class, () -> observations)
                .withPropertyValues("bounded-upload.journal.enabled=true", "bounded-upload.direct.enabled=true");
    }

    /**
     * Every meter the code can register: a batch that stores, and one that fails under all-or-nothing, so that an
     * upload fails and the next one never starts (bounded.upload.skipped, registered only then). The page is checked
     * against every meter name the main code of the core and the journal spells, so that a meter no path here
     * reaches cannot be missing silently.
     */
    @Test
    void thePageListsEveryMeterWithItsPrometheusNameAndHealthDetail() throws IOException {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        RecordingStorage failing = new RecordingStorage(root.resolve("stored")) {
            @Override
            public StoredObject upload(UploadRequest request) throws IOException {
                if (request.fileName().equals("bad.txt")) {
                    throw new IOException("the storage refuses bad.txt");
                }
                return super.upload(request);
            }
        };
        runner(registry).withBean(io.github.boundedupload.spi.FileUploader.class, () -> failing)
                .withPropertyValues("bounded-upload.max-concurrent-uploads-per-batch=1").run(context -> {
            ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
            // The grant store of direct uploads is the application's to make (no property yet): its meter, bound so.
            JdbcUploadJournal journal = context.getBean(JdbcUploadJournal.class);
            new JournalMeters(journal).withGrants(JdbcGrantStore.of(journal)).bindTo(registry);
            BatchResult result = uploader.uploadAll(
                    List.of(Attachment.of("a.txt", "a".getBytes(StandardCharsets.UTF_8))));
            assertThat(result.allStored()).isTrue();
            assertThatThrownBy(() -> uploader.uploadAll(List.of(Attachment.of("bad.txt", new byte[] { 1 }),
                    Attachment.of("never.txt", new byte[] { 2 })))).isInstanceOf(BatchFailedException.class);
            String page = page(registry);
            assertThat(meterNamesInTheCode()).as("every meter the code names is on the page")
                    .allSatisfy(name -> assertThat(page).contains("| `" + name + "` |"));
            Path file = docsDir().resolve(PAGE);
            if (Boolean.getBoolean("bounded-upload.docs.write")) {
                Files.writeString(file, page);
            }
            assertThat(Files.readString(file)).as("docs/" + PAGE + " is stale; regenerate it with ./mvnw -pl "
                    + "spring-boot-autoconfigure test -Dtest=MetricsDocumentationTests "
                    + "-Dbounded-upload.docs.write=true").isEqualTo(page);
        });
    }

    /** Each health detail that has a meter shows that meter's value, with uploads in flight and queued. */
    @Test
    void healthDetailsAndMetersShowTheSameNumbers() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(2);
        RecordingStorage gated = new RecordingStorage(root.resolve("gated")) {
            @Override
            public StoredObject upload(UploadRequest request) throws IOException {
                started.countDown();
                try {
                    release.await(1, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return super.upload(request);
            }
        };
        runner(registry).withBean(io.github.boundedupload.spi.FileUploader.class, () -> gated)
                .withPropertyValues("bounded-upload.max-concurrent-uploads=2",
                        "bounded-upload.max-concurrent-uploads-per-batch=2")
                .run(context -> {
                    ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
                    List<Attachment> files = new ArrayList<>();
                    for (int i = 0; i < 5; i++) {
                        files.add(Attachment.of("f" + i + ".txt", "data".getBytes(StandardCharsets.UTF_8)));
                    }
                    CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(files);
                    try {
                        assertThat(started.await(1, TimeUnit.MINUTES)).isTrue();
                        await().until(() -> uploader.stats().queuedUploads() == 3);
                        HealthView health = TestSupport.health(
                                context.getBean(BoundedUploadHealthAutoConfiguration.INDICATOR_BEAN_NAME));
                        assertThat(health.details()).containsEntry("activeUploads", 2)
                                .containsEntry("queuedUploads", 3).containsEntry("activeBatches", 1);
                        UploaderHealth.METER_OF_DETAIL.forEach((detail, meter) -> assertThat(
                                registry.get(meter).gauge().value()).as("%s and %s", detail, meter)
                                .isEqualTo(((Number) health.details().get(detail)).doubleValue()));
                    } finally {
                        release.countDown();
                    }
                    assertThat(batch.join().allStored()).isTrue();
                });
    }

    private static String page(PrometheusMeterRegistry registry) {
        Set<String> scraped = registry.scrape().lines().filter(line -> !line.startsWith("#") && !line.isBlank())
                .map(line -> line.split("[{ ]", 2)[0]).collect(Collectors.toCollection(LinkedHashSet::new));
        Map<String, String> detailOfMeter = new TreeMap<>();
        UploaderHealth.METER_OF_DETAIL.forEach((detail, meter) -> detailOfMeter.put(meter, detail));
        Map<String, List<Meter>> byName = registry.getMeters().stream()
                .filter(m -> m.getId().getName().startsWith("bounded.upload"))
                .collect(Collectors.groupingBy(m -> m.getId().getName(), TreeMap::new, Collectors.toList()));
        StringBuilder out = new StringBuilder();
        out.append("# Metrics\n\n");
        out.append("<!-- Generated by MetricsDocumentationTests from the meters a running uploader registers; do not "
                + "edit. -->\n\n");
        out.append("Every meter the code can register: an uploader's, through `MicrometerUploadListener` (the Spring "
                + "Boot starter adds it when there is a `MeterRegistry`; `bounded.upload.skipped` appears with the "
                + "first upload that never started), the journal's and the deferred uploads' (`JournalMeters`), and "
                + "the timers of the observations of `ObservationUploadListener`: one observation per upload and per "
                + "batch, from which Micrometer's handlers make the timer (`bounded.upload`, `bounded.upload.batch`, "
                + "and their `.active` long task timers) and, with tracing, the span. Spring Boot's own switches "
                + "turn them off: `management.metrics.enable.bounded.upload=false`, "
                + "`management.observations.enable.bounded.upload=false`.\n\n"
                + "Every meter has the tag `uploader` (left out of the table), but the journal's. The journal's "
                + "counters are this instance's, tagged `journal.instance` (not `instance`, which Prometheus keeps "
                + "for the scraped target); the gauges tagged `scope=fleet` are figures of the whole fleet, which "
                + "every instance reports alike: read them with `max`, not `sum`. No tag holds a file name or a key. "
                + "Base units are seconds and bytes only. The *health detail* column names the detail of "
                + "`/actuator/health`'s `boundedUpload` component that shows the same number; the *PromQL* column "
                + "one way to read the meter across instances.\n\n");
        out.append("| Meter | Prometheus | Type | Tags | Health detail | PromQL | What |\n");
        out.append("| --- | --- | --- | --- | --- | --- | --- |\n");
        PrometheusNamingConvention prometheus = new PrometheusNamingConvention();
        byName.forEach((name, meters) -> {
            Meter.Id id = meters.get(0).getId();
            String base = prometheus.name(name, id.getType(), id.getBaseUnit());
            List<String> samples = scraped.stream().filter(sample -> sample.equals(base)
                    || List.of("_total", "_count", "_sum", "_max", "_bucket", "_created")
                            .stream().anyMatch(suffix -> sample.equals(base + suffix)))
                    .filter(sample -> !sample.endsWith("_created")).toList();
            assertThat(samples).as("what Prometheus scrapes of %s", name).isNotEmpty();
            Set<String> tags = new java.util.TreeSet<>();
            for (Meter meter : meters) {
                meter.getId().getTags().stream().map(Tag::getKey).filter(key -> !key.equals("uploader"))
                        .forEach(tags::add);
            }
            out.append("| `").append(name).append("` | ")
                    .append(samples.stream().map(s -> "`" + s + "`").collect(Collectors.joining(" ")))
                    .append(" | ").append(id.getType().name().toLowerCase(Locale.ROOT).replace('_', ' '))
                    .append(" | ").append(tags.stream().map(t -> "`" + t + "`").collect(Collectors.joining(" ")))
                    .append(" | ").append(detailOfMeter.containsKey(name) ? "`" + detailOfMeter.get(name) + "`" : "")
                    .append(" | ").append(promql(id, base, tags)).append(" | ").append(description(id, name))
                    .append(" |\n");
        });
        out.append("\nThe uploader's own thread pool also has Micrometer's `executor.*` meters, tag "
                + "`name=bounded-upload-<uploader>`. The observations are named `")
                .append(DefaultBatchObservationConvention.NAME).append("` and `")
                .append(DefaultUploadObservationConvention.NAME).append("` (`DefaultBatchObservationConvention`, "
                        + "`DefaultUploadObservationConvention`; spans `bounded-upload batch` and `bounded-upload "
                        + "upload`, with the same key values, and `batch.size` on the batch's): an application's "
                        + "`UploadObservationConvention` or `BatchObservationConvention` bean replaces them, for "
                        + "example to put the object key on its spans.\n");
        return out.toString();
    }

    /**
     * The meter names spelt in the main code of the core and the journal: string literals of the form
     * {@code "bounded.upload..."} (every one is a meter name: nothing else there is spelt with dots).
     */
    private static Set<String> meterNamesInTheCode() throws IOException {
        Pattern literal = Pattern.compile("\"(bounded\\.upload(?:\\.[a-z]+)*)\"");
        Set<String> names = new java.util.TreeSet<>();
        for (String module : List.of("core", "jdbc")) {
            Path sources = docsDir().resolveSibling(module).resolve("src/main/java");
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    Matcher matcher = literal.matcher(Files.readString(file));
                    while (matcher.find()) {
                        names.add(matcher.group(1));
                    }
                }
            }
        }
        assertThat(names).as("meter names found in the code").contains(MicrometerUploadListener.SKIPPED,
                DefaultUploadObservationConvention.NAME, "bounded.upload.journal.batches.unsettled");
        return names;
    }

    /** One way to read a meter across instances, in PromQL. */
    private static String promql(Meter.Id id, String base, Set<String> tags) {
        String sum = tags.contains("outcome") ? "sum by (outcome) " : tags.contains("reason") ? "sum by (reason) "
                : "sum";
        return switch (id.getType()) {
            case TIMER -> "`" + sum + "(rate(" + base + "_count[5m]))`; mean: `sum(rate(" + base
                    + "_sum[5m])) / sum(rate(" + base + "_count[5m]))`";
            case LONG_TASK_TIMER -> "`sum(" + base + "_count)`";
            case COUNTER -> "`" + sum + "(rate(" + base + "_total[5m]))`";
            default -> tags.contains("scope") ? "`max(" + base + ")`" : "`sum(" + base + ")`";
        };
    }

    private static String description(Meter.Id id, String name) {
        Map<String, String> observations = Map.of(DefaultUploadObservationConvention.NAME,
                "Uploads, from start to end, without the time queued: the observation's timer",
                DefaultBatchObservationConvention.NAME,
                "Batches, from submission to the end of their last upload: the observation's timer",
                DefaultUploadObservationConvention.NAME + ".active", "Uploads in progress: the observation's",
                DefaultBatchObservationConvention.NAME + ".active", "Batches in progress: the observation's");
        if (observations.containsKey(name)) {
            return observations.get(name);
        }
        String description = id.getDescription();
        assertThat(description).as("description of %s", name).isNotBlank();
        return description.replace("|", "\\|");
    }

    private static Path docsDir() {
        return Path.of(System.getProperty("bounded-upload.docs.dir", "../docs")).toAbsolutePath().normalize();
    }
}
