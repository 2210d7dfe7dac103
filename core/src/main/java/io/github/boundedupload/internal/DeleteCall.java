package io.github.boundedupload.internal;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploadTimeoutException;
import io.github.boundedupload.support.Causes;
import io.github.boundedupload.support.SafeText;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * One try at deleting what an upload of a batch stored (or may have stored), to undo it; {@link Rollbacks} decides
 * what follows a failed try. Each try may take {@code stopTimeout}.
 */
final class DeleteCall extends Call {

    /** The object to delete when known (so that storages can delete exactly it), or null for the key. */
    final @Nullable StoredObject stored;
    /** 1 for the first try. */
    final int tries;
    /** Whether the batch waits for this try before it reports its result. */
    final boolean awaited;
    /** When the retries stop (System.nanoTime). */
    final long deadline;

    DeleteCall(Engine engine, Batch batch, int index, @Nullable StoredObject stored, int tries, boolean awaited,
            long deadline) {
        super(engine, batch, index, 0);
        this.stored = stored;
        this.tries = tries;
        this.awaited = awaited;
        this.deadline = deadline;
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
    void call() {
        // Once close() has stopped waiting, the timers are gone: the storage client's own timeouts bound the call.
        Runnable cancelTimeout = engine.stopping ? () -> { } : engine.timeouts.schedule(
                engine.config.stopTimeout().toNanos(), () -> cancel(new UploadTimeoutException("deleting "
                        + SafeText.quote(key) + " did not finish within " + engine.config.stopTimeout()), Status.FAILED));
        engine.storage.delete(key, stored, attempt).whenComplete((ignored, failure) -> {
            cancelTimeout.run();
            Engine.inContext(batch.context, () -> ended(failure));
        });
    }

    private void ended(@Nullable Throwable failure) {
        Effects effects = new Effects();
        boolean claimed = claimEnd();
        engine.lock.lock();
        try {
            if (!claimed) {
                lateEnd(effects); // its try was already counted as failed when it was given up on
                batch.checkSettled(effects);
            } else {
                engine.dispatcher.release(this);
                Throwable reason = failure == null ? null : Causes.unwrap(failure);
                engine.rollbacks.tried(this, reason, effects);
            }
            engine.dispatcher.dispatch(effects);
        } finally {
            engine.lock.unlock();
        }
        effects.run();
    }

    @Override
    void abandoned(Throwable reason) {
        Effects effects = new Effects();
        engine.lock.lock();
        try {
            engine.rollbacks.tried(this, reason, effects);
            engine.dispatcher.dispatch(effects);
        } finally {
            engine.lock.unlock();
        }
        effects.run();
    }
}
