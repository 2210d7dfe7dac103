package io.github.boundedupload.benchmarks;

import io.github.boundedupload.support.Threads;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Strategy 3, source 000's final design: {@code CompletableFuture.supplyAsync} on a dedicated pool of core 10, max
 * 40 threads, a queue of 50 and {@code CallerRunsPolicy}, then join all. The pool is the source's, whatever the
 * scenario's concurrency: that is the configuration being compared. {@link #onVirtualThreads} is the same code on a
 * virtual thread per upload, at most the scenario's concurrency at once: an anchor for {@code scripts/profile.sh}
 * only, which tells the cost of virtual threads on a blocking client from the cost of this library on them. Changes
 * when strategy 3's pool, or how it submits and joins the uploads, changes.
 */
final class CompletableFutureUploads implements Strategy {

    static final int CORE = 10;
    static final int MAX = 40;
    static final int QUEUE = 50;

    private final S3Client client;
    private final String bucket;
    private final Executor executor;
    /** Source 000's pool; none on virtual threads. */
    private final @Nullable ThreadPoolExecutor pool;
    /** On virtual threads: the uploads in flight at most (a thread per upload has no bound of its own). */
    private final Semaphore permits;

    CompletableFutureUploads(Backend backend, Setup setup) {
        this.client = backend.syncClient(setup.connections());
        this.bucket = setup.bucket();
        AtomicInteger count = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(CORE, MAX, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
                task -> new Thread(task, "file-upload-" + count.incrementAndGet()),
                new ThreadPoolExecutor.CallerRunsPolicy());
        this.executor = pool;
        this.permits = new Semaphore(Integer.MAX_VALUE);
    }

    private CompletableFutureUploads(Backend backend, Setup setup, int inFlight) {
        this.client = backend.syncClient(setup.connections());
        this.bucket = setup.bucket();
        ThreadFactory virtual = Threads.virtual("file-upload-").orElseThrow();
        this.executor = task -> virtual.newThread(task).start();
        this.pool = null;
        this.permits = new Semaphore(inFlight);
    }

    /** The same uploads on a virtual thread each, at most the scenario's connections at once. */
    static CompletableFutureUploads onVirtualThreads(Backend backend, Setup setup) {
        return new CompletableFutureUploads(backend, setup, setup.connections());
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
                .map(item -> {
                    permits.acquireUninterruptibly();
                    return CompletableFuture.supplyAsync(
                            () -> client.putObject(item.putRequest(bucket), item.requestBody()), executor)
                            .whenComplete((response, failure) -> permits.release());
                })
                .toArray(CompletableFuture[]::new)).join();
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdown();
            try {
                pool.awaitTermination(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        client.close();
    }
}
