package io.github.boundedupload.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The rest of the application, in scenario E: every 10 ms an unrelated task (a 1 ms blocking call, such as a cache
 * lookup) is submitted to the JVM-wide {@link ForkJoinPool#commonPool() common pool}, the executor behind
 * {@code parallelStream()} and behind every library that does not bring its own. Its latency runs from the moment it
 * was due (so that a clock thread delayed by a busy machine is counted too) to its end; a task not finished when
 * the probe stops counts with the time it has waited so far. Changes when scenario E's unrelated task, or how its
 * latency is counted, changes.
 */
final class Probe {

    /** Percentiles of one probe run, in milliseconds. */
    record Latencies(double p50, double p99, double max, int count, int unfinished) {
    }

    static final Duration PERIOD = Duration.ofMillis(10);
    static final Duration WORK = Duration.ofMillis(1);

    private final ExecutorService shared = ForkJoinPool.commonPool();
    private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "probe-clock");
        thread.setDaemon(true);
        return thread;
    });
    /** One submitted task: when it was due, and when it finished (nanoTime). */
    private record Task(long due, CompletableFuture<Long> finished) {
    }

    private final List<Task> tasks = new ArrayList<>(); // added by the clock thread only
    private long start;

    /** Starts submitting the task every {@link #PERIOD}. */
    void start() {
        start = System.nanoTime();
        clock.scheduleAtFixedRate(this::submit, 0, PERIOD.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void submit() {
        Task task = new Task(start + tasks.size() * PERIOD.toNanos(), new CompletableFuture<>());
        tasks.add(task);
        shared.execute(() -> {
            try {
                Thread.sleep(WORK.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            task.finished().complete(System.nanoTime());
        });
    }

    /**
     * Stops submitting and returns the latencies of everything submitted: waits for the submitted tasks to finish,
     * at most {@link #PERIOD} (the last ones were just submitted); those still waiting then count as unfinished,
     * with the time they have waited so far.
     */
    Latencies stop() {
        clock.shutdown();
        try {
            clock.awaitTermination(1, TimeUnit.SECONDS);
            CompletableFuture.allOf(tasks.stream().map(Task::finished).toArray(CompletableFuture[]::new))
                    .get(PERIOD.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException | ExecutionException e) {
            // some tasks are still waiting for a thread of the shared pool: they count as unfinished
        }
        long now = System.nanoTime();
        double[] millis = new double[tasks.size()];
        int unfinished = 0;
        for (int i = 0; i < millis.length; i++) {
            Task task = tasks.get(i);
            Long finished = task.finished().getNow(null);
            if (finished == null) {
                unfinished++;
            }
            millis[i] = ((finished != null ? finished : now) - task.due()) / 1e6;
        }
        Arrays.sort(millis);
        return new Latencies(Stats.percentile(millis, 50), Stats.percentile(millis, 99),
                millis.length == 0 ? 0 : millis[millis.length - 1], millis.length, unfinished);
    }
}
