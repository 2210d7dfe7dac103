package io.github.boundedupload.internal;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.UploaderStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * One model-checked run: an uploader on a {@link HeldStorage}, the test's {@link TestClock} and a thread per task
 * ({@link Forks}), and the batches submitted to it. {@link #close()} closes it and checks how everything ended: every
 * batch's future completed (a batch that never does is a hang the checker reports), each attachment of a batch that ran
 * stored or failed once settled, the storage holding exactly what the results say is stored, and nothing left in
 * flight or queued.
 */
final class ModelRun {

    final HeldStorage storage;
    final TestClock clock = new TestClock();
    final Forks forks;
    final DefaultConcurrentAttachmentUploader uploader;
    private final List<Submitted> batches = new CopyOnWriteArrayList<>();

    /** A batch and its future. */
    private static final class Submitted {
        final String name;
        final int size;
        final CompletableFuture<BatchResult> future;

        Submitted(String name, int size, CompletableFuture<BatchResult> future) {
            this.name = name;
            this.size = size;
            this.future = future;
        }
    }

    ModelRun(UploaderConfig config, Forks forks, List<String> heldBatches) {
        this.forks = forks;
        forks.reset();
        storage = new HeldStorage(heldBatches.toArray(new String[0]));
        uploader = DefaultConcurrentAttachmentUploader.create(storage, config, clock, clock.timer());
        storage.watch(uploader);
        clock.wakes(uploader.steps());
    }

    /**
     * {@code count} attachments of 16 bytes, named and keyed {@code <batch>-<i>} (no metadata: the uploader checks its
     * names with a regular expression, whose loops the checker would take for spinning).
     */
    static List<Attachment> batch(String name, int count) {
        List<Attachment> attachments = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            attachments.add(Attachment.builder(name + "-" + i, AttachmentContent.ofBytes(new byte[16])).build());
        }
        return attachments;
    }

    /** Submits a batch ({@code uploadAllAsync}); {@link #close()} checks how it ended. */
    CompletableFuture<BatchResult> submit(String name, int count) {
        CompletableFuture<BatchResult> future = uploader.uploadAllAsync(batch(name, count));
        batches.add(new Submitted(name, count, future));
        return future;
    }

    /**
     * Waits for every thread of the run to end: the uploads the storage was told to answer, and what they start. Then
     * every batch whose uploads were answered has completed: nothing else would complete it. Waiting for threads, not
     * for a future: the checker sees a thread waiting for a future as spinning, and a long loop elsewhere meanwhile (a
     * message built character by character) as a livelock.
     */
    void awaitThreads() {
        forks.joinAll();
    }

    /** The batch's future has completed, every attachment stored. */
    static BatchResult allStored(CompletableFuture<BatchResult> batch) {
        Check.that(batch.isDone(), () -> "the batch never completed");
        BatchResult result = batch.join();
        Check.that(result.allStored(), () -> "not all stored: " + result);
        return result;
    }

    /** Why the batch's future failed; {@code null} when it completed normally. */
    static @Nullable Throwable failure(CompletableFuture<BatchResult> batch) {
        Check.that(batch.isDone(), () -> "the batch never completed");
        try {
            batch.join();
            return null;
        } catch (CompletionException e) {
            return e.getCause();
        } catch (CancellationException e) {
            return e;
        }
    }

    /** Closes the uploader, waits for every thread of the run, and checks how everything ended. */
    void close() {
        forks.joinAll();
        uploader.close();
        forks.joinAll();
        UploaderStats stats = uploader.stats();
        Check.that(stats.inFlightUploads() == 0 && stats.queuedUploads() == 0 && stats.bytesInFlight() == 0
                && stats.activeBatches() == 0 && stats.pendingRollbacks() == 0, () -> "left behind after close: " + stats);
        int stored = 0;
        for (Submitted batch : batches) {
            stored += checkEnded(batch);
        }
        int reported = stored;
        Check.that(storage.objects.size() == reported, () -> "the storage holds " + storage.objects.keySet()
                + ", not only what the results say is stored");
    }

    /** How many of the batch's attachments are stored, checked against the storage. */
    private int checkEnded(Submitted batch) {
        Check.that(batch.future.isDone(), () -> batch.name + " never completed");
        BatchResult finished = null;
        Throwable failure = failure(batch.future);
        if (failure == null) {
            finished = batch.future.join();
        } else if (failure instanceof BatchFailedException) {
            finished = ((BatchFailedException) failure).result();
        }
        if (finished == null) { // refused, or its future cancelled: nothing of it may remain
            for (int i = 0; i < batch.size; i++) {
                String key = batch.name + "-" + i;
                Check.that(!storage.objects.containsKey(key), () -> key + " stored by a batch that failed with "
                        + failure);
            }
            return 0;
        }
        BatchResult ended = finished;
        Check.that(ended.size() == batch.size, () -> batch.name + " has " + ended.size() + " results");
        BatchResult settled = ended.settled().toCompletableFuture().join();
        int stored = 0;
        for (UploadResult result : settled.results()) {
            Status status = result.status();
            Check.that(status != Status.DELETING && status != Status.POSSIBLY_STORED,
                    () -> "neither stored nor failed once settled: " + result);
            Check.that(status == Status.DELETED ? result.storedObject().isPresent()
                    : status == Status.STORED || result.failure().isPresent(), () -> "failed without a reason: " + result);
            Check.that(storage.objects.containsKey(result.key()) == (status == Status.STORED),
                    () -> result + ", and the storage " + (storage.objects.containsKey(result.key()) ? "holds it" : "does not"));
            stored += status == Status.STORED ? 1 : 0;
        }
        return stored;
    }

    /** Whether the storage ever saw an upload of the batch. */
    boolean reachedStorage(String name) {
        for (Map.Entry<String, Thread> upload : storage.ranOn.entrySet()) {
            if (upload.getKey().startsWith(name + "-")) {
                return true;
            }
        }
        return false;
    }
}
