package io.github.boundedupload.benchmarks;

import java.time.Duration;
import java.util.List;

/**
 * Source 001, scaled to LocalStack's memory: 1,344 files of 256 KiB (336 MiB) from disk, 50 ms of latency on every
 * response. The bucket is emptied after every run. Warm-up: the batch itself, again and again, as the measured runs
 * upload it, until at least {@link #warmUpUploads} uploads went through and then until a batch in which the JIT's
 * compiler threads took under {@value Runs#QUIET_JIT_PERCENT} % of the process's CPU (at most {@link #warmUpTime}):
 * every connection of the pool opened, and, in a full run, the per-request code of the strategy, its client and the
 * SDK compiled by C2, which takes thousands of calls of each method. After 400 uploads the JIT still took a third of
 * the client's CPU, and code not yet compiled made an upload cost twice its steady-state CPU: what was measured was
 * when each strategy's code got compiled. A warm-up of 15,000 uploads in batches of 200 still left the JIT 400-800 ms
 * of each measured run's CPU, more for this library than for the pool of source 000, because the first batch of 1,344
 * set it compiling again; warmed up with the batch itself until quiet, 0-70 ms for both. Changes when what scenario B
 * uploads, or how it warms up, changes.
 */
final class ScenarioB {

    /** Uploads to warm up with, at least: a full run's compile the code; a quick run's open the connections. */
    static int warmUpUploads(Scale scale) {
        return scale == Scale.FULL ? 15_000 : 400;
    }

    /** The longest warm-up, for the strategies slow by construction, or whose JIT does not go quiet. */
    static Duration warmUpTime(Scale scale) {
        return Duration.ofSeconds(scale == Scale.FULL ? 75 : 10);
    }

    /** Warms a strategy up for scenario B: the batch itself, again and again (see the class comment). */
    static void warmUp(Strategy strategy, List<Item> files, Scale scale, S3Target target) throws Exception {
        Runs.warmUpUntilQuiet(strategy, w -> Runs.keyed(files, "warm-" + w), warmUpUploads(scale), warmUpTime(scale),
                target::empty);
    }

    private ScenarioB() {
    }

    static void run(StrategyKind kind, Scale scale, int round) throws Exception {
        List<Item> files = DataFiles.items(DataFiles.ensure("b", scale.bFiles(), Scenario.B_SIZE));
        try (S3Target target = S3Target.behindLatency("b", Scenario.B_LATENCY);
                Strategy strategy = kind.open(target.backend(), Scenario.B.setup(kind, scale, target.bucketName()))) {
            warmUp(strategy, files, scale, target);
            Runs.measure(Scenario.B, kind, scale, round, strategy, run -> Runs.keyed(files, "run-" + run), target::empty);
        }
    }
}
