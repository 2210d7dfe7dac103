package io.github.boundedupload;

import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One step of one attachment of a batch, for streams of progress ({@code ReactiveUploads.uploadAllWithProgress},
 * Kotlin's {@code uploadAllFlow}). Changes when what a progress stream tells of an attachment's step changes.
 *
 * @param kind what happened
 * @param index the attachment's position in the batch
 * @param fileName its file name
 * @param key its storage key
 * @param bytes bytes sent so far ({@link Kind#SENT}), or stored ({@link Kind#STORED}); 0 otherwise
 * @param failureReason what went wrong, for {@link Kind#FAILED} and {@link Kind#SKIPPED}; null otherwise
 */
public record UploadProgress(Kind kind, int index, String fileName, String key, long bytes,
        @Nullable Throwable failureReason) {

    /** What happened to an attachment. */
    public enum Kind {
        /** Its upload started. */
        STARTED,
        /** More of it was sent: at most about ten of these per attachment (every tenth of a known length). */
        SENT,
        /** The storage holds it. */
        STORED,
        /** Its upload failed. */
        FAILED,
        /** It never started: its batch stopped first. */
        SKIPPED,
        /** It was stored, and deleted again: its batch failed or was cancelled. */
        DELETED
    }

    /**
     * Why it failed.
     *
     * @return the failure, for {@link Kind#FAILED} and {@link Kind#SKIPPED}
     */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failureReason);
    }

    /**
     * A listener for one batch ({@link ConcurrentAttachmentUploader#uploadAllAsync(java.util.List, UploadListener)})
     * that turns its events into progress steps, with at most about ten {@link Kind#SENT} steps per attachment.
     *
     * @param steps receives each step, on the uploader's threads
     * @return the listener
     */
    public static UploadListener listener(Consumer<UploadProgress> steps) {
        Objects.requireNonNull(steps, "steps");
        return new UploadListener() {
            private final java.util.Map<Integer, Long> lastTenth = new java.util.concurrent.ConcurrentHashMap<>();

            private void step(Kind kind, UploadEvent upload, long bytes, @Nullable Throwable failure) {
                steps.accept(new UploadProgress(kind, upload.index(), upload.attachment().fileName(), upload.key(),
                        bytes, failure));
            }

            @Override
            public void uploadStarted(UploadEvent upload, Duration queued) {
                step(Kind.STARTED, upload, 0, null);
            }

            @Override
            public void bytesSent(UploadEvent upload, long bytesSoFar) {
                long length = upload.attachment().content().length().orElse(-1);
                // A tenth of a known length, else every MiB.
                long tenth = length > 0 ? bytesSoFar * 10 / length : bytesSoFar >> 20;
                Long before = lastTenth.put(upload.index(), tenth);
                if (before == null || tenth > before) {
                    step(Kind.SENT, upload, bytesSoFar, null);
                }
            }

            @Override
            public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
                lastTenth.remove(upload.index());
                step(Kind.STORED, upload, stored.size(), null);
            }

            @Override
            public void uploadFailed(UploadEvent upload, Throwable failure, Duration took) {
                lastTenth.remove(upload.index());
                step(Kind.FAILED, upload, 0, failure);
            }

            @Override
            public void uploadSkipped(UploadEvent upload, Throwable reason) {
                step(Kind.SKIPPED, upload, 0, reason);
            }

            @Override
            public void uploadRolledBack(UploadEvent upload, StoredObject stored, @Nullable Throwable failure) {
                if (failure == null) {
                    step(Kind.DELETED, upload, 0, null);
                }
            }
        };
    }
}
