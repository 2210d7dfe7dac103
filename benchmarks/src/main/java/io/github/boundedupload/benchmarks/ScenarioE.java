package io.github.boundedupload.benchmarks;

import io.github.boundedupload.testsupport.TestData;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;

/**
 * Source 004, isolation. Changes when what scenario E uploads, what runs beside it or what it measures changes.
 * A 14,000-upload batch (30 ms each, in process) runs while
 *
 * <ul>
 *   <li>the {@link Probe} submits an unrelated task to the JVM's common pool every 10 ms (its latency is compared
 *       with a run of the probe alone, just before, in the same JVM), and</li>
 *   <li>another request uploads a batch of 1 through the same strategy instance, 2 s into the big batch (its time is
 *       compared with the median of 10 single uploads, alone, just before).</li>
 * </ul>
 *
 * In process, because what is measured is who waits for whose threads: LocalStack would add its own CPU use on the
 * same two cores, and 14,000 requests through it would measure the Python server. One run per JVM: a strategy still
 * busy when the window ends (the sequential loop needs 14,000 x 30 ms = 7 minutes) is reported as stopped, and its
 * JVM ends with it. Warm-up: as in scenario D, batches of 2,000 at 1 ms per upload ({@link ScenarioD#warmUpUploads}).
 */
final class ScenarioE {

    private ScenarioE() {
    }

    static void run(StrategyKind kind, Scale scale, int run) throws Exception {
        List<Item> batch = IntStream.range(0, scale.eUploads())
                .mapToObj(i -> Item.ofBytes("notification-" + i + ".json", "", TestData.bytes(i, Scenario.SMALL_SIZE)))
                .toList();
        List<Item> one = Runs.keyed(List.of(Item.ofBytes("receipt.json", "", TestData.bytes(-1, Scenario.SMALL_SIZE))),
                "single");
        Duration oneFileAfter = scale.eWindow().dividedBy(10);
        try (FakeNetwork network = new FakeNetwork(Duration.ofMillis(1));
                Strategy strategy = kind.open(Backend.fake(network), Scenario.E.setup(kind, scale, "bench-e"))) {
            List<Item> warm = batch.subList(0, Math.min(2_000, batch.size()));
            Runs.warmUp(strategy, round -> Runs.keyed(warm, "warm-" + round), ScenarioD.warmUpUploads(scale),
                    ScenarioD.warmUpTime(scale), () -> { });
            network.latency(Scenario.E_LATENCY);
            double[] singles = new double[10];
            for (int i = 0; i < singles.length; i++) {
                singles[i] = millis(() -> strategy.upload(one));
            }

            Probe alone = new Probe();
            alone.start();
            Thread.sleep(scale.eBaseline().toMillis());
            Probe.Latencies baseline = alone.stop();

            Meter meter = new Meter();
            Probe probe = new Probe();
            meter.start();
            probe.start();
            long start = System.nanoTime();
            CompletableFuture<Long> big = request("request-big", () -> strategy.upload(Runs.keyed(batch, "run")));
            Thread.sleep(oneFileAfter.toMillis());
            CompletableFuture<Long> small = request("request-small", () -> strategy.upload(one));
            long deadline = start + scale.eWindow().toNanos();
            Long makespan = await(big, deadline);
            Long oneFile = await(small, deadline);
            Probe.Latencies during = probe.stop();
            long watched = System.nanoTime() - start;
            Meter.Usage usage = meter.stop();

            Map<String, Object> result = Runs.result(Scenario.E, kind, run, usage);
            result.put("stopped", makespan == null);
            result.put("makespanMs", (makespan != null ? makespan : watched) / 1e6);
            result.put("singleMs", Stats.median(singles));
            result.put("oneFileStopped", oneFile == null);
            result.put("oneFileMs", (oneFile != null ? oneFile : watched - oneFileAfter.toNanos()) / 1e6);
            result.put("baseP50Ms", baseline.p50());
            result.put("baseP99Ms", baseline.p99());
            result.put("probeP50Ms", during.p50());
            result.put("probeP99Ms", during.p99());
            result.put("probeMaxMs", during.max());
            result.put("probes", during.count());
            result.put("probesUnfinished", during.unfinished());
            System.out.println(Line.format(result));
            if (makespan == null || oneFile == null) {
                System.out.flush();
                Runtime.getRuntime().halt(0); // the strategy cannot be stopped; nothing else runs in this JVM
            }
        }
    }

    /** An upload of another request: on a thread of its own; completes with how long it took, in nanoseconds. */
    private static CompletableFuture<Long> request(String name, ThrowingRunnable upload) {
        CompletableFuture<Long> took = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            long start = System.nanoTime();
            try {
                upload.run();
                took.complete(System.nanoTime() - start);
            } catch (Throwable e) {
                took.completeExceptionally(e);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return took;
    }

    /** The request's time, or null when it has not finished by the deadline. */
    private static Long await(CompletableFuture<Long> request, long deadline) throws Exception {
        try {
            return request.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return null;
        }
    }

    private static double millis(ThrowingRunnable action) throws Exception {
        long start = System.nanoTime();
        action.run();
        return (System.nanoTime() - start) / 1e6;
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
