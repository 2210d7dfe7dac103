package io.github.boundedupload.internal;

import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploadStuckException;
import io.github.boundedupload.UploaderClosedException;
import io.github.boundedupload.internal.queue.CallQueue;
import io.github.boundedupload.internal.step.Effects;
import io.github.boundedupload.internal.step.InContext;
import io.github.boundedupload.spi.ContextPropagator;
import io.github.boundedupload.support.SafeText;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.jspecify.annotations.Nullable;

/**
 * One call to the storage for an attachment of a batch: its {@link Upload}, or a {@link DeleteCall} that undoes it. It
 * waits in the {@link CallQueue}, holds a permit while it runs, and can be cancelled. A cancelled call that
 * has not ended {@code stopTimeout} later is given up on ({@link #abandon()}): it is reported, its permit goes to
 * others, and when it returns after all, that is a late return ({@link #returnedLate}). Its end is claimed once
 * ({@link #claimEnd()}), so that exactly one of its answer and its abandonment reports it. Changes when what every call
 * to the storage goes through changes.
 */
abstract class Call extends CallQueue.Entry implements Runnable {

    private static final Runnable NOTHING = () -> { };
    /** The refusals waiting to be reported on this thread, while it reports one ({@link #report}). */
    private static final ThreadLocal<ArrayDeque<Runnable>> REFUSED = new ThreadLocal<>();
    private static final AtomicIntegerFieldUpdater<Call> CLAIMED =
            AtomicIntegerFieldUpdater.newUpdater(Call.class, "claimed");

    final Engine engine;
    final Batch batch;
    final Attempt attempt = new Attempt();

    // Guarded by the step lock:
    /** Given up on ({@link #abandon()}), and not returned. */
    boolean abandoned;
    /** 1 once its end was claimed (by its answer, or by giving up on it): nothing reports it again. */
    private volatile int claimed;
    /** Set on the thread that runs it ({@link #markStarted}). */
    volatile long started;
    private volatile Runnable stopTimer = NOTHING;

    /** @param holdsPlace whether it takes one of the queue places its batch or rollback reserved */
    Call(Batch batch, String key, long weight, boolean holdsPlace) {
        super(key, batch, weight, holdsPlace);
        this.engine = batch.engine;
        this.batch = batch;
    }

    /** Where it runs: the executor, or the caller's thread under {@code CALLER_RUNS}. */
    abstract Executor runOn();

    /** Calls the storage; the storage's answer arrives later, on any thread. */
    abstract void callStorage();

    /** The executor refused it: it never ran. */
    abstract void refused(RejectedExecutionException e);

    /**
     * Outside the lock, after the call was given up on (it still holds its place in the batch, so the batch cannot
     * finish before this records it): report it as the subclass must.
     */
    abstract void givenUp(Throwable reason);

    /** For messages: which attachment. */
    abstract String describe();

    /** Its end's effects run in its batch's context. */
    @Override
    protected final ContextPropagator.Captured stepContext() {
        return batch.context;
    }

    @Override
    protected final boolean takesNextCall() {
        return Handoff.takesNext(this);
    }

    /**
     * Outside the lock: hands itself to its executor; or, when the thread starting it is one of the uploader's own that
     * is about to be free (a call of this uploader that ended on it started this one), to that thread, which runs it
     * next ({@link Handoff}).
     */
    protected final void start() {
        if (Handoff.offer(this)) {
            return;
        }
        try {
            runOn().execute(this);
        } catch (RejectedExecutionException e) {
            report(this, e);
        }
    }

    /**
     * Reports a refused call ({@link #refused}) on this thread; if this thread reports one already, after it. A
     * refused upload ends at once, and its end starts the next call, which a shut-down executor refuses too: reported
     * inside one another, 10,000 queued uploads overflowed the stack, and the batch never finished. Waiting here, at
     * most one per permit freed by the refusals before it.
     */
    private static void report(Call call, RejectedExecutionException refusal) {
        ArrayDeque<Runnable> reporting = REFUSED.get();
        if (reporting != null) {
            reporting.addLast(() -> call.refused(refusal));
            return;
        }
        reporting = new ArrayDeque<>();
        REFUSED.set(reporting);
        Error fatal = null;
        try {
            for (Runnable next = () -> call.refused(refusal); next != null; next = reporting.pollFirst()) {
                try {
                    next.run();
                } catch (RuntimeException | Error e) {
                    // The others are still reported; an Error is thrown once they are.
                    Engine.LOG.error("internal error in bounded-upload; please report it", e);
                    fatal = fatal == null && e instanceof Error ? (Error) e : fatal;
                }
            }
        } finally {
            REFUSED.remove();
        }
        if (fatal != null) {
            throw fatal;
        }
    }

    @Override
    public final void run() {
        Handoff.runFrom(this);
    }

    /** Runs this call with its batch's context, on the calling thread. */
    final void runHere() {
        markStarted();
        InContext.run(batch.context, this::callStorage);
    }

    /** It runs (or, refused by its executor, ends) now. */
    final void markStarted() {
        started = engine.ticker.nanoTime();
    }

    /** Asks the call to stop; if it has not ended {@code stopTimeout} later, the uploader stops waiting for it. */
    final void cancel(Throwable reason, Status status) {
        if (attempt.cancel(reason, status)) {
            stopTimer = engine.timeouts.schedule(engine.config.stopTimeout().toNanos(), this::abandon);
        }
    }

    /**
     * Claims the call's end, without the lock: returns {@code false} when it was given up on already (the caller then
     * handles a late return, under the lock, which it gets only after {@link #abandon()} is through) and makes a later
     * {@link #abandon()} do nothing.
     */
    final boolean claimEnd() {
        stopTimer.run();
        return CLAIMED.compareAndSet(this, 0, 1);
    }

    /**
     * The call did not stop in time (or the uploader closes): reports it, frees its permit for others (unless as many
     * calls as there are permits are stuck already), and keeps waiting for its late return in the background.
     */
    final void abandon() {
        boolean givenUp = engine.steps.compute(effects -> {
            if (!CLAIMED.compareAndSet(this, 0, 1)) {
                return false;
            }
            abandoned = true;
            if (engine.givenUp(this) <= engine.config.maxConcurrentUploads()) {
                engine.queue.release(this, effects);
                // The thread is still busy: the own pool gets one more, so that the freed permit has a thread.
                effects.add(() -> engine.resizePool(1));
            } // else it keeps its permit until it returns: as many calls as there are permits are stuck already
            batch.backgroundWork(1);
            return true;
        });
        if (!givenUp) {
            return;
        }
        attempt.forceCancel();
        Throwable why = cancelReason();
        if (why == null) {
            why = new UploaderClosedException(engine.name, "it stopped waiting for its calls");
        }
        UploadStuckException stuck = new UploadStuckException(describe() + " did not stop within the stop timeout of "
                + engine.config.stopTimeout() + " after it was cancelled (" + SafeText.describe(why)
                + "); the uploader no longer waits for it and deletes what it may still store", why);
        InContext.run(batch.context, () -> givenUp(stuck));
    }

    /** Under the lock: a call given up on has returned after all. */
    final void returnedLate(Effects effects) {
        engine.returnedLate(this);
        if (!engine.queue.release(this, effects)) {
            effects.add(() -> engine.resizePool(-1));
        }
        batch.backgroundWork(-1);
    }

    final @Nullable Throwable cancelReason() {
        Attempt.Cancel cancel = attempt.cancelled();
        return cancel == null ? null : cancel.reason();
    }
}
