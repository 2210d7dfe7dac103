package io.github.boundedupload.benchmarks;

import java.time.Duration;
import java.util.List;

/**
 * Source 001, scaled to LocalStack's memory: 1,344 files of 256 KiB (336 MiB) from disk, 50 ms of latency on every
 * response. The bucket is emptied after every run. Warm-up: the first 200 files under the latency, again and again
 * ({@link #warmUpUploads} uploads, at most {@link #warmUpTime}): every connection of the pool opened, and, in a full
 * run, the per-request code of the strategy, its client and the SDK compiled by C2, which takes thousands of calls
 * of each method (after 400 uploads the JIT still took a third of the client's CPU, and code not yet compiled made an
 * upload cost twice its steady-state CPU: what was measured was when each strategy's code got compiled). Changes when
 * what scenario B uploads, or how it warms up, changes.
 */
final class ScenarioB {

    /** Uploads warmed up before the measured runs: a full run's warm-up compiles the code; a quick one opens connections. */
    static int warmUpUploads(Scale scale) {
        return scale == Scale.FULL ? 15_000 : 400;
    }

    /** The longest warm-up, for the strategies slow by construction. */
    static Duration warmUpTime(Scale scale) {
        return Duration.ofSeconds(scale == Scale.FULL ? 45 : 20);
    }

    private ScenarioB() {
    }

    static void run(StrategyKind kind, Scale scale, int round) throws Exception {
        List<Item> files = DataFiles.items(DataFiles.ensure("b", scale.bFiles(), Scenario.B_SIZE));
        try (S3Target target = S3Target.behindLatency("b", Scenario.B_LATENCY);
                Strategy strategy = kind.open(target.backend(), Scenario.B.setup(kind, scale, target.bucketName()))) {
            List<Item> warm = files.subList(0, Math.min(200, files.size()));
            Runs.warmUp(strategy, w -> Runs.keyed(warm, "warm-" + w), warmUpUploads(scale), warmUpTime(scale),
                    target::empty);
            Runs.measure(Scenario.B, kind, scale, round, strategy, run -> Runs.keyed(files, "run-" + run), target::empty);
        }
    }
}
