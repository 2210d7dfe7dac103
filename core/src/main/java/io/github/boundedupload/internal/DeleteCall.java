package io.github.boundedupload.internal;

import io.github.boundedupload.BatchTakenOverException;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploadTimeoutException;
import io.github.boundedupload.internal.step.Effects;
import io.github.boundedupload.internal.step.InContext;
import io.github.boundedupload.support.Causes;
import io.github.boundedupload.support.SafeText;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * One try at deleting what an {@link Upload} stored (or may have stored), to undo it; {@link Rollbacks} decides what
 * follows a failed try. Each try may take {@code stopTimeout}. Changes when how one delete is tried changes.
 */
final class DeleteCall extends Call {

    /** The upload it undoes. */
    final Upload upload;
    /** The object to delete when known (so that storages can delete exactly it), or null for the key. */
    final @Nullable StoredObject stored;
    /** 1 for the first try. */
    final int tries;
    /** Whether the batch waits for this try before it reports its result. */
    final boolean awaited;
    /** When the retries stop ({@link Ticker#nanoTime()}). */
    final long deadline;
    /** Why the try failed ({@code null}: it did not), until its end runs ({@link #runCombined}). */
    private @Nullable Throwable failureToRecord;

    DeleteCall(Upload upload, @Nullable StoredObject stored, int tries, boolean awaited, long deadline) {
        super(upload.batch, upload.key, 0, false);
        this.upload = upload;
        this.stored = stored;
        this.tries = tries;
        this.awaited = awaited;
        this.deadline = deadline;
    }

    /** The next try, after this one failed. */
    DeleteCall next() {
        return new DeleteCall(upload, stored, tries + 1, false, deadline);
    }

    @Override
    String describe() {
        return upload.describe();
    }

    @Override
    Executor runOn() {
        // On the caller's thread while it waits for its batch; afterwards (retries, late deletes) on the executor.
        return batch.callerRuns && !batch.finished() ? batch.runOn : engine.executor;
    }

    @Override
    void refused(RejectedExecutionException e) {
        // The executor is shut down (the application stopped it first, or this is the end of close()): a rollback
        // must still run, so it runs here.
        run();
    }

    @Override
    void callStorage() {
        if (!batch.journal.owned()) {
            // Another process removes the batch's objects now; this key may hold what another batch stored since.
            answered(new BatchTakenOverException("did not delete " + SafeText.quote(key) + " (" + describe()
                    + "): " + batch.event + " is no longer this process's; the upload journal removes what it"
                    + " stored"));
            return;
        }
        // Once close() has stopped waiting, the timers are gone: the storage client's own timeouts bound the call.
        Runnable cancelTimeout = engine.stopping() ? () -> { } : engine.timeouts.schedule(
                engine.config.stopTimeout().toNanos(), () -> cancel(new UploadTimeoutException("deleting "
                        + SafeText.quote(key) + " did not finish within " + engine.config.stopTimeout()),
                        Status.FAILED));
        engine.storage.delete(key, stored, attempt, (ignored, failure) -> {
            cancelTimeout.run();
            Runnable answer = () -> InContext.run(batch.context, () -> answered(failure));
            // A non-blocking storage's answer, on its client's thread: to the uploader's threads, when configured so.
            if (engine.storage.blocking() || !Handoff.handOver(this, answer)) {
                answer.run();
            }
        });
    }

    private void answered(@Nullable Throwable failure) {
        if (!claimEnd()) {
            engine.steps.run(effects -> {
                returnedLate(effects); // its try was already counted as failed when it was given up on
                batch.checkSettled(effects);
            });
            return;
        }
        failureToRecord = failure == null ? null : Causes.unwrap(failure);
        engine.steps.runOrCombine(this);
    }

    /** Under the lock: the end of a try, as {@link #answered} found it; perhaps run by the combining thread. */
    @Override
    protected void runCombined(Effects effects) {
        engine.queue.release(this, effects);
        engine.rollbacks.tried(this, failureToRecord, effects);
    }

    @Override
    void givenUp(Throwable reason) {
        engine.steps.run(effects -> engine.rollbacks.tried(this, reason, effects));
    }
}
