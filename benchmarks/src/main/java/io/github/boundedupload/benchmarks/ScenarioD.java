package io.github.boundedupload.benchmarks;

import io.github.boundedupload.testsupport.TestData;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Source 004, permits against threads: 500 uploads that each take 2 s, in process (the fake clients), so that only
 * how many uploads a strategy keeps in flight decides. Warm-up: the batch again and again at 1 ms per upload, until
 * {@link #warmUpUploads} uploads went through (at most {@link #warmUpTime}): in process an upload costs only
 * CPU, so code the JIT has not compiled yet would be what is measured (and, in scenario E, the JIT's threads would
 * compete with the unrelated task for the two cores). Changes when what scenario D uploads, or how it warms up,
 * changes.
 */
final class ScenarioD {

    static int warmUpUploads(Scale scale) {
        return scale == Scale.FULL ? 50_000 : 10_000;
    }

    static Duration warmUpTime(Scale scale) {
        return Duration.ofSeconds(scale == Scale.FULL ? 40 : 20);
    }

    private ScenarioD() {
    }

    static void run(StrategyKind kind, Scale scale, int round) throws Exception {
        List<Item> uploads = IntStream.range(0, scale.dUploads())
                .mapToObj(i -> Item.ofBytes("notification-" + i + ".json", "", TestData.bytes(i, Scenario.SMALL_SIZE)))
                .toList();
        try (FakeNetwork network = new FakeNetwork(Duration.ofMillis(1));
                Strategy strategy = kind.open(Backend.fake(network), Scenario.D.setup(kind, scale, "bench-d"))) {
            Runs.warmUp(strategy, warm -> Runs.keyed(uploads, "warm-" + warm), warmUpUploads(scale), warmUpTime(scale),
                    () -> { });
            network.latency(scale.dLatency());
            Runs.measure(Scenario.D, kind, scale, round, strategy, run -> Runs.keyed(uploads, "run-" + run), () -> { });
        }
    }
}
