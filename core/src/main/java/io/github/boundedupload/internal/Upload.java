package io.github.boundedupload.internal;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchTakenOverException;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploadTimeoutException;
import io.github.boundedupload.UploaderClosedException;
import io.github.boundedupload.internal.step.Effects;
import io.github.boundedupload.internal.step.InContext;
import io.github.boundedupload.spi.ConcurrencyLimit;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.support.Causes;
import io.github.boundedupload.support.SafeText;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * One attachment of a batch, from its admission to its result: its key, its weight against the bytes-in-flight bound,
 * its checked length, its one call to the storage, and its outcome ({@link #result}). It waits in its batch until the
 * batch's window offers it, then in the {@link CallQueue}; it runs, and the storage's answer becomes its
 * {@link UploadResult} ({@link #answered}), which it hands to its {@link Batch}. Changes when what happens to one
 * attachment changes.
 */
final class Upload extends Call {

    final int index;
    final Attachment attachment;
    /** The length it had when checked (-1: unknown): what the storage must send, exactly. */
    final long length;
    // Guarded by the step lock, and written only by its batch:
    /** Its outcome, once known; it changes only to say what a delete did, until the batch finishes. */
    private @Nullable UploadResult result;
    /**
     * What a delete did after the batch finished (confirmed, still trying, given up): the settled result. The finished
     * batch's result is built outside the lock from {@link #result}, which therefore no longer changes then.
     */
    private @Nullable UploadResult settledResult;
    /** The cancel it ended by, as it was when it was answered (a cancel coming later changes nothing). */
    private Attempt.@Nullable Cancel cancel;
    /** A delete that undoes it was started by its batch's rollback. */
    private boolean rollingBack;
    /** Its place in its batch's {@link Window} while offered and not ended; -1 outside it. Only the window sets it. */
    private int windowSlot = -1;
    /** Its outcome and cancel as answered, until its end runs ({@link #runCombined}), perhaps on the combining thread. */
    private @Nullable UploadResult outcomeToRecord;
    private Attempt.@Nullable Cancel cancelToRecord;
    /** Made once, on first use (an immutable value: a race only makes it twice). */
    private @Nullable UploadEvent event;
    /** When its upload timeout passes ({@link Ticker#nanoTime()}), once it runs; 0 before, and once it fired. */
    private volatile long timeoutAt;

    Upload(Batch batch, int index, BatchCheck.Checked checked) {
        super(batch, checked.key(), checked.weight(), !batch.callerRuns);
        this.index = index;
        this.attachment = checked.attachment();
        this.length = checked.length();
    }

    /** Its outcome, once known, as reported. */
    @Nullable UploadResult result() {
        return result;
    }

    /** Its result as it stands now: what a delete did after the finish, or what was (or will be) reported. */
    @Nullable UploadResult currentResult() {
        return settledResult != null ? settledResult : result;
    }

    /** The cancel it ended by, as it was when it was answered. */
    Attempt.@Nullable Cancel cancel() {
        return cancel;
    }

    /** Whether its batch's rollback started a delete that undoes it. */
    boolean rollingBack() {
        return rollingBack;
    }

    /** Its batch recorded its outcome, and the cancel it ended by. */
    void recorded(UploadResult outcome, Attempt.@Nullable Cancel endedBy) {
        this.result = outcome;
        this.cancel = endedBy;
    }

    /** Its batch changed its result ({@link Batch#changeResult}): the reported one, or once finished the settled one. */
    void changeResult(UploadResult changed, boolean batchFinished) {
        if (batchFinished) {
            settledResult = changed;
        } else {
            result = changed;
        }
    }

    /** Its batch's rollback started a delete that undoes it. */
    void rollBack() {
        rollingBack = true;
    }

    /** Its place in its batch's {@link Window}; -1 outside it. */
    int windowSlot() {
        return windowSlot;
    }

    /** For its batch's {@link Window}: its place there now. */
    void windowSlot(int slot) {
        windowSlot = slot;
    }

    UploadEvent event() {
        UploadEvent made = event;
        if (made == null) {
            made = new UploadEvent(batch.event, index, attachment, key);
            event = made;
        }
        return made;
    }

    @Override
    String describe() {
        return SafeText.label(index, attachment.fileName());
    }

    /** Under the lock, for the {@link Sweep}: whether the upload timeout has passed (true once). */
    boolean timeoutDue(long now) {
        long at = timeoutAt;
        if (at != 0 && now - at >= 0) {
            timeoutAt = 0;
            return true;
        }
        return false;
    }

    /** The upload timeout passed: the call is interrupted (or its storage told to stop) and fails. */
    void timeOut() {
        cancel(new UploadTimeoutException(describe() + " did not finish within the upload timeout of "
                + engine.config.uploadTimeout()), Status.FAILED);
    }

    @Override
    Executor runOn() {
        return batch.runOn;
    }

    @Override
    void refused(RejectedExecutionException e) {
        // A supplied executor refused, or ours is shutting down: the attachment ends now, reported, not dropped.
        markStarted();
        Throwable why = engine.closed() ? new UploaderClosedException(engine.name, "its threads are stopped") : e;
        InContext.run(batch.context, () -> answered(null, why));
    }

    @Override
    void callStorage() {
        UploadEvent event = event();
        Duration queuedFor = Duration.ofNanos(started - batch.submitted);
        long left = batch.submitted + engine.config.batchTimeout().toNanos() - started;
        Duration uploadTimeout = engine.config.uploadTimeout();
        UploadRequest request = UploadRequest.builder(key, attachment)
                .timeout(Duration.ofNanos(Math.max(1, Math.min(uploadTimeout.toNanos(), left))))
                .progress(bytes -> batch.listener.bytesSent(event, bytes))
                .maxBytes(engine.config.maxAttachmentSize())
                .contentLength(length)
                .cancellation(attempt.signal())
                .build();
        timeoutAt = started + uploadTimeout.toNanos(); // watched by the Sweep
        engine.storage.upload(request, attempt, () -> {
            batch.listener.uploadStarted(event, queuedFor);
            // Last, right before the storage is called: nothing of this process's runs between the check and the call.
            if (!batch.journal.writing(key)) {
                throw new BatchTakenOverException(describe() + " was not uploaded: " + batch.event + " is no longer"
                        + " this process's (the upload journal took it over)");
            }
        }, this::onAnswer);
    }

    /**
     * On the thread that brought the storage's answer: a blocking storage's own call thread, where the answer is
     * simply handled (inside {@link #callStorage()}, in the batch's context already); or the thread that completed a
     * non-blocking storage's future, which then starts the next call too ({@link Handoff#runAnswer}).
     */
    private void onAnswer(@Nullable StoredObject stored, @Nullable Throwable failure) {
        if (engine.storage.blocking()) {
            answered(stored, failure);
        } else {
            Handoff.runAnswer(this, () -> InContext.run(batch.context, () -> answered(stored, failure)));
        }
    }

    /** The storage answered (or the call never ran): report the attachment, then hand its result to the batch. */
    private void answered(@Nullable StoredObject stored, @Nullable Throwable failure) {
        if (!claimEnd()) {
            // Outside the lock: a journal may ask its database. An object stored after the batch was taken over is
            // the journal's to take back; this process must not delete it (its key may hold another's object).
            boolean ours = stored == null || batch.journal.stored(stored);
            engine.steps.run(effects -> {
                returnedLate(effects);
                // Reported failed when it was given up on: whatever it stored now must go, whatever the policy.
                if (ours) {
                    engine.rollbacks.start(this, stored, false, effects);
                }
                batch.checkSettled(effects);
            });
            return;
        }
        // Claimed: nobody else reports this attachment, and its batch cannot finish before it is recorded below.
        long now = engine.ticker.nanoTime();
        Duration took = Duration.ofNanos(now - started);
        UploadEvent event = event();
        Attempt.Cancel cancelled = attempt.cancelled();
        UploadResult outcome = outcome(stored, failure, cancelled);
        sample(now, outcome, cancelled);
        if (outcome.isStored()) {
            batch.listener.uploadSucceeded(event, outcome.storedObject().orElseThrow(), took);
        } else if (attempt.started()) {
            batch.listener.uploadFailed(event, outcome.failure().orElseThrow(), took);
        } else {
            batch.listener.uploadSkipped(event, outcome.failure().orElseThrow());
        }
        // On a virtual thread, handed to the combiner (this thread has nothing left to do), unless this thread takes
        // the next call and finds the lock free.
        outcomeToRecord = outcome;
        cancelToRecord = cancelled;
        engine.steps.runOrCombine(this);
    }

    /** Under the lock: its end, as {@link #answered} found it; perhaps run by the combining thread. */
    @Override
    protected void runCombined(Effects effects) {
        engine.queue.release(this, effects);
        batch.record(this, Objects.requireNonNull(outcomeToRecord), cancelToRecord, effects);
    }

    @Override
    void givenUp(Throwable reason) {
        UploadEvent event = event();
        long now = engine.ticker.nanoTime();
        Duration took = Duration.ofNanos(now - started);
        Attempt.Cancel cancelled = attempt.cancelled();
        UploadResult outcome = UploadResult.notStored(index, attachment, key, Status.FAILED, reason);
        if (cancelled == null || cancelled.status() != Status.CANCELLED) {
            sample(now, outcome, cancelled);
        }
        batch.listener.uploadStuck(event);
        batch.listener.uploadFailed(event, reason, took);
        engine.steps.run(effects -> batch.record(this, outcome, cancelled, effects));
    }

    /**
     * Tells an adaptive concurrency limit how the upload went: its time, and whether it says the storage is
     * overloaded. Uploads stopped because their batch stopped say nothing about the storage.
     */
    private void sample(long now, UploadResult outcome, Attempt.@Nullable Cancel cancelled) {
        ConcurrencyLimit limit = engine.config.concurrencyLimit().orElse(null);
        if (limit == null || !attempt.started() || cancelled != null && cancelled.status() == Status.CANCELLED) {
            return;
        }
        boolean overloaded = !outcome.isStored() && (cancelled != null || Causes.any(outcome.failure().orElse(null),
                t -> t instanceof UploadException && ((UploadException) t).isThrottling()));
        try {
            limit.onSample(started, now - started, engine.queue.inFlightNow(), overloaded);
        } catch (RuntimeException e) {
            Engine.LOG.warn("the concurrency limit {} failed on a sample", limit, e);
        }
    }

    /**
     * A cancelled call that failed because of the cancel ends as the cancel says (CANCELLED, or FAILED for a
     * timeout), whatever the storage wrapped the interrupt in; one that failed for a reason of its own failed by
     * itself. A failure that says the storage may hold the object stays a failure, so that the key is deleted before
     * anything calls it empty.
     */
    private UploadResult outcome(@Nullable StoredObject stored, @Nullable Throwable failure,
            Attempt.@Nullable Cancel cancelled) {
        if (failure == null && stored != null) {
            UploadResult result = UploadResult.stored(index, attachment, stored);
            return batch.journal.stored(stored) ? result : result.possiblyStored(new BatchTakenOverException(describe()
                    + " was stored after " + batch.event + " stopped being this process's; the upload journal removes"
                    + " it"));
        }
        Throwable own = failure != null ? Causes.unwrap(failure)
                : new IllegalStateException("the storage returned no result");
        if (cancelled != null && (!attempt.started()
                || !mayBeStored(own) && isCancellation(own, cancelled.reason()))) {
            return UploadResult.notStored(index, attachment, key, cancelled.status(), cancelled.reason());
        }
        return UploadResult.notStored(index, attachment, key, Status.FAILED, own);
    }

    /**
     * Whether a failure is (or was caused by) an interrupt or cancellation, rather than a failure of its own,
     * whatever the storage wrapped it in: the uploader's own reason, the JDK's interrupt and cancellation
     * exceptions, or an {@link UploadException} that says so.
     */
    private static boolean isCancellation(Throwable failure, Throwable cancelReason) {
        return Causes.any(failure, t -> t == cancelReason || Causes.isInterrupt(t) || t instanceof CancellationException
                || t instanceof UploadException && ((UploadException) t).isCancellation());
    }

    /** Whether the storage may hold something under the key although the upload failed. */
    static boolean mayBeStored(@Nullable Throwable failure) {
        return Causes.any(failure, t -> t instanceof UploadException && ((UploadException) t).mayBeStored());
    }
}
