package io.github.boundedupload.benchmarks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Two strategies in one JVM, scenario B's (or M's) batch by each in turn: the closest comparison of their CPU per upload this
 * machine allows. Separate JVMs (the benchmark's rounds, {@link ProfileUploads}) differ by what their JIT compiled and
 * by the minute of the shared machine they ran in, which moves one strategy's CPU per upload by 10-15 % from one JVM to
 * the next, more than the differences sought. Here both are warmed up together (a batch of each in turn, as scenario B
 * warms one up), then their batches alternate (A B, B A, A B, ...), so a slow minute falls on both, and every round
 * gives a pair. The benchmark runs one pair for each of this library's strategies in scenario B, with the anchor its
 * CPU target names ({@link #run}); {@code scripts/profile.sh --pair A B} runs any two ({@link #main}). Changes when how
 * two strategies are compared changes.
 *
 * <pre>
 * PairUploads A B [rounds [B|M]]   (strategy names as {@link ProfileUploads} takes them; the environment of
 *                                   scripts/benchmark.sh: one S3 server, Toxiproxy)
 * </pre>
 */
public final class PairUploads {

    /** One batch of one of the two: its time, and its CPU per upload without the JIT's. */
    record Batch(double seconds, double cpuMicrosPerUpload, double jitMillis, double switchesPerUpload) {
    }

    private PairUploads() {
    }

    /**
     * The rounds of the benchmark's pairs: 16 in a full run (about 3 minutes a pair), 2 in a quick one. With 8, two
     * uploaders of the same code came out 11 % apart.
     */
    static int rounds(Scale scale) {
        return scale == Scale.FULL ? 16 : 2;
    }

    /**
     * Compares two strategies.
     *
     * @param args the two strategies, the rounds (default 10; each round runs each strategy's batch once) and the
     *     scenario whose batch they upload, set up as it sets them up (B, the default, or M)
     * @throws Exception when a strategy fails
     */
    public static void main(String[] args) throws Exception {
        String[] names = {args[0], args[1]};
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        Scenario scenario = args.length > 3 ? Scenario.valueOf(args[3]) : Scenario.B;
        Scale scale = Scale.FULL;
        double[][] cpu = new double[2][rounds];
        double[][] switches = new double[2][rounds];
        double[][] makespan = new double[2][rounds];
        try (S3Target target = S3Target.behindLatency("pair", scenario.configuredLatency(scale));
                Strategy first = ProfileUploads.open(names[0].split(":", 2), target, scale, scenario);
                Strategy second = ProfileUploads.open(names[1].split(":", 2), target, scale, scenario)) {
            alternate(new Strategy[] {first, second}, rounds, scenario, scale, target, (round, batches) -> {
                for (int turn = 0; turn < 2; turn++) {
                    int which = firstOf(round) == 0 ? turn : 1 - turn; // in the order they ran
                    Batch batch = batches[which];
                    cpu[which][round] = batch.cpuMicrosPerUpload();
                    switches[which][round] = batch.switchesPerUpload();
                    makespan[which][round] = batch.seconds();
                    System.out.printf(Locale.ROOT, "%s round %d: %.2f s, CPU %.0f us per upload (the JIT's %.0f ms),"
                            + " %.1f context switches per upload%n", names[which], round + 1, batch.seconds(),
                            batch.cpuMicrosPerUpload(), batch.jitMillis(), batch.switchesPerUpload());
                }
                System.out.printf(Locale.ROOT, "round %d: makespan %s / %s = %.3f%n", round + 1, names[0], names[1],
                        makespan[0][round] / makespan[1][round]);
            });
        }
        for (int which = 0; which < 2; which++) {
            System.out.printf(Locale.ROOT, "%s: median makespan %.3f s (%.3f-%.3f), median CPU %.0f us per upload, "
                    + "%.1f context switches per upload%n", names[which], Stats.median(makespan[which]),
                    min(makespan[which]), max(makespan[which]), Stats.median(cpu[which]),
                    Stats.median(switches[which]));
        }
        for (String what : List.of("makespan", "CPU per upload")) {
            double[][] of = what.equals("makespan") ? makespan : cpu;
            double[] ratios = new double[rounds];
            StringBuilder each = new StringBuilder();
            for (int round = 0; round < rounds; round++) {
                ratios[round] = of[0][round] / of[1][round];
                each.append(String.format(Locale.ROOT, " %.3f", ratios[round]));
            }
            System.out.printf(Locale.ROOT, "%s / %s, %s: %.3fx (medians), %.3fx (median of the rounds' ratios, "
                    + "%.3f-%.3f); rounds:%s%n", names[0], names[1], what, Stats.median(of[0]) / Stats.median(of[1]),
                    Stats.median(ratios), min(ratios), max(ratios), each);
        }
        System.exit(0);
    }

    private static double min(double[] values) {
        return java.util.Arrays.stream(values).min().orElse(Double.NaN);
    }

    private static double max(double[] values) {
        return java.util.Arrays.stream(values).max().orElse(Double.NaN);
    }

    /**
     * The anchor of one of this library's strategies in scenario M's pairs: a plain {@code CompletableFuture} pool of
     * the same concurrency on the same kind of client ({@link CompletableFutureUploads#fixedPool} on the blocking client,
     * {@link AsyncPoolUploads} on the non-blocking one).
     */
    static String mixedAnchor(StrategyKind kind) {
        return kind == StrategyKind.LIBRARY_NON_BLOCKING ? ProfileUploads.ASYNC_POOL : ProfileUploads.FIXED_POOL;
    }

    /**
     * Scenario M's pair for one of this library's strategies (the blocking ones, or the non-blocking one on the
     * Java-based client) and its {@link #mixedAnchor}, set up as scenario M sets them up, alternating for
     * {@code rounds} rounds; one result line per round with both batches.
     */
    static void runMixed(StrategyKind kind, Scale scale, int rounds) throws Exception {
        String anchor = mixedAnchor(kind);
        try (S3Target target = S3Target.behindLatency("pair", Scenario.M_LATENCY);
                Strategy mine = kind.open(target.backend(), Scenario.M.setup(kind, scale, target.bucketName()));
                Strategy theirs = ProfileUploads.open(new String[] {anchor}, target, scale, Scenario.M)) {
            alternate(new Strategy[] {mine, theirs}, rounds, Scenario.M, scale, target,
                    resultLines(Report.PAIR_M, kind, anchor));
        }
    }

    /**
     * The benchmark's pair for one of this library's strategies in scenario B: it and {@code anchor}, both set up as
     * scenario B sets them up, alternating for {@code rounds} rounds; one result line per round with both batches.
     */
    static void run(StrategyKind kind, StrategyKind anchor, Scale scale, int rounds) throws Exception {
        try (S3Target target = S3Target.behindLatency("pair", Scenario.B_LATENCY);
                Strategy mine = kind.open(target.backend(), Scenario.B.setup(kind, scale, target.bucketName()));
                Strategy theirs = anchor.open(target.backend(),
                        Scenario.B.setup(anchor, scale, target.bucketName()))) {
            alternate(new Strategy[] {mine, theirs}, rounds, Scenario.B, scale, target,
                    resultLines(Report.PAIR, kind, anchor));
        }
    }

    /** One result line per round of a benchmark's pair: both batches' CPU per upload and makespan. */
    private static Listener resultLines(String scenario, StrategyKind kind, Object anchor) {
        return (round, batches) -> {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("scenario", scenario);
            line.put("strategy", kind);
            line.put("anchor", anchor);
            line.put("round", round + 1);
            line.put("cpuUs", batches[0].cpuMicrosPerUpload());
            line.put("anchorCpuUs", batches[1].cpuMicrosPerUpload());
            line.put("makespanMs", batches[0].seconds() * 1e3);
            line.put("anchorMakespanMs", batches[1].seconds() * 1e3);
            System.out.println(Line.format(line));
        };
    }

    /** What is told of each round: the round (from 0), and the batch of each of the two, in their order. */
    interface Listener {
        void round(int round, Batch[] batches);
    }

    /** Which of the two runs first in a round: A B, B A, A B, ... */
    private static int firstOf(int round) {
        return round % 2;
    }

    /**
     * Warms both up together, then runs their batches of scenario B or M in turn: A B, B A, A B, ... Each round goes
     * to {@code listener}; the bucket is emptied after each batch.
     */
    static void alternate(Strategy[] both, int rounds, Scenario scenario, Scale scale, S3Target target,
            Listener listener) throws Exception {
        boolean mixed = scenario == Scenario.M;
        List<Item> files = mixed ? ScenarioM.files()
                : DataFiles.items(DataFiles.ensure("b", scale.bFiles(), Scenario.B_SIZE));
        // Warmed up together, a batch of each in turn, until the JIT is quiet after a batch of both: warmed up one
        // after the other, the second's warm-up changed the profile of the SDK code both share, and the first went
        // back to the compiler in the first measured rounds (510 ms of JIT in its first batch, against 70 ms).
        Strategy together = new Strategy() {
            @Override
            public void upload(List<Item> items) throws Exception {
                both[0].upload(items);
                target.empty();
                both[1].upload(items);
            }

            @Override
            public void close() {
            }
        };
        Runs.warmUpUntilQuiet(together, w -> Runs.keyed(files, "warm-" + w),
                mixed ? ScenarioM.warmUpUploads(scale) : ScenarioB.warmUpUploads(scale),
                (mixed ? ScenarioM.warmUpTime(scale) : ScenarioB.warmUpTime(scale)).multipliedBy(2), target::empty);
        Meter meter = new Meter();
        for (int round = 0; round < rounds; round++) {
            Batch[] batches = new Batch[2];
            for (int turn = 0; turn < 2; turn++) {
                int which = firstOf(round) == 0 ? turn : 1 - turn;
                List<Item> items = Runs.keyed(files, "pair-" + round + "-" + which);
                long switchesBefore = ContextSwitches.now();
                meter.start();
                long start = System.nanoTime();
                both[which].upload(items);
                long took = System.nanoTime() - start;
                Meter.Usage usage = meter.stop();
                batches[which] = new Batch(took / 1e9,
                        (usage.cpuNanos() - usage.jitCpuNanos()) / 1e3 / items.size(), usage.jitCpuNanos() / 1e6,
                        (ContextSwitches.now() - switchesBefore) / (double) items.size());
                target.empty();
            }
            listener.round(round, batches);
        }
    }
}
