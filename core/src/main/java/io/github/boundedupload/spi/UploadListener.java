package io.github.boundedupload.spi;

import io.github.boundedupload.BatchResult;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderSaturatedException;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * Receives what the uploader does, for progress display, logging and metrics. Every method does nothing by default;
 * implement the ones you need. {@code io.github.boundedupload.micrometer.MicrometerUploadListener} is one
 * implementation. Changes when the uploader reports a new kind of event.
 *
 * <p>Where callbacks run: {@link #uploaderCreated} and {@link #uploaderClosed} on the thread that builds and closes
 * the uploader; {@link #batchStarted} and {@link #batchRejected} on the submitting thread; the others on the
 * uploader's threads (its own, or the supplied executor's), with the submitting thread's context (MDC) applied.
 * Except with a non-blocking storage ({@link AsyncFileUploader}): there, by default, the callbacks that follow a
 * storage's answer ({@link #uploadSucceeded}, {@link #uploadFailed}, {@link #uploadRolledBack}, {@link #batchFinished},
 * {@link #batchSettled}, ...) run on the thread that brought the answer: the storage client's completion thread, such
 * as the {@code sdk-async-response} threads of the application's {@code S3AsyncClient}, which a callback that blocks
 * keeps from completing the application's own requests.
 * {@link io.github.boundedupload.UploaderConfig#keepWorkOnUploaderThreads()} keeps them on the uploader's threads.
 * {@link #bytesSent} runs on the thread that sends the bytes (a non-blocking client's I/O thread, without the context).
 * Callbacks must be quick and must not block. An exception thrown by a callback is logged and otherwise ignored: a
 * listener cannot break an upload.
 *
 * <p>For every attachment of an admitted batch exactly one of {@link #uploadSucceeded}, {@link #uploadFailed} or
 * {@link #uploadSkipped} is called, then {@link #batchFinished} once for the batch, then {@link #batchSettled} once,
 * when nothing of it runs in the background any more.
 */
public interface UploadListener {

    /**
     * The uploader was built. Register gauges here; its {@link UploaderEvent#stats()} can be read at any time, as long
     * as the uploader lives.
     *
     * @param uploader the new uploader
     * @param executor the executor its uploads run on (its own pool, or the one supplied)
     */
    default void uploaderCreated(UploaderEvent uploader, Executor executor) {
    }

    /**
     * The uploader was closed. Remove what {@link #uploaderCreated} registered.
     *
     * @param uploader the closed uploader
     */
    default void uploaderClosed(UploaderEvent uploader) {
    }

    /**
     * A batch was admitted: its uploads are queued.
     *
     * @param batch the batch
     */
    default void batchStarted(BatchEvent batch) {
    }

    /**
     * A batch was refused because the uploader was saturated; nothing of it started.
     *
     * @param batch the batch
     * @param exception what the caller receives
     */
    default void batchRejected(BatchEvent batch, UploaderSaturatedException exception) {
    }

    /**
     * An upload left the queue and is starting.
     *
     * @param upload the upload
     * @param queued how long it waited since the batch was submitted
     */
    default void uploadStarted(UploadEvent upload, Duration queued) {
    }

    /**
     * Bytes went out. Called now and then during an upload, not for every write.
     *
     * @param upload the upload
     * @param bytesSoFar bytes sent so far in the current attempt
     */
    default void bytesSent(UploadEvent upload, long bytesSoFar) {
    }

    /**
     * An upload finished and the object is stored.
     *
     * @param upload the upload
     * @param stored what the storage holds
     * @param took how long the upload ran, without the time queued
     */
    default void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
    }

    /**
     * An upload started and did not store the object.
     *
     * @param upload the upload
     * @param failure why
     * @param took how long the upload ran, without the time queued
     */
    default void uploadFailed(UploadEvent upload, Throwable failure, Duration took) {
    }

    /**
     * An upload never started: its batch stopped first, or the batch's deadline passed while it was queued.
     *
     * @param upload the upload
     * @param reason why
     */
    default void uploadSkipped(UploadEvent upload, Throwable reason) {
    }

    /**
     * A stored object was deleted again (or could not be, and the uploader gave up) because its batch failed as a
     * whole or was cancelled, or because the upload was reported failed after all (a call that got stuck). Called once per object, when the storage confirmed the delete or the uploader gave up.
     *
     * @param upload the upload whose object it was
     * @param stored the object
     * @param failure why it could not be deleted, or {@code null} when it was: a non-null failure means the object
     *        is still stored
     */
    default void uploadRolledBack(UploadEvent upload, StoredObject stored, @Nullable Throwable failure) {
    }

    /**
     * A delete that undoes (part of) a failed batch, or removes what an upload of unknown outcome may have stored,
     * failed, and is tried again after {@code retryIn}, until
     * {@link io.github.boundedupload.UploaderConfig#rollbackDeadline()}.
     *
     * @param upload the upload whose object (or key) is to be deleted
     * @param failure why this try failed
     * @param retryIn when the next try starts
     */
    default void rollbackRetried(UploadEvent upload, Throwable failure, Duration retryIn) {
    }

    /**
     * The uploader gave up deleting what an upload stored or may have stored (the rollback deadline passed, or the
     * uploader closed): the key may still hold the object, or the parts of an incomplete multipart upload, and
     * something else must remove them. Also logged as an error naming the key.
     *
     * @param upload the upload whose object (or key) could not be deleted
     * @param failure why the last try failed
     */
    default void rollbackAbandoned(UploadEvent upload, Throwable failure) {
    }

    /**
     * A cancelled call to the storage did not stop within {@link io.github.boundedupload.UploaderConfig#stopTimeout()}:
     * the uploader reported its attachment failed, freed its permit, and deletes what the call may still store when
     * it returns. Called before {@link #uploadFailed}.
     *
     * @param upload the upload that is stuck
     */
    default void uploadStuck(UploadEvent upload) {
    }

    /**
     * Every attachment of the batch has ended.
     *
     * @param batch the batch
     * @param result how each attachment ended, in input order
     * @param took how long since the batch was submitted
     */
    default void batchFinished(BatchEvent batch, BatchResult result, Duration took) {
    }

    /**
     * Nothing of the batch runs in the background any more: every delete it needed is confirmed or given up, every
     * call that got stuck has returned (or the uploader closed). Called once per batch, after {@link #batchFinished},
     * at once when there was nothing left to do; the same result as {@link BatchResult#settled()}.
     *
     * @param batch the batch
     * @param result how each attachment ended, in input order: no {@code DELETING} any more
     */
    default void batchSettled(BatchEvent batch, BatchResult result) {
    }
}
