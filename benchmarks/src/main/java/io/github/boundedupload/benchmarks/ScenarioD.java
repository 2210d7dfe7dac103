package io.github.boundedupload.benchmarks;

import io.github.boundedupload.testsupport.TestData;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Source 004, permits against threads: 500 uploads that each take 2 s, in process (the fake clients), so that only
 * how many uploads a strategy keeps in flight decides. Warm-up: the batch twice at 5 ms per upload.
 */
final class ScenarioD {

    private ScenarioD() {
    }

    static void run(StrategyKind kind, Scale scale) throws Exception {
        List<Item> uploads = IntStream.range(0, scale.dUploads())
                .mapToObj(i -> Item.ofBytes("notification-" + i + ".json", "", TestData.bytes(i, Scenario.SMALL_SIZE)))
                .toList();
        try (FakeNetwork network = new FakeNetwork(Duration.ofMillis(5));
                Strategy strategy = kind.open(Backend.fake(network), Scenario.D.setup(kind, scale, "bench-d"))) {
            for (int warm = 1; warm <= 2; warm++) {
                strategy.upload(Runs.keyed(uploads, "warm-" + warm));
            }
            network.latency(scale.dLatency());
            Runs.measure(Scenario.D, kind, scale, strategy, run -> Runs.keyed(uploads, "run-" + run), () -> { });
        }
    }
}
