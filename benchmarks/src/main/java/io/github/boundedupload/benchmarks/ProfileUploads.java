package io.github.boundedupload.benchmarks;

import io.github.boundedupload.ExecutorType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import one.profiler.AsyncProfiler;

/**
 * Where the CPU and the allocations of one upload go, in steady state: scenario B's batch (1,344 files of 256 KiB,
 * 50 ms away) uploaded by one strategy, after a warm-up long enough for C2 to have compiled the per-request code, with
 * async-profiler sampling the measured runs only (CPU first, then allocation). Prints the time and CPU per upload of
 * every run and a {@link Breakdown} of the samples, and keeps the collapsed stacks. Changes when how one strategy's
 * uploads are profiled, or what is printed of them, changes.
 *
 * <pre>
 * ProfileUploads STRATEGY [warmUpUploads [runs]]      (the environment of scripts/benchmark.sh: one S3 server, Toxiproxy)
 * </pre>
 *
 * {@code scripts/profile.sh} runs it; {@code docs/performance.md} has what it found.
 */
public final class ProfileUploads {

    /** Strategy 3's code on a virtual thread per upload ({@link VirtualThreadUploads}). */
    static final String VIRTUAL_POOL = "COMPLETABLE_FUTURE_VIRTUAL";
    /** The CRT Transfer Manager with as many uploads started at once as the library has in flight in scenario B. */
    static final String BOUNDED_TM_CRT = "TRANSFER_MANAGER_CRT_BOUNDED";
    /** {@link CompletableFutureUploads#fixedPool}: a fixed pool of the scenario's concurrency on the blocking client. */
    static final String FIXED_POOL = "COMPLETABLE_FUTURE_FIXED";
    /** {@link AsyncPoolUploads}: the same on the non-blocking client. */
    static final String ASYNC_POOL = "COMPLETABLE_FUTURE_ASYNC";
    /** A prefix: the strategy named after it, given every batch's files largest first. */
    static final String LARGEST_FIRST = "LARGEST_FIRST+";

    private ProfileUploads() {
    }

    /**
     * {@code named}: the strategy's name, and perhaps the {@link ExecutorType} to run it on instead of its own; either
     * may end in {@code @N}: a library strategy with N uploads in flight instead of scenario B's.
     */
    static Strategy open(String[] named, S3Target target, Scale scale) {
        return open(named, target, scale, Scenario.B);
    }

    /** As {@link #open(String[], S3Target, Scale)}, set up as {@code scenario} sets strategies up. */
    static Strategy open(String[] named, S3Target target, Scale scale, Scenario scenario) {
        if (named[0].startsWith(LARGEST_FIRST)) {
            // LARGEST_FIRST+NAME: the strategy given the batch's files largest first, to see what order costs.
            String[] bare = named.clone();
            bare[0] = bare[0].substring(LARGEST_FIRST.length());
            Strategy strategy = open(bare, target, scale, scenario);
            return new Strategy() {
                @Override
                public void upload(List<Item> items) throws Exception {
                    strategy.upload(items.stream().sorted(java.util.Comparator.comparingLong(Item::size).reversed())
                            .toList());
                }

                @Override
                public void close() {
                    strategy.close();
                }
            };
        }
        int at = named[named.length - 1].indexOf('@');
        if (at >= 0) {
            // NAME@N: a library strategy with N uploads in flight instead of scenario B's.
            int inFlight = Integer.parseInt(named[named.length - 1].substring(at + 1));
            String[] bare = named.clone();
            bare[bare.length - 1] = bare[bare.length - 1].substring(0, at);
            StrategyKind kind = StrategyKind.valueOf(bare[0]);
            Setup setup = setupOf(bare, kind, scale, target, scenario);
            return kind.open(target.backend(), new Setup(setup.bucket(), inFlight, setup.connections(),
                    setup.uploader().toBuilder().maxConcurrentUploads(inFlight).maxConcurrentUploadsPerBatch(inFlight)
                            .build(), setup.options()));
        }
        if (named[0].equals(FIXED_POOL)) {
            return CompletableFutureUploads.fixedPool(target.backend(),
                    scenario.setup(StrategyKind.COMPLETABLE_FUTURE, scale, target.bucketName()));
        }
        if (named[0].equals(ASYNC_POOL)) {
            return new AsyncPoolUploads(target.backend(),
                    scenario.setup(StrategyKind.LIBRARY_NON_BLOCKING, scale, target.bucketName()));
        }
        if (named[0].equals(BOUNDED_TM_CRT)) {
            Setup setup = Scenario.B.setup(StrategyKind.TRANSFER_MANAGER_CRT, scale, target.bucketName());
            return new TransferManagerUploads(target.backend().crtClient(setup.connections()), setup,
                    setup.concurrency());
        }
        if (named[0].equals(VIRTUAL_POOL)) {
            return new VirtualThreadUploads(target.backend(),
                    Scenario.B.setup(StrategyKind.COMPLETABLE_FUTURE, scale, target.bucketName()));
        }
        StrategyKind kind = StrategyKind.valueOf(named[0]);
        return kind.open(target.backend(), setupOf(named, kind, scale, target, scenario));
    }

