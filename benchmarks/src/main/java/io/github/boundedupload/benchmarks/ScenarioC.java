package io.github.boundedupload.benchmarks;

import java.util.List;

/**
 * Source 001's large files: 4 files of 180 MB from disk straight to the S3 server (no proxy, no added latency), so
 * bandwidth-bound: more threads must not make it slower, and nothing may hold a file in memory. Warm-up: 4 files of
 * 24 MB (the same path as the measured files for this library, one PutObject each; the multipart path of the
 * Transfer Manager). Changes when what scenario C uploads, or how it warms up, changes.
 */
final class ScenarioC {

    static final long WARM_UP_SIZE = 24_000_000L;

    private ScenarioC() {
    }

    static void run(StrategyKind kind, Scale scale, int round) throws Exception {
        List<Item> files = DataFiles.items(DataFiles.ensure("c", Scenario.C_FILES, scale.cFileBytes()));
        List<Item> warmUp = DataFiles.items(DataFiles.ensure("c-warm", Scenario.C_FILES, WARM_UP_SIZE));
        try (S3Target target = S3Target.direct("c");
                Strategy strategy = kind.open(target.backend(), Scenario.C.setup(kind, scale, target.bucketName()))) {
            strategy.upload(Runs.keyed(warmUp, "warm"));
            target.empty();
            Runs.measure(Scenario.C, kind, scale, round, strategy, run -> Runs.keyed(files, "run-" + run), target::empty);
        }
    }
}
