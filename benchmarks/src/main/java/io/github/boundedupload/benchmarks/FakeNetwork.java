package io.github.boundedupload.benchmarks;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What the in-process fakes share: the time every request takes (changeable, so that warm-up runs fast), one timer
 * thread that answers non-blocking requests when their time is up (the network, not a thread per request), and real
 * clients that are never called but give the fakes their configuration and utilities.
 */
final class FakeNetwork implements AutoCloseable {

    private static final URI NOWHERE = URI.create("http://127.0.0.1:9");

    private volatile Duration latency;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "fake-s3-network");
        thread.setDaemon(true);
        return thread;
    });
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

    /** Runs {@code answer} on the network thread once a request's time is up. */
    void answerLater(Runnable answer) {
        timer.schedule(answer, latency.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void close() {
        timer.shutdownNow();
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