    private static Setup setupOf(String[] named, StrategyKind kind, Scale scale, S3Target target,
            Scenario scenario) {
        Setup setup = scenario.setup(kind, scale, target.bucketName());
        if (named.length > 1) {
            setup = new Setup(setup.bucket(), setup.concurrency(), setup.connections(), setup.uploader().toBuilder()
                    .executorType(ExecutorType.valueOf(named[1])).build(), setup.options());
        }
        return setup;
    }

    /**
     * Profiles one strategy.
     *
     * @param args the strategy (a {@link StrategyKind} name; or {@value #VIRTUAL_POOL}; or {@value #BOUNDED_TM_CRT}; or
     *     a library strategy's name,
     *     a colon and an {@link ExecutorType} to run it on instead of its own, as in
     *     {@code LIBRARY_NON_BLOCKING_CRT:PLATFORM}), the uploads to warm up with (default 20,000), the measured runs
     *     of each kind of sample (default 3)
     * @throws Exception when the strategy or the profiler fails
     */
    public static void main(String[] args) throws Exception {
        String[] named = args[0].split(":", 2);
        String name = String.join("_", named);
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Path out = Path.of("benchmarks", "target", "profile");
        String event0 = System.getProperty("profile.events", "cpu,alloc");
        Files.createDirectories(out);
        Scale scale = Scale.FULL;
        // -Dprofile.scenario=M: scenario M's batch (mixed sizes), its strategies set up as M sets them up.
        Scenario scenario = Scenario.valueOf(System.getProperty("profile.scenario", "B"));
        List<Item> files = scenario == Scenario.M ? ScenarioM.files()
                : DataFiles.items(DataFiles.ensure("b", scale.bFiles(), Scenario.B_SIZE));
        AsyncProfiler profiler = AsyncProfiler.getInstance();
        try (S3Target target = S3Target.behindLatency("profile", scenario.configuredLatency(scale));
                Strategy strategy = open(named, target, scale, scenario)) {
            int rounds = Runs.warmUpUntilQuiet(strategy, w -> Runs.keyed(files, "warm-" + w), warmUp, java.time.Duration
                    .ofMinutes(3), target::empty);
            System.out.printf(Locale.ROOT, "%s: warmed up with %d uploads%n", name, rounds * files.size());
            for (String event : event0.split(",")) {
                Path stacks = out.resolve(name.toLowerCase(Locale.ROOT) + "-" + event + ".collapsed");
                Meter meter = new Meter();
                long cpu = 0;
                long jit = 0;
                long allocated = 0;
                int uploads = 0;
                for (int run = 1; run <= runs; run++) {
                    List<Item> items = Runs.keyed(files, event + "-" + run);
                    meter.start();
                    // Only the batch is sampled: not the meter's collections, not the clean-up of the bucket.
                    profiler.execute(run == 1 ? "start,event=" + event + (event.equals("cpu") ? ",interval=1ms"
                            : event.equals("wall") ? ",interval=5ms" : ",total") + System.getProperty("profile.options", "") : "resume");
                    long start = System.nanoTime();
                    strategy.upload(items);
                    long took = System.nanoTime() - start;
                    profiler.execute("stop");
                    Meter.Usage usage = meter.stop();
                    cpu += usage.cpuNanos();
                    jit += usage.jitCpuNanos();
                    allocated += usage.allocatedBytes();
                    uploads += items.size();
                    System.out.printf(Locale.ROOT, "%s %s run %d: %.2f s, CPU %.0f us per upload (the JIT's %.0f ms)%n",
                            name, event, run, took / 1e9, (usage.cpuNanos() - usage.jitCpuNanos()) / 1e3
                                    / items.size(), usage.jitCpuNanos() / 1e6);
                    target.empty();
                }
                profiler.execute("dump,collapsed,file=" + stacks);
                Breakdown breakdown = Breakdown.read(stacks);
                System.out.println(!event.equals("alloc")
                        ? breakdown.table("CPU per upload, us", (cpu - jit) / 1e3 / uploads)
                        : breakdown.table("allocated per upload, KiB", allocated / 1024.0 / uploads));
            }
        }
        System.exit(0);
    }

}
