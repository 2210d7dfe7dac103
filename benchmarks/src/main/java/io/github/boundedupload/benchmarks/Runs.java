package io.github.boundedupload.benchmarks;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * The measured runs of one strategy in one scenario, each printed as a result line. Changes when how a strategy's runs
 * are warmed up, measured or recorded changes.
 */
final class Runs {

    /** A warm-up goes on until a batch in which the JIT took less than this share of the process's CPU. */
    static final int QUIET_JIT_PERCENT = 5;

    private Runs() {
    }

    /**
     * Uploads {@code batch.apply(run)} for every measured run of this JVM, timing it and metering the JVM, then calls
     * {@code afterEach} (outside the measurement). Runs are numbered across rounds: round 2 of 3 runs measures runs 4
     * to 6.
     */
    static void measure(Scenario scenario, StrategyKind kind, Scale scale, int round, Strategy strategy,
            IntFunction<List<Item>> batch, Runnable afterEach) throws Exception {
        Meter meter = new Meter();
        int first = (round - 1) * scale.runs() + 1;
        for (int run = first; run < first + scale.runs(); run++) {
            List<Item> items = batch.apply(run);
            meter.start();
            long start = System.nanoTime();
            strategy.upload(items);
            long took = System.nanoTime() - start;
            Meter.Usage usage = meter.stop();
            Map<String, Object> result = result(scenario, kind, run, usage);
            result.put("round", round);
            result.put("makespanMs", TimeUnit.NANOSECONDS.toMicros(took) / 1000.0);
            System.out.println(Line.format(result));
            afterEach.run();
        }
    }

    /**
     * Warms a strategy up, the same way for every strategy of a scenario: uploads {@code batch.apply(round)} round
     * after round, calling {@code afterEach} after each, until at least {@code uploads} uploads went through (so that
     * the JIT has compiled the hot paths of the strategy, its client and this library, not only opened connections),
     * or {@code atMost} has passed (for strategies slow by construction, such as the loop). Prints on standard error
     * how far it went.
     *
     * @return the rounds uploaded
     */
    static int warmUp(Strategy strategy, IntFunction<List<Item>> batch, int uploads, Duration atMost,
            Runnable afterEach) throws Exception {
        return warmUp(strategy, batch, uploads, false, atMost, afterEach);
    }

    /**
     * As {@link #warmUp}, and then on until a round in which the JIT's compiler threads took less than
     * {@value #QUIET_JIT_PERCENT} % of the process's CPU (still within {@code atMost}): for the scenarios whose CPU per
     * upload is a target, where a JIT still busy means code not yet compiled, which costs the measured runs more than
     * it will in steady state.
     */
    static int warmUpUntilQuiet(Strategy strategy, IntFunction<List<Item>> batch, int uploads, Duration atMost,
            Runnable afterEach) throws Exception {
        return warmUp(strategy, batch, uploads, true, atMost, afterEach);
    }

    private static int warmUp(Strategy strategy, IntFunction<List<Item>> batch, int uploads, boolean untilQuiet,
            Duration atMost, Runnable afterEach) throws Exception {
        long began = System.nanoTime();
        long deadline = began + atMost.toNanos();
        int done = 0;
        int round = 0;
        double jitShare = 1;
        while ((done < uploads || untilQuiet && jitShare * 100 >= QUIET_JIT_PERCENT)
                && System.nanoTime() - deadline < 0) {
            List<Item> items = batch.apply(++round);
            long cpu = Meter.processCpuNanos();
            long jit = CompilerThreads.cpuNanos();
            strategy.upload(items);
            long cpuTaken = Meter.processCpuNanos() - cpu;
            jitShare = cpuTaken <= 0 ? 1 : (CompilerThreads.cpuNanos() - jit) / (double) cpuTaken;
            done += items.size();
            afterEach.run();
        }
        System.err.printf(Locale.ROOT, "[warm-up] %d uploads in %.1f s; the JIT took %.0f %% of the last round's CPU%n",
                done, (System.nanoTime() - began) / 1e9, jitShare * 100);
        return round;
    }

    /** The fields every result line has. */
    static Map<String, Object> result(Scenario scenario, StrategyKind kind, int run, Meter.Usage usage) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("scenario", scenario);
        result.put("strategy", kind);
        result.put("run", run);
        result.put("heapUsedMiB", usage.peakHeapUsed() / (1024.0 * 1024));
        result.put("heapAfterGcMiB", usage.peakHeapAfterGc() / (1024.0 * 1024));
        result.put("threads", usage.peakThreads());
        result.put("cpuMs", usage.cpuNanos() / 1e6);
        result.put("jitCpuMs", usage.jitCpuNanos() / 1e6);
        result.put("allocatedMiB", usage.allocatedBytes() / (1024.0 * 1024));
        return result;
    }

    /** The items again, each under {@code prefix/} and its position. */
    static List<Item> keyed(List<Item> items, String prefix) {
        return java.util.stream.IntStream.range(0, items.size())
                .mapToObj(i -> items.get(i).withKey(prefix + "/" + i + "-" + items.get(i).fileName())).toList();
    }
}
