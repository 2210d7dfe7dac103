package io.github.boundedupload.benchmarks;

import java.util.List;
import java.util.Locale;

/**
 * Two strategies in one JVM, scenario B's batch by each in turn: the closest comparison of their CPU per upload this
 * machine allows. Separate JVMs (the benchmark, {@link ProfileUploads}) differ by what their JIT compiled and by the
 * minute of the shared machine they ran in, which moves one strategy's CPU per upload by 10-15 % from run to run, more
 * than the differences sought. Here both are warmed up, then their batches alternate (A B, B A, A B, ...), so a slow
 * minute falls on both, and every batch gives a pair. Prints each batch (time, CPU per upload without the JIT's,
 * context switches per upload) and the medians. Changes when how two strategies are compared changes.
 *
 * <pre>
 * PairUploads A B [rounds]      (strategy names as {@link ProfileUploads} takes them; the environment of
 *                                scripts/benchmark.sh: one S3 server, Toxiproxy)
 * </pre>
 *
 * {@code scripts/profile.sh --pair A B} runs it.
 */
public final class PairUploads {

    private PairUploads() {
    }

    /**
     * Compares two strategies.
     *
     * @param args the two strategies, and the rounds (default 10; each round runs each strategy's batch once)
     * @throws Exception when a strategy fails
     */
    public static void main(String[] args) throws Exception {
        String[] names = {args[0], args[1]};
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        Scale scale = Scale.FULL;
        List<Item> files = DataFiles.items(DataFiles.ensure("b", scale.bFiles(), Scenario.B_SIZE));
        List<Item> warm = files.subList(0, 200);
        try (S3Target target = S3Target.behindLatency("pair", Scenario.B_LATENCY);
                Strategy first = ProfileUploads.open(names[0].split(":", 2), target, scale);
                Strategy second = ProfileUploads.open(names[1].split(":", 2), target, scale)) {
            Strategy[] both = {first, second};
            for (Strategy strategy : both) {
                Runs.warmUp(strategy, w -> Runs.keyed(warm, "warm-" + w), 15_000, java.time.Duration.ofMinutes(3),
                        target::empty);
            }
            double[][] cpu = new double[2][rounds];
            double[][] switches = new double[2][rounds];
            Meter meter = new Meter();
            for (int round = 0; round < rounds; round++) {
                for (int turn = 0; turn < 2; turn++) {
                    int which = round % 2 == 0 ? turn : 1 - turn;
                    List<Item> items = Runs.keyed(files, "pair-" + round + "-" + which);
                    long switchesBefore = ContextSwitches.now();
                    meter.start();
                    long start = System.nanoTime();
                    both[which].upload(items);
                    long took = System.nanoTime() - start;
                    Meter.Usage usage = meter.stop();
                    double perUpload = (usage.cpuNanos() - usage.jitCpuNanos()) / 1e3 / items.size();
                    double switched = (ContextSwitches.now() - switchesBefore) / (double) items.size();
                    cpu[which][round] = perUpload;
                    switches[which][round] = switched;
                    System.out.printf(Locale.ROOT, "%s round %d: %.2f s, CPU %.0f us per upload (the JIT's %.0f ms),"
                            + " %.1f context switches per upload%n", names[which], round + 1, took / 1e9, perUpload,
                            usage.jitCpuNanos() / 1e6, switched);
                    target.empty();
                }
            }
            double[] medians = {Stats.median(cpu[0]), Stats.median(cpu[1])};
            for (int which = 0; which < 2; which++) {
                System.out.printf(Locale.ROOT, "%s: median CPU %.0f us per upload, %.1f context switches per upload%n",
                        names[which], medians[which], Stats.median(switches[which]));
            }
            System.out.printf(Locale.ROOT, "%s / %s: %.2fx%n", names[0], names[1], medians[0] / medians[1]);
        }
        System.exit(0);
    }
}
