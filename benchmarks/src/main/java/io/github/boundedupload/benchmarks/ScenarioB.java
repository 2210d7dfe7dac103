package io.github.boundedupload.benchmarks;

import java.time.Duration;
import java.util.List;

/**
 * Source 001, scaled to LocalStack's memory: 1,344 files of 256 KiB (336 MiB) from disk, 50 ms of latency on every
 * response. The bucket is emptied after every run. Warm-up: the first 200 files under the latency, again and again
 * ({@link #WARM_UP_UPLOADS} uploads, at most {@link #WARM_UP_TIME}): every connection of the pool opened, the code
 * compiled.
 */
final class ScenarioB {

    static final int WARM_UP_UPLOADS = 400;
    static final Duration WARM_UP_TIME = Duration.ofSeconds(20);

    private ScenarioB() {
    }

    static void run(StrategyKind kind, Scale scale, int round) throws Exception {
        List<Item> files = DataFiles.items(DataFiles.ensure("b", scale.bFiles(), Scenario.B_SIZE));
        try (S3Target target = S3Target.behindLatency("b", Scenario.B_LATENCY);
                Strategy strategy = kind.open(target.backend(), Scenario.B.setup(kind, scale, target.bucketName()))) {
            List<Item> warm = files.subList(0, Math.min(200, files.size()));
            Runs.warmUp(strategy, w -> Runs.keyed(warm, "warm-" + w), WARM_UP_UPLOADS, WARM_UP_TIME,
                    target::empty);
            Runs.measure(Scenario.B, kind, scale, round, strategy, run -> Runs.keyed(files, "run-" + run), target::empty);
        }
    }
}
