package io.github.boundedupload.internal;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploadTimeoutException;
import io.github.boundedupload.UploaderClosedException;
import io.github.boundedupload.spi.ConcurrencyLimit;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.support.Causes;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/** The upload of one attachment, and how its end becomes the attachment's {@link UploadResult}. */
final class UploadCall extends Call {

    /** Made once, on first use (an immutable value: a race only makes it twice). */
    private @Nullable UploadEvent event;
    /** When its upload timeout passes (System.nanoTime), once it runs; 0 before, and once it fired. */
    private volatile long timeoutAt;

    UploadCall(Engine engine, Batch batch, int index) {
        super(engine, batch, index, batch.weights[index]);
    }

    /** Under the lock, for the {@link Sweep}: whether the upload timeout has passed (true once). */
    boolean timedOut(long now) {
        long at = timeoutAt;
        if (at != 0 && now - at >= 0) {
            timeoutAt = 0;
            return true;
        }
        return false;
    }

    /** The upload timeout passed: the call is interrupted (or its storage told to stop) and fails. */
    void timeout() {
        cancel(new UploadTimeoutException(describe() + " did not finish within the upload timeout of "
                + engine.config.uploadTimeout()), Status.FAILED);
    }

    private UploadEvent event() {
        UploadEvent made = event;
        if (made == null) {
            made = batch.event(index);
            event = made;
        }
        return made;
    }

    @Override
    void dispatched() {
        if (!batch.callerRuns) {
            engine.queued--;
        }
    }

    @Override
    Executor runOn() {
        return batch.runOn;
    }

    @Override
    void refused(RejectedExecutionException e) {
        // A supplied executor refused, or ours is shutting down: the attachment ends now, reported, not dropped.
        started = System.nanoTime();
        boolean closed;
        engine.lock.lock();
        try {
            closed = engine.closed;
        } finally {
            engine.lock.unlock();
        }
        ended(null, closed ? new UploaderClosedException(engine.name, "its threads are stopped") : e);
    }

    @Override
    void call() {
        UploadEvent event = event();
        Duration queuedFor = Duration.ofNanos(started - batch.submitted);
        long left = batch.submitted + engine.config.batchTimeout().toNanos() - started;
        Duration uploadTimeout = engine.config.uploadTimeout();
        UploadRequest request = UploadRequest.builder(key, event.attachment())
                .timeout(Duration.ofNanos(Math.max(1, Math.min(uploadTimeout.toNanos(), left))))
                .progress(bytes -> batch.listener.bytesSent(event, bytes))
                .maxBytes(engine.config.maxAttachmentSize())
                .contentLength(batch.lengths[index])
                .cancellation(attempt.signal())
                .build();
        timeoutAt = started + uploadTimeout.toNanos(); // watched by the Sweep
        engine.storage.upload(request, attempt, () -> batch.listener.uploadStarted(event, queuedFor))
                .whenComplete((stored, failure) -> Engine.inContext(batch.context, () -> ended(stored, failure)));
    }

    /** The storage answered (or the call never ran): report the attachment, free the permit, move the batch on. */
    private void ended(@Nullable StoredObject stored, @Nullable Throwable failure) {
        Effects effects = new Effects();
        if (!claimEnd()) {
            engine.lock.lock();
            try {
                lateEnd(effects);
                // Reported failed when it was given up on: whatever it stored now must go, whatever the policy.
                engine.rollbacks.start(batch, index, stored, false, effects);
                engine.dispatcher.dispatch(effects);
                batch.checkSettled(effects);
            } finally {
                engine.lock.unlock();
            }
            effects.run();
            return;
        }
        // Claimed: nobody else reports this attachment, and its batch cannot finish before it is recorded below.
        long ended = System.nanoTime();
        Duration took = Duration.ofNanos(ended - started);
        UploadEvent event = event();
        Attempt.Cancel cancel = attempt.cancelled();
        UploadResult result = outcome(event.attachment(), stored, failure, cancel);
        sample(ended, result, cancel);
        if (result.isStored()) {
            batch.listener.uploadSucceeded(event, result.storedObject().orElseThrow(), took);
        } else if (attempt.started()) {
            batch.listener.uploadFailed(event, result.failure().orElseThrow(), took);
        } else {
            batch.listener.uploadSkipped(event, result.failure().orElseThrow());
        }
        engine.lock.lock();
        try {
            engine.dispatcher.release(this);
            recorded(result, cancel, effects);
        } finally {
            engine.lock.unlock();
        }
        effects.run();
    }

    /**
     * Tells an adaptive concurrency limit how the upload went: its time, and whether it says the storage is
     * overloaded. Uploads stopped because their batch stopped say nothing about the storage.
     */
    private void sample(long ended, UploadResult result, Attempt.@Nullable Cancel cancel) {
        ConcurrencyLimit limit = engine.config.concurrencyLimit().orElse(null);
        if (limit == null || !attempt.started() || cancel != null && cancel.status() == Status.CANCELLED) {
            return;
        }
        boolean overloaded = !result.isStored() && (cancel != null || Engine.isThrottling(result.failure().orElse(null)));
        try {
            limit.onSample(started, ended - started, engine.dispatcher.inFlightNow(), overloaded);
        } catch (RuntimeException e) {
            Engine.LOG.warn("the concurrency limit {} failed on a sample", limit, e);
        }
    }

    /** Under the lock: the attachment's result is known; the batch moves on. */
    private void recorded(UploadResult result, Attempt.@Nullable Cancel cancel, Effects effects) {
        batch.record(result, cancel, effects);
        batch.fill();
        engine.dispatcher.dispatch(effects);
        batch.checkDone(effects);
    }

    /**
     * A cancelled call that failed because of the cancel ends as the cancel says (CANCELLED, or FAILED for a
     * timeout), whatever the storage wrapped the interrupt in; one that failed for a reason of its own failed by
     * itself. A failure that says the storage may hold the object stays a failure, so that the key is deleted before
     * anything calls it empty.
     */
    private UploadResult outcome(Attachment attachment, @Nullable StoredObject stored, @Nullable Throwable failure,
            Attempt.@Nullable Cancel cancel) {
        if (failure == null && stored != null) {
            return UploadResult.stored(index, attachment, stored);
        }
        Throwable own = failure != null ? Causes.unwrap(failure)
                : new IllegalStateException("the storage returned no result");
        if (cancel != null && (!attempt.started()
                || !Engine.mayBeStored(own) && Engine.isCancellation(own, cancel.reason()))) {
            return UploadResult.notStored(index, attachment, key, cancel.status(), cancel.reason());
        }
        return UploadResult.notStored(index, attachment, key, Status.FAILED, own);
    }

    @Override
    void abandoned(Throwable reason) {
        UploadEvent event = event();
        long now = System.nanoTime();
        Duration took = Duration.ofNanos(now - started);
        Attempt.Cancel cancel = attempt.cancelled();
        if (cancel == null || cancel.status() != Status.CANCELLED) {
            sample(now, UploadResult.notStored(index, event.attachment(), key, Status.FAILED, reason), cancel);
        }
        batch.listener.uploadStuck(event);
        batch.listener.uploadFailed(event, reason, took);
        Effects effects = new Effects();
        engine.lock.lock();
        try {
            recorded(UploadResult.notStored(index, event.attachment(), key, Status.FAILED, reason),
                    attempt.cancelled(), effects);
        } finally {
            engine.lock.unlock();
        }
        effects.run();
    }
}
