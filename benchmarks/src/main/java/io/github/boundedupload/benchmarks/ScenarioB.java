package io.github.boundedupload.benchmarks;

import java.util.List;

/**
 * Source 001, scaled to LocalStack's memory: 1,344 files of 256 KiB (336 MiB) from disk, 50 ms of latency on every
 * response. The bucket is emptied after every run. Warm-up: the first 200 files under the latency (every connection
 * of the pool opened, the code compiled).
 */
final class ScenarioB {

    private ScenarioB() {
    }

    static void run(StrategyKind kind, Scale scale) throws Exception {
        List<Item> files = DataFiles.items(DataFiles.ensure("b", scale.bFiles(), Scenario.B_SIZE));
        try (LocalStackTarget target = LocalStackTarget.behindLatency("b", Scenario.B_LATENCY);
                Strategy strategy = kind.open(target.backend(), Scenario.B.setup(kind, scale, target.bucketName()))) {
            strategy.upload(Runs.keyed(files.subList(0, Math.min(200, files.size())), "warm"));
            target.empty();
            Runs.measure(Scenario.B, kind, scale, strategy, run -> Runs.keyed(files, "run-" + run), target::empty);
        }
    }
}
