package io.github.boundedupload.benchmarks;

import java.time.Duration;

/**
 * How big each scenario is and how often it is measured: the full run (the source cases' sizes, three rounds of
 * three measured runs) or a quick run for development (smaller batches, two rounds of one run). Changes when the size
 * of a full or a quick run, or how often it measures, changes.
 *
 * @param name {@code full} or {@code quick}
 * @param runs measured runs in each JVM of a scenario and strategy
 * @param rounds rounds of scenarios A, B and C: in each, every strategy gets a JVM of its own, one after another, in
 *     an order that turns from round to round (so a slow minute of the shared machine falls on different strategies)
 * @param bFiles files in scenario B
 * @param cFileBytes the size of each of scenario C's four files
 * @param dUploads uploads in scenario D
 * @param dLatency each of scenario D's uploads takes this long
 * @param eUploads uploads in scenario E's big batch
 * @param eWindow how long scenario E watches the big batch before it stops a strategy that is not done
 * @param eBaseline how long scenario E samples the unrelated task without the batch
 */
record Scale(String name, int runs, int rounds, int bFiles, long cFileBytes, int dUploads, Duration dLatency, int eUploads,
        Duration eWindow, Duration eBaseline) {

    static final Scale FULL = new Scale("full", 3, 3, 1_344, 180_000_000L, 500, Duration.ofSeconds(2), 14_000,
            Duration.ofSeconds(20), Duration.ofSeconds(5));
    static final Scale QUICK = new Scale("quick", 1, 2, 200, 24_000_000L, 100, Duration.ofMillis(500), 2_000,
            Duration.ofSeconds(6), Duration.ofSeconds(2));

    static Scale named(String name) {
        return switch (name) {
            case "full" -> FULL;
            case "quick" -> QUICK;
            default -> throw new IllegalArgumentException("scale must be full or quick, was " + name);
        };
    }
}
