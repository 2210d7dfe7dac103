package io.github.boundedupload.benchmarks;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Strategy 3, source 000's final design: {@code CompletableFuture.supplyAsync} on a dedicated pool of core 10, max
 * 40 threads, a queue of 50 and {@code CallerRunsPolicy}, then join all. The pool is the source's, whatever the
 * scenario's concurrency: that is the configuration being compared ({@link #fixedPool} is scenario M's plain pool of
 * its own concurrency). Changes when strategy 3's pool, or how it submits and joins the uploads, changes.
 */
final class CompletableFutureUploads implements Strategy {

    static final int CORE = 10;
    static final int MAX = 40;
    static final int QUEUE = 50;

    private final S3Client client;
    private final String bucket;
    private final ExecutorService pool;

    CompletableFutureUploads(Backend backend, Setup setup) {
        this(backend, setup, new ThreadPoolExecutor(CORE, MAX, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
                threads("file-upload-"), new ThreadPoolExecutor.CallerRunsPolicy()));
    }

    private CompletableFutureUploads(Backend backend, Setup setup, ExecutorService pool) {
        this.client = backend.syncClient(setup.connections());
        this.bucket = setup.bucket();
        this.pool = pool;
    }

    /**
     * The plainest pool a user writes for scenario M: the same uploads on a fixed pool of the scenario's concurrency,
     * on the same blocking client (the same connections) as this library's blocking strategies; every file in one
     * PutObject, in the batch's order. The anchor of the blocking strategies in scenario M's pairs
     * ({@link PairUploads}); not one of the nine strategies.
     */
    static CompletableFutureUploads fixedPool(Backend backend, Setup setup) {
        return new CompletableFutureUploads(backend, setup,
                Executors.newFixedThreadPool(setup.concurrency(), threads("pool-upload-")));
    }

    private static ThreadFactory threads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return task -> new Thread(task, prefix + count.incrementAndGet());
    }

    /**
     * Tasks of a batch of {@code n} running at once: the core threads; once the queue is full, up to the maximum;
     * beyond that the caller runs one too.
     */
    static int inFlight(int n) {
        if (n <= CORE + QUEUE) {
            return Math.min(n, CORE);
        }
        return Math.min(n - QUEUE, MAX) + (n > MAX + QUEUE ? 1 : 0);
    }

    @Override
    public void upload(List<Item> items) {
        CompletableFuture.allOf(items.stream()
                .map(item -> CompletableFuture.supplyAsync(
                        () -> client.putObject(item.putRequest(bucket), item.requestBody()), pool))
                .toArray(CompletableFuture[]::new)).join();
    }

    @Override
    public void close() {
        pool.shutdown();
        try {
            pool.awaitTermination(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close();
    }
}
