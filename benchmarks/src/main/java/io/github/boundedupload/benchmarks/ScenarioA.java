package io.github.boundedupload.benchmarks;

import io.github.boundedupload.testsupport.TestData;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Source 000: the 10 attachments of one request (200 KiB each) to the S3 server, 150 ms of latency on every response.
 * Warm-up: the same batch again and again under the latency ({@link #WARM_UP_UPLOADS} uploads, at most
 * {@link #WARM_UP_TIME}), so that every strategy has opened its connections (up to 10 at once) and compiled its code
 * before the first measured run. Changes when what scenario A uploads, or how it warms up, changes.
 */
final class ScenarioA {

    static final int WARM_UP_UPLOADS = 200;
    static final Duration WARM_UP_TIME = Duration.ofSeconds(15);

    private ScenarioA() {
    }

    /** The 10 attachments, in memory. */
    static List<Item> attachments() {
        return IntStream.range(0, Scenario.A_FILES)
                .mapToObj(i -> Item.ofBytes("week-3-" + i + ".bin", "", TestData.bytes(i, Scenario.A_SIZE)))
                .toList();
    }

    static void run(StrategyKind kind, Scale scale, int round) throws Exception {
        List<Item> attachments = attachments();
        try (S3Target target = S3Target.behindLatency("a", Scenario.A_LATENCY);
                Strategy strategy = kind.open(target.backend(), Scenario.A.setup(kind, scale, target.bucketName()))) {
            Runs.warmUp(strategy, warm -> Runs.keyed(attachments, "warm-" + warm), WARM_UP_UPLOADS, WARM_UP_TIME,
                    target::empty);
            Runs.measure(Scenario.A, kind, scale, round, strategy, run -> Runs.keyed(attachments, "run-" + run),
                    target::empty);
        }
    }
}
