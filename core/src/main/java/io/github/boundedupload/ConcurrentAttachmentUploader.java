package io.github.boundedupload;

import io.github.boundedupload.internal.DefaultConcurrentAttachmentUploader;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadListener;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Uploads batches of attachments concurrently, within bounds: uploads and bytes in flight, per batch and overall;
 * a bounded queue with a {@link RejectionPolicy}; timeouts; a {@link FailurePolicy}; context propagation; and
 * listeners for progress and metrics. Results come back in input order. Thread-safe; build one per storage and
 * share it; close it when the application stops. Changes when what an application can ask of an uploader changes.
 *
 * <pre>{@code
 * try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(
 *         new LocalFileUploader(Path.of("uploads")),
 *         UploaderConfig.builder().name("attachments").build())) {
 *     BatchResult result = uploader.uploadAll(List.of(
 *             Attachment.of(Path.of("Algorithm.png")),
 *             Attachment.of("notes.txt", "hello".getBytes(StandardCharsets.UTF_8))));
 *     result.storedObjects().forEach(o -> System.out.println(o.key()));
 * }
 * }</pre>
 */
public interface ConcurrentAttachmentUploader extends AutoCloseable {

    /**
     * An uploader over a blocking storage with the default configuration.
     *
     * @param storage the storage
     * @return a new uploader; close it when done
     */
    static ConcurrentAttachmentUploader create(FileUploader storage) {
        return create(storage, UploaderConfig.defaults());
    }

    /**
     * An uploader over a blocking storage: each upload holds one of the uploader's threads while it runs.
     *
     * @param storage the storage
     * @param config bounds and policies
     * @return a new uploader; close it when done
     */
    static ConcurrentAttachmentUploader create(FileUploader storage, UploaderConfig config) {
        return DefaultConcurrentAttachmentUploader.create(storage, config);
    }

    /**
     * An uploader over a non-blocking storage: each upload holds a permit, and a thread only while it starts.
     *
     * @param storage the storage
     * @param config bounds and policies
     * @return a new uploader; close it when done
     */
    static ConcurrentAttachmentUploader create(AsyncFileUploader storage, UploaderConfig config) {
        return DefaultConcurrentAttachmentUploader.create(storage, config);
    }

    /**
     * Uploads a batch and waits for it. Every attachment is checked before anything starts.
     *
     * @param attachments the batch; may be empty
     * @return how each attachment ended, in input order; under {@link FailurePolicy#ALL_OR_NOTHING} all are stored
     * @throws InvalidAttachmentException when any attachment is invalid; nothing was started
     * @throws UploaderSaturatedException when the queue cannot take the batch; nothing was started
     * @throws BatchFailedException under {@link FailurePolicy#ALL_OR_NOTHING}, when an attachment failed; nothing
     *         of the batch is kept
     * @throws UploaderClosedException when the uploader is closed
     * @throws UploadException when the waiting thread is interrupted; the batch is then cancelled, what it stored
     *         is deleted again, and the thread's interrupt flag is set
     */
    BatchResult uploadAll(List<Attachment> attachments);

    /**
     * Uploads a batch without waiting for it. Every attachment is checked before anything starts; with
     * {@link RejectionPolicy#BLOCK} or {@link RejectionPolicy#CALLER_RUNS} the calling thread may wait or work before
     * this method returns.
     *
     * <p>Cancelling the returned future cancels the batch: uploads not started are dropped from the queue, running
     * ones are interrupted, and objects already stored are deleted again (nobody can receive the result any more).
     * Dependent stages run on the uploader's threads unless you give them an executor: keep them short.
     *
     * @param attachments the batch; may be empty
     * @return completes with the result, or exceptionally with the exceptions {@link #uploadAll(List)} throws
     */
    CompletableFuture<BatchResult> uploadAllAsync(List<Attachment> attachments);

    /**
     * As {@link #uploadAllAsync(List)}, and tells {@code listener} what happens to this batch, after the uploader's
     * own listeners: its start (or refusal), each upload's start, bytes, end, and rollback, and its end. For progress
     * of one request (a progress bar, a stream of events to a client) without a listener that sorts the events of
     * every batch. Keep the listener short: it runs on the uploader's threads; a listener that throws is logged.
     *
     * @param attachments the batch; may be empty (then the listener hears nothing)
     * @param listener hears this batch only; {@code uploaderCreated} and {@code uploaderClosed} are never called
     * @return as {@link #uploadAllAsync(List)}
     */
    CompletableFuture<BatchResult> uploadAllAsync(List<Attachment> attachments, @Nullable UploadListener listener);

    /**
     * Checks a batch as {@link #uploadAll(List)} does before anything starts, and chooses its keys, without uploading.
     * For work that uploads later (deferred uploads), so that bad input is refused, and the keys are known, at once.
     *
     * @param attachments the batch
     * @return the key of each attachment, in input order
     * @throws InvalidAttachmentException when any attachment is invalid
     */
    List<String> check(List<Attachment> attachments);

    /**
     * The uploader's name, from its configuration.
     *
     * @return the name
     */
    String name();

    /**
     * The configuration the uploader was created with.
     *
     * @return the configuration
     */
    UploaderConfig config();

    /**
     * What the uploader is doing now.
     *
     * @return a snapshot
     */
    UploaderStats stats();

    /**
     * Stops taking batches, lets running batches finish for up to {@link UploaderConfig#shutdownGracePeriod()}, then
     * cancels what is left (deleting what cancelled all-or-nothing batches stored) and stops the uploader's own
     * threads. A supplied executor is left running. Idempotent.
     */
    @Override
    void close();
}
