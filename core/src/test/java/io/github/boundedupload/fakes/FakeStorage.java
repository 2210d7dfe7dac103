package io.github.boundedupload.fakes;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.MDC;

/**
 * An in-memory blocking storage that records what the uploader does to it: how many uploads and bytes were in flight
 * at most (overall and per batch, by the metadata entry {@code batch}), which threads and MDC it ran with, and what
 * was deleted. What each upload does (wait on a gate, fail, simulate latency) is set by {@link #behaviour}.
 */
public final class FakeStorage implements FileUploader {

    /** What an upload does before it stores its bytes. */
    @FunctionalInterface
    public interface Behaviour {
        void before(UploadRequest request) throws Exception;
    }

    public final Map<String, byte[]> objects = new ConcurrentHashMap<>();
    public final List<String> deleted = new CopyOnWriteArrayList<>();
    public final List<String> started = new CopyOnWriteArrayList<>();
    public final List<Thread> threads = new CopyOnWriteArrayList<>();
    public final Map<String, Thread> threadByKey = new ConcurrentHashMap<>();
    public final Map<String, Map<String, String>> mdcByKey = new ConcurrentHashMap<>();
    public final List<String> interrupted = new CopyOnWriteArrayList<>();
    public final AtomicInteger inFlight = new AtomicInteger();
    public final AtomicInteger maxInFlight = new AtomicInteger();
    public final AtomicLong bytesInFlight = new AtomicLong();
    public final AtomicLong maxBytesInFlight = new AtomicLong();
    private final Map<String, AtomicInteger> inFlightByBatch = new ConcurrentHashMap<>();
    public final Map<String, AtomicInteger> maxInFlightByBatch = new ConcurrentHashMap<>();
    public volatile Behaviour behaviour = request -> { };
    public volatile Behaviour deleteBehaviour = request -> { };

    @Override
    public StoredObject upload(UploadRequest request) throws IOException {
        long length = request.contentLength().orElse(0);
        String batch = request.metadata().getOrDefault("batch", "");
        started.add(request.key());
        threads.add(Thread.currentThread());
        threadByKey.put(request.key(), Thread.currentThread());
        Map<String, String> context = MDC.getCopyOfContextMap();
        mdcByKey.put(request.key(), context == null ? Map.of() : context);
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        maxBytesInFlight.accumulateAndGet(bytesInFlight.addAndGet(length), Math::max);
        AtomicInteger batchMax = maxInFlightByBatch.computeIfAbsent(batch, b -> new AtomicInteger());
        batchMax.accumulateAndGet(inFlightByBatch.computeIfAbsent(batch, b -> new AtomicInteger()).incrementAndGet(),
                Math::max);
        try {
            behaviour.before(request);
            byte[] bytes;
            try (InputStream in = request.openStream()) {
                bytes = in.readAllBytes();
            }
            objects.put(request.key(), bytes);
            return StoredObject.builder(request.key(), bytes.length).eTag("\"" + bytes.length + "\"").build();
        } catch (InterruptedException e) {
            interrupted.add(request.key());
            throw new java.io.InterruptedIOException("interrupted");
        } catch (IOException | RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) {
                interrupted.add(request.key());
            }
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        } finally {
            inFlight.decrementAndGet();
            bytesInFlight.addAndGet(-length);
            inFlightByBatch.get(batch).decrementAndGet();
        }
    }

    @Override
    public void delete(String key) throws IOException {
        try {
            deleteBehaviour.before(UploadRequest.of(key, io.github.boundedupload.Attachment.of("x", new byte[0])));
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
        deleted.add(key);
        objects.remove(key);
    }

    /** The most uploads of one batch (metadata {@code batch}) that were in flight at once. */
    public int maxInFlight(String batch) {
        AtomicInteger max = maxInFlightByBatch.get(batch);
        return max == null ? 0 : max.get();
    }
}
