package io.github.boundedupload.benchmarks;

import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.ExecutorType;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.limits.AdaptiveConcurrency;
import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.s3.S3UploadOptions;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Adaptive concurrency (no anchor has it): a batch of small uploads to a server that degrades past 8 requests in
 * flight ({@link ThrottlingProxy} in front of the real S3 server: slower answers past the knee, {@code 503 SlowDown}
 * past 4 times it). This library on platform threads, with the uploads-in-flight limit fixed by hand at 4, 8 (the
 * knee: the best hand-tuned value), 16 and 64 (the default, badly tuned here), and adaptive (never above 64) started
 * from 4 and from 32: the default ({@link AdaptiveConcurrency#create(int, int)}), and Vegas as the library had it
 * before, for comparison. All settings run in one JVM on one client, interleaved round by round (the order turning each
 * round), after one warm-up batch each; an adaptive uploader lives across rounds, as it would in an application.
 * Every client retries up to {@link #ATTEMPTS} times with the SDK's standard backoff (circuit breaker off), so that the
 * badly tuned setting finishes, slowly, instead of failing; failures are counted, not thrown. Changes when what
 * scenario F uploads, the limit settings it compares, or how its clients retry change.
 */
final class ScenarioF {

    static final int KNEE = 8;
    static final int MAX = 64;
    static final int SIZE = 64 * 1024;
    static final Duration LATENCY = Duration.ofMillis(50);
    static final int ATTEMPTS = 10;

    /** An adaptive limit, built from the limit it starts at (never above {@link #MAX}). */
    record Algorithm(String name, IntFunction<AdaptiveConcurrency> limit) {
    }

    /** The library's default. */
    static final Algorithm DEFAULT = new Algorithm("default", initial -> AdaptiveConcurrency.create(initial, MAX));

    /** Vegas with concurrency-limits' own settings, the default before: for comparison. */
    static final Algorithm VEGAS = new Algorithm("Vegas", ScenarioF::vegasOfBefore);

    @SuppressWarnings("deprecation") // measured as the default it was
    private static AdaptiveConcurrency vegasOfBefore(int initial) {
        return AdaptiveConcurrency.vegas(initial, MAX);
    }

    /** One way of setting the limit: fixed, or adaptive from {@code initial}. */
    record Setting(String label, int fixed, int initial, Algorithm algorithm) {

        static Setting fixed(String label, int limit) {
            return new Setting(label, limit, 0, null);
        }

        static Setting adaptive(Algorithm algorithm, int initial) {
            return new Setting("adaptive (" + algorithm.name() + ", from " + initial + ", at most " + MAX + ")", 0,
                    initial, algorithm);
        }

        boolean adaptive() {
            return algorithm != null;
        }

        /** Whether this is the library's default adaptive limit, which the targets are about. */
        boolean theDefault() {
            return algorithm == DEFAULT;
        }

        UploaderConfig config(int batch, int index) {
            UploaderConfig.Builder builder = UploaderConfig.builder()
                    .name("bench-f-" + (adaptive() ? "adaptive-" + index + "-" + initial : "fixed-" + fixed))
                    .executorType(ExecutorType.PLATFORM).failurePolicy(FailurePolicy.COLLECT)
                    .maxConcurrentUploads(adaptive() ? MAX : fixed).maxConcurrentUploadsPerBatch(adaptive() ? MAX : fixed)
                    .maxAttachmentsPerBatch(Math.max(UploaderConfig.DEFAULT_MAX_ATTACHMENTS_PER_BATCH, batch));
            if (adaptive()) {
                builder.concurrencyLimit(algorithm.limit().apply(initial));
            }
            return builder.build();
        }
    }

    /**
     * The fixed limits, and each adaptive one started below the knee and above it (where Vegas took the loaded latency
     * it first saw for the unloaded one).
     */
    static final List<Setting> SETTINGS = List.of(Setting.fixed("fixed 4", 4), Setting.fixed("fixed 8 (the knee)", KNEE),
            Setting.fixed("fixed 16", 16), Setting.fixed("fixed 64 (the default)", MAX),
            Setting.adaptive(DEFAULT, 4), Setting.adaptive(DEFAULT, 32), Setting.adaptive(VEGAS, 4),
            Setting.adaptive(VEGAS, 32));

    /** The system property that measures {@link AdaptiveCandidates} instead of {@link #SETTINGS}. */
    static final String CANDIDATES = "bench.f.candidates";

    /**
     * What one run measures: {@link #SETTINGS}, or with {@code -Dbench.f.candidates=true} the fixed limits around the
     * knee and every candidate of {@link AdaptiveCandidates} from 4 and from 32 (the measurement behind
     * {@code docs/performance.md}, "Adaptive limit").
     */
    static List<Setting> settings() {
        if (!Boolean.getBoolean(CANDIDATES)) {
            return SETTINGS;
        }
        List<Setting> settings = new ArrayList<>(List.of(Setting.fixed("fixed 4", 4),
                Setting.fixed("fixed 8 (the knee)", KNEE), Setting.fixed("fixed 9", KNEE + 1),
                Setting.fixed("fixed 16", 16)));
        for (Algorithm algorithm : AdaptiveCandidates.ALL) {
            settings.add(Setting.adaptive(algorithm, 4));
            settings.add(Setting.adaptive(algorithm, 32));
        }
        return settings;
    }

    private ScenarioF() {
    }

    /** Uploads per batch. */
    static int uploads(Scale scale) {
        return scale == Scale.FULL ? 400 : 100;
    }

    /** Measured rounds: every setting once per round. Batches are short, so more rounds than elsewhere. */
    static int rounds(Scale scale) {
        return scale == Scale.FULL ? 5 : 2;
    }

    static void run(Scale scale) throws Exception {
        List<Setting> settings = settings();
        List<Map<String, Object>> lines = new ArrayList<>();
        List<Item> items = IntStream.range(0, uploads(scale))
                .mapToObj(i -> Item.ofBytes("f-" + i + ".bin", "", TestData.bytes(i, SIZE))).toList();
        S3TestServices services = S3TestServices.get();
        try (S3Target target = S3Target.direct("f");
                ThrottlingProxy proxy = new ThrottlingProxy(services.s3Endpoint(), KNEE, LATENCY);
                S3Client client = services.s3ClientBuilder(proxy.endpoint())
                        .httpClientBuilder(Apache5HttpClient.builder().maxConnections(MAX))
                        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.standardRetryStrategy()
                                .toBuilder().maxAttempts(ATTEMPTS).circuitBreakerEnabled(false).build()))
                        .build()) {
            S3FileUploader storage = S3FileUploader.builder(client, target.bucketName())
                    .options(S3UploadOptions.builder().maxConcurrency(MAX).build()).build();
            List<ConcurrentAttachmentUploader> uploaders = new ArrayList<>();
            try {
                for (Setting setting : settings) {
                    ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                            setting.config(items.size(), uploaders.size()));
                    uploaders.add(uploader);
                    uploader.uploadAll(attachments(items, "warm-" + uploaders.size()));
                    target.empty();
                }
                Meter meter = new Meter();
                for (int round = 1; round <= rounds(scale); round++) {
                    for (int i = 0; i < settings.size(); i++) {
                        int at = (i + round - 1) % settings.size(); // a different setting goes first every round
                        Setting setting = settings.get(at);
                        ConcurrentAttachmentUploader uploader = uploaders.get(at);
                        long slowDowns = proxy.slowDowns();
                        proxy.takeMostInFlight();
                        meter.start();
                        long start = System.nanoTime();
                        BatchResult result = uploader.uploadAll(attachments(items, "run-" + round + "-" + at));
                        long took = System.nanoTime() - start;
                        Map<String, Object> line = new LinkedHashMap<>(Runs.result(Scenario.F,
                                StrategyKind.LIBRARY_PLATFORM, round, meter.stop()));
                        line.put("setting", setting.label());
                        line.put("fixed", setting.fixed());
                        line.put("makespanMs", took / 1e6);
                        line.put("failedUploads", result.notStored().size());
                        line.put("slowDowns", proxy.slowDowns() - slowDowns);
                        line.put("mostInFlight", proxy.takeMostInFlight());
                        line.put("limitAfter", setting.adaptive() ? uploader.stats().concurrencyLimit()
                                : setting.fixed());
                        System.out.println(Line.format(line));
                        lines.add(line);
                        target.empty();
                    }
                }
            } finally {
                uploaders.forEach(ConcurrentAttachmentUploader::close);
            }
        }
        if (settings != SETTINGS) {
            System.out.print(AdaptiveCandidates.table(settings, lines));
        }
    }

    private static List<io.github.boundedupload.Attachment> attachments(List<Item> items, String prefix) {
        return Runs.keyed(items, prefix).stream().map(Item::attachment).toList();
    }
}
