package io.github.boundedupload.fakes;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.UploadRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-memory non-blocking storage: every upload returns a pending future, and the test completes them
 * ({@link #completeAll()}), so uploads stay in flight without holding any thread.
 */
public final class FakeAsyncStorage implements AsyncFileUploader {

    public final Map<String, byte[]> objects = new ConcurrentHashMap<>();
    public final List<String> deleted = new CopyOnWriteArrayList<>();
    public final List<String> cancelled = new CopyOnWriteArrayList<>();
    public final AtomicInteger inFlight = new AtomicInteger();
    public final AtomicInteger maxInFlight = new AtomicInteger();
    private final Queue<Runnable> pending = new ConcurrentLinkedQueue<>();

    @Override
    public CompletableFuture<StoredObject> upload(UploadRequest request) {
        byte[] bytes;
        try (InputStream in = request.openStream()) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        CompletableFuture<StoredObject> future = new CompletableFuture<>();
        // As the SPI asks: stop when the uploader gives up on the upload (this fake has nothing to clean up). Recorded
        // before the future completes: the uploader's own callbacks on it run first, and may end the batch.
        request.cancellation().thenRun(() -> {
            if (!future.isDone()) {
                inFlight.decrementAndGet();
                cancelled.add(request.key());
                future.cancel(false);
            }
        });
        pending.add(() -> {
            if (!future.isDone()) {
                objects.put(request.key(), bytes);
                // Counted out before completing: the uploader may start the next upload inside complete().
                inFlight.decrementAndGet();
                future.complete(StoredObject.builder(request.key(), bytes.length).build());
            }
        });
        return future;
    }

    @Override
    public CompletableFuture<Void> delete(String key) {
        deleted.add(key);
        objects.remove(key);
        return CompletableFuture.completedFuture(null);
    }

    /** Completes every upload started so far; returns how many. */
    public int completeAll() {
        int count = 0;
        Runnable next;
        while ((next = pending.poll()) != null) {
            next.run();
            count++;
        }
        return count;
    }
}
