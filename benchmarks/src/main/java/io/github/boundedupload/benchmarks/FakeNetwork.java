package io.github.boundedupload.benchmarks;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What the in-process fakes share: the time every request takes (changeable, so that warm-up runs fast), one timer
 * thread that answers non-blocking requests when their time is up (the network, not a thread per request) on a pool
 * like the SDK's response threads, and real
 * clients that are never called but give the fakes their configuration and utilities. Changes when what the in-process
 * fakes share, or how the fake network answers, changes.
 */
final class FakeNetwork implements AutoCloseable {

    private static final URI NOWHERE = URI.create("http://127.0.0.1:9");

    private volatile Duration latency;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "fake-s3-network");
        thread.setDaemon(true);
        return thread;
    });
    /**
     * Where answers are completed: like the SDK's default future-completion executor ({@code sdk-async-response},
     * SDK 2.57: core max(8, cores), max max(64, 2 x cores), a queue of 1,000), so that what runs when a response
     * arrives is spread over threads as it is with the real client, not queued behind one timer thread.
     */
    private final ThreadPoolExecutor responses = responsePool();
    final S3Client syncShape = S3Client.builder().region(Region.US_EAST_1).endpointOverride(NOWHERE)
            .credentialsProvider(AnonymousCredentialsProvider.create()).forcePathStyle(true).build();
    final S3AsyncClient asyncShape = S3AsyncClient.builder().region(Region.US_EAST_1).endpointOverride(NOWHERE)
            .credentialsProvider(AnonymousCredentialsProvider.create()).forcePathStyle(true).build();

    FakeNetwork(Duration latency) {
        this.latency = latency;
    }

    Duration latency() {
        return latency;
    }

    void latency(Duration latency) {
        this.latency = latency;
    }

    private static ThreadPoolExecutor responsePool() {
        int cores = Runtime.getRuntime().availableProcessors();
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(Math.max(8, cores), Math.max(64, 2 * cores), 10,
                TimeUnit.SECONDS, new LinkedBlockingQueue<>(1_000), task -> {
                    Thread thread = new Thread(task, "fake-s3-response-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Runs {@code answer} on a response thread once a request's time is up. */
    void answerLater(Runnable answer) {
        timer.schedule(() -> responses.execute(answer), latency.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void close() {
        timer.shutdownNow();
        responses.shutdownNow();
        syncShape.close();
        asyncShape.close();
    }

    /**
     * A client's connection pool: at most {@code size} requests at once, the others wait in FIFO order (as in the
     * SDK's HTTP clients, without their acquisition timeout).
     */
    static final class Connections {
        private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
        private int free;

        Connections(int size) {
            this.free = size;
        }

        /** Runs {@code onConnection} (now, or later on the thread that releases one) once a connection is free. */
        void acquire(Runnable onConnection) {
            synchronized (this) {
                if (free == 0) {
                    waiting.addLast(onConnection);
                    return;
                }
                free--;
            }
            onConnection.run();
        }

        /** Blocks the calling thread until a connection is free. */
        void acquireBlocking() {
            CompletableFuture<Void> acquired = new CompletableFuture<>();
            acquire(() -> acquired.complete(null));
            acquired.join();
        }

        void release() {
            Runnable next;
            synchronized (this) {
                next = waiting.pollFirst();
                if (next == null) {
                    free++;
                    return;
                }
            }
            next.run();
        }
    }
}
