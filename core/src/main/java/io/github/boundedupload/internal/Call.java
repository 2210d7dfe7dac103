package io.github.boundedupload.internal;

import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploadStuckException;
import io.github.boundedupload.UploaderClosedException;
import io.github.boundedupload.support.SafeText;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.jspecify.annotations.Nullable;

/**
 * One call to the storage for one attachment of a batch: its upload ({@link UploadCall}) or a delete that undoes it
 * ({@link DeleteCall}). It waits in the {@link Dispatcher}'s queue, holds a permit while it runs, and can be cancelled.
 * A cancelled call that has not ended {@code stopTimeout} later is given up on ({@link #abandon()}): it is reported,
 * its permit goes to others, and its end, whenever it comes, is handled as a late end.
 */
abstract class Call implements Runnable {

    private static final Runnable NOTHING = () -> { };

    final Engine engine;
    final Batch batch;
    final int index;
    final String key;
    final long weight;
    final Attempt attempt = new Attempt();
    private static final AtomicIntegerFieldUpdater<Call> ENDED =
            AtomicIntegerFieldUpdater.newUpdater(Call.class, "ended");

    // Guarded by the engine's lock:
    /** Holds a permit (and its bytes) of the dispatcher. */
    boolean permit;
    boolean abandoned;
    /** Neighbours in the dispatcher's list of calls holding a permit. */
    @Nullable Call previousRunning;
    @Nullable Call nextRunning;
    /** 1 once its end was claimed (or it was given up on): nothing reports it again. */
    private volatile int ended;
    /** Set on the thread that runs it. */
    volatile long started;
    private volatile Runnable stopTimer = NOTHING;

    Call(Engine engine, Batch batch, int index, long weight) {
        this.engine = engine;
        this.batch = batch;
        this.index = index;
        this.key = batch.keys[index];
        this.weight = weight;
    }

    /** Under the lock: it left the queue with a permit. */
    void dispatched() {
    }

    /** Where it runs: the executor, or the caller's thread under {@code CALLER_RUNS}. */
    abstract Executor runOn();

    /** Calls the storage; the storage's answer arrives later, on any thread. */
    abstract void call();

    /** The executor refused it: it never ran. */
    abstract void refused(RejectedExecutionException e);

    /**
     * Outside the lock, after the call was given up on (it still holds its place in the batch, so the batch cannot
     * finish before this records it): report it as the subclass must.
     */
    abstract void abandoned(Throwable reason);

    /** Outside the lock: hands itself to its executor. */
    final void start() {
        try {
            runOn().execute(this);
        } catch (RejectedExecutionException e) {
            refused(e);
        }
    }

    @Override
    public final void run() {
        started = System.nanoTime();
        Engine.inContext(batch.context, this::call);
    }

    /** Asks the call to stop; if it has not ended {@code stopTimeout} later, the uploader stops waiting for it. */
    final void cancel(Throwable reason, Status status) {
        if (attempt.cancel(reason, status)) {
            stopTimer = engine.timeouts.schedule(engine.config.stopTimeout().toNanos(), this::abandon);
        }
    }

    /**
     * Claims the call's end, without the lock: returns {@code false} when it was given up on already (the caller then
     * handles a late end, under the lock, which it gets only after {@link #abandon()} is through) and makes a later
     * {@link #abandon()} do nothing.
     */
    final boolean claimEnd() {
        stopTimer.run();
        return ENDED.compareAndSet(this, 0, 1);
    }

    /**
     * The call did not stop in time (or the uploader closes): reports it, frees its permit for others (unless as many
     * calls as there are permits are stuck already), and keeps waiting for its late end in the background.
     */
    final void abandon() {
        Effects effects = new Effects();
        engine.lock.lock();
        try {
            if (!ENDED.compareAndSet(this, 0, 1)) {
                return;
            }
            abandoned = true;
            engine.stuck++;
            if (engine.stuck <= engine.config.maxConcurrentUploads()) {
                engine.dispatcher.release(this);
                // The thread is still busy: the own pool gets one more, so that the freed permit has a thread.
                effects.add(() -> engine.resizePool(1));
            } // else it keeps its permit until it returns: as many calls as there are permits are stuck already
            batch.background++;
            engine.dispatcher.dispatch(effects);
        } finally {
            engine.lock.unlock();
        }
        effects.run();
        attempt.forceCancel();
        Throwable why = cancelReason();
        if (why == null) {
            why = new UploaderClosedException(engine.name, "it stopped waiting for its calls");
        }
        UploadStuckException stuck = new UploadStuckException(describe() + " did not stop within the stop timeout of "
                + engine.config.stopTimeout() + " after it was cancelled (" + SafeText.describe(why)
                + "); the uploader no longer waits for it and deletes what it may still store", why);
        Engine.inContext(batch.context, () -> abandoned(stuck));
    }

    /** Under the lock: a call given up on has returned after all. */
    final void lateEnd(Effects effects) {
        engine.stuck--;
        if (permit) {
            engine.dispatcher.release(this);
        } else {
            effects.add(() -> engine.resizePool(-1));
        }
        batch.background--;
    }

    /** For messages: which attachment. */
    final String describe() {
        return SafeText.label(index, batch.attachments.get(index).fileName());
    }

    final @Nullable Throwable cancelReason() {
        Attempt.Cancel cancel = attempt.cancelled();
        return cancel == null ? null : cancel.reason();
    }
}
