package io.github.boundedupload.internal;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.UploaderStats;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * A blocking storage for the model-checked tests that answers when the test says so: an upload of a held batch (a key
 * {@code <batch>-<i>}) waits until the test {@linkplain #answer answers} one, and fails if its key was
 * {@linkplain #fail told to}; others answer at once. It keeps what it stored, and checks the uploader's bounds each
 * time an upload starts: uploads in flight (its own count and the uploader's), bytes in flight, and queue places.
 * Interruptible, as real I/O that the uploader stops is. Only monitors and {@code java.util.concurrent}, which the
 * checker controls.
 */
final class HeldStorage implements FileUploader {

    private final Set<String> held;
    /** Answers the test gave and no held upload took yet; guarded by this. */
    private int answers;
    private final Set<String> failing = ConcurrentHashMap.newKeySet();
    /** What it holds now: key to length. */
    final Map<String, Long> objects = new ConcurrentHashMap<>();
    /** The thread each upload ran on, by key. */
    final Map<String, Thread> ranOn = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger uploads = new AtomicInteger();
    private volatile @Nullable ConcurrentAttachmentUploader uploader;

    /** Uploads of the batches named here wait for {@link #answer}; others are answered at once. */
    HeldStorage(String... heldBatches) {
        this.held = Set.of(heldBatches);
    }

    /** The uploader whose bounds each upload checks. */
    void watch(ConcurrentAttachmentUploader watched) {
        this.uploader = watched;
    }

    /** Lets {@code count} held uploads (the next to ask, or those asking already) answer. */
    synchronized void answer(int count) {
        answers += count;
        notifyAll();
    }

    /**
     * A monitor, not a semaphore: the checker sees a thread waiting here as blocked, where a semaphore's brief spin
     * before it parks would read as a loop that never ends.
     */
    private synchronized void awaitAnswer() throws InterruptedException {
        while (answers == 0) {
            wait();
        }
        answers--;
    }

    /** The upload of {@code key} fails when it answers. */
    void fail(String key) {
        failing.add(key);
    }

    /** Uploads that reached the storage. */
    int uploads() {
        return uploads.get();
    }

    @Override
    public StoredObject upload(UploadRequest request) throws IOException {
        int running = inFlight.incrementAndGet();
        uploads.incrementAndGet();
        try {
            checkBounds(running);
            String key = request.key();
            ranOn.put(key, Thread.currentThread());
            if (held.contains(key.substring(0, key.lastIndexOf('-')))) {
                awaitAnswer();
            }
            if (failing.contains(request.key())) {
                throw new IOException("refused: " + request.key());
            }
            long length;
            try (InputStream in = request.openStream()) {
                length = in.readAllBytes().length;
            }
            objects.put(request.key(), length);
            return StoredObject.builder(request.key(), length).build();
        } catch (InterruptedException e) {
            throw new InterruptedIOException("stopped: " + request.key());
        } finally {
            inFlight.decrementAndGet();
        }
    }

    @Override
    public void delete(String key) {
        objects.remove(key);
    }

    private void checkBounds(int running) {
        ConcurrentAttachmentUploader watched = uploader;
        if (watched == null) {
            return;
        }
        UploaderConfig config = watched.config();
        UploaderStats stats = watched.stats();
        Check.that(running <= config.maxConcurrentUploads(),
                () -> running + " uploads in the storage, more than " + config.maxConcurrentUploads());
        Check.that(stats.inFlightUploads() <= config.maxConcurrentUploads(), () -> "uploads in flight: " + stats);
        Check.that(stats.bytesInFlight() <= config.maxBytesInFlight(), () -> "bytes in flight: " + stats);
        Check.that(stats.queuedUploads() >= 0 && stats.queuedUploads() <= config.maxQueuedUploads(),
                () -> "queue places: " + stats);
    }

    @Override
    public String toString() {
        return "held storage";
    }
}
