package io.github.boundedupload.internal;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.RejectionPolicy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploadStuckException;
import io.github.boundedupload.UploadTimeoutException;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.ContextPropagator;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadJournal;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.support.SafeText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * One batch: its checked input, a cursor that offers at most {@code maxConcurrentUploadsPerBatch} uploads at a time
 * to the {@link Dispatcher}, every attachment's result, and the failure policy: under
 * {@link FailurePolicy#ALL_OR_NOTHING} the first failure stops the batch and rolls it back ({@link Policy}).
 *
 * <p>A batch <em>finishes</em> (its future completes) when every attachment has a result and the first try of each
 * rollback delete has ended; it is <em>settled</em> when nothing of it runs in the background any more (deletes being
 * retried, calls given up on that have not returned). Its keys stay its own until then. State is guarded by the
 * engine's lock unless marked otherwise.
 */
final class Batch {

    private static final Runnable WAKE_UP = () -> { };

    final Engine engine;
    final BatchEvent event;
    final List<Attachment> attachments;
    final String[] keys;
    final long[] weights;
    final long[] lengths;
    final int size;
    final ContextPropagator.Captured context;
    final long submitted;
    final boolean callerRuns;
    final Executor runOn;
    private final int window;
    private final @Nullable LinkedBlockingQueue<Runnable> callerQueue;
    final CompletableFuture<BatchResult> done = new CompletableFuture<>();
    /** The uploader's listeners, and the batch's own after them. */
    final UploadListener listener;
    /** The batch in the journal, if the uploader has one. */
    private final UploadJournal.@Nullable Entry journal;
    /** Whether {@code uploadAll}'s caller keeps the batch in the journal ({@link #keep()}), on its own thread. */
    private final boolean keepOnCaller;
    /** Once finished: the keys the result keeps, or null when it keeps nothing. */
    private volatile @Nullable List<String> kept;
    /** Whether a rollback delete was given up: the journal must then remove the batch's keys itself. */
    boolean deletesAbandoned;
    // Guarded by the engine's lock:
    private final UploadResult[] results;
    private final Attempt.@Nullable Cancel[] cancels;
    /** The calls of attachments offered to the dispatcher and not yet ended, by index; {@link #liveCount} of them. */
    private final @Nullable UploadCall[] live;
    private int liveCount;
    private int next;
    private int open;
    /** First tries of rollback deletes the batch waits for before it finishes. */
    int awaitedDeletes;
    /** Deletes not yet confirmed or given up, and calls given up on that have not returned. */
    int background;
    private boolean stopped;
    private boolean rollback;
    private volatile boolean finished;
    private boolean settled;
    /** The attachment whose failure stopped the batch (or failed first): its failure is the exception's cause. */
    private int firstFailure = -1;
    /** When the batch timeout passes (System.nanoTime); watched by the {@link Sweep}. */
    private final long deadline;
    private boolean deadlineFired;

    Batch(Engine engine, BatchEvent event, BatchCheck checked, ContextPropagator.Captured context, long submitted,
            boolean callerRuns, UploadJournal.@Nullable Entry journal, boolean keepOnCaller, UploadListener listener) {
        this.engine = engine;
        this.listener = listener;
        this.journal = journal;
        this.keepOnCaller = keepOnCaller;
        this.event = event;
        this.attachments = checked.attachments;
        this.keys = checked.keys;
        this.weights = checked.weights;
        this.lengths = checked.lengths;
        this.size = attachments.size();
        this.results = new UploadResult[size];
        this.cancels = new Attempt.Cancel[size];
        this.live = new UploadCall[size];
        this.context = context;
        this.submitted = submitted;
        this.callerRuns = callerRuns;
        // On the caller, one after another; in the pool, up to the per-batch bound at once.
        this.window = callerRuns ? 1 : engine.config.maxConcurrentUploadsPerBatch();
        LinkedBlockingQueue<Runnable> queue = callerRuns ? new LinkedBlockingQueue<>() : null;
        this.callerQueue = queue;
        this.runOn = queue != null ? queue::add : engine.executor;
        this.deadline = submitted + engine.config.batchTimeout().toNanos();
    }

    UploadEvent event(int index) {
        return new UploadEvent(event, index, attachments.get(index), keys[index]);
    }

    /** Whether the batch's future is complete (readable outside the lock). */
    boolean finished() {
        return finished;
    }

    /** The calls offered and not ended: a new list. */
    List<UploadCall> liveCalls() {
        List<UploadCall> calls = new ArrayList<>(liveCount);
        for (int i = 0; i < next && calls.size() < liveCount; i++) {
            if (live[i] != null) {
                calls.add(live[i]);
            }
        }
        return calls;
    }

    /** Admits the batch: its uploads are queued, its deadline runs. */
    void admit(Effects effects) {
        engine.running.add(this);
        if (!callerRuns) {
            engine.queued += size;
        }
        effects.add(() -> Engine.inContext(context, () -> listener.batchStarted(event)));
        engine.sweep.start();
        fill();
        engine.dispatcher.dispatch(effects);
    }

    /** Offers the batch's next attachments to the dispatcher, up to its window. */
    void fill() {
        while (!stopped && open < window && next < size) {
            int index = next++;
            UploadCall call = new UploadCall(engine, this, index);
            open++;
            live[index] = call;
            liveCount++;
            engine.dispatcher.enqueue(call);
        }
    }

    /**
     * Stops the batch: attachments not started end at once with {@code status} and the reason for them; running ones
     * are cancelled; with {@code rollback}, what is stored is deleted again. Stopping again can only add the rollback.
     */
    void stop(IntFunction<Throwable> reasons, Status status, boolean rollback, Effects effects) {
        if (finished) {
            return;
        }
        if (!stopped) {
            stopped = true;
            for (int i = next; i < size; i++) {
                skip(i, reasons.apply(i), status, effects);
            }
            next = size;
            for (UploadCall call : liveCalls()) {
                Throwable reason = reasons.apply(call.index);
                if (call.permit || call.abandoned) {
                    effects.add(() -> call.cancel(reason, status));
                } else {
                    engine.dispatcher.remove(call);
                    open--;
                    live[call.index] = null;
                    liveCount--;
                    skip(call.index, reason, status, effects);
                }
            }
        }
        if (rollback && !this.rollback) {
            this.rollback = true;
            for (int i = 0; i < size; i++) {
                if (results[i] != null && Engine.mustDelete(results[i])) {
                    engine.rollbacks.start(this, i, results[i].storedObject().orElse(null), true, effects);
                }
            }
        }
        engine.dispatcher.dispatch(effects);
        checkDone(effects);
    }

    private void skip(int index, Throwable reason, Status status, Effects effects) {
        results[index] = UploadResult.notStored(index, attachments.get(index), keys[index], status, reason);
        if (!callerRuns) {
            engine.queued--;
        }
        UploadEvent upload = event(index);
        effects.add(() -> Engine.inContext(context, () -> listener.uploadSkipped(upload, reason)));
    }

    /** An upload ended (or was given up on): its result; a failure may stop the batch. */
    void record(UploadResult result, Attempt.@Nullable Cancel cancel, Effects effects) {
        int index = result.index();
        results[index] = result;
        cancels[index] = cancel;
        open--;
        if (live[index] != null) {
            live[index] = null;
            liveCount--;
        }
        // A failure because the batch was stopped (not a timeout of its own) is not a real failure.
        boolean real = result.status() == Status.FAILED && (cancel == null || cancel.status() == Status.FAILED);
        if (real && firstFailure < 0) {
            firstFailure = index;
        }
        if (rollback && Engine.mustDelete(result)) {
            engine.rollbacks.start(this, index, result.storedObject().orElse(null), true, effects);
        } else if (real && engine.policy.stopsOnFailure() && !stopped) {
            CancellationException reason = new CancellationException("cancelled because #" + index + " "
                    + SafeText.quote(result.attachment().fileName()) + " failed");
            stop(i -> reason, Status.CANCELLED, true, effects);
        }
    }

    /** A rollback delete was confirmed: the result says so, if the batch has not reported yet. */
    void deleted(int index, @Nullable StoredObject stored, Effects effects) {
        UploadResult result = results[index];
        if (!finished && result != null) {
            Attempt.Cancel cancel = cancels[index];
            if (result.isStored()) {
                results[index] = result.deleted();
            } else if (result.status() == Status.FAILED && cancel != null
                    && !(result.failure().orElse(null) instanceof UploadStuckException)) {
                // Stopped by the cancel, and what it may have left is gone now: as the cancel says. (A call that is
                // stuck stays failed: it may still store, and the user should hear that it got stuck.)
                results[index] = UploadResult.notStored(index, result.attachment(), result.key(), cancel.status(),
                        cancel.reason());
            }
        }
        if (stored != null) {
            UploadEvent upload = event(index);
            effects.add(() -> Engine.inContext(context, () -> listener.uploadRolledBack(upload, stored, null)));
        }
    }

    /** The first try of a rollback delete failed: the batch's result says why the object is still there. */
    void notDeleted(int index, Throwable failure) {
        if (!finished && results[index] != null) {
            results[index].failure().ifPresent(f -> {
                if (f != failure) {
                    f.addSuppressed(failure);
                }
            });
        }
    }

    /** Finishes the batch once every attachment has a result and no awaited delete runs. */
    void checkDone(Effects effects) {
        if (finished || awaitedDeletes > 0 || next < size || liveCount > 0) {
            return;
        }
        finished = true;
        engine.running.remove(this);
        engine.changed.signalAll();
        BatchResult result = new BatchResult(Arrays.asList(results.clone()));
        if (journal != null && !engine.policy.fails(result)) {
            List<String> stored = new ArrayList<>();
            result.storedObjects().forEach(object -> stored.add(object.key()));
            kept = stored.isEmpty() ? null : List.copyOf(stored);
        }
        Throwable cause = firstFailure < 0 ? null : results[firstFailure].failure().orElse(null);
        effects.add(() -> Engine.inContext(context, () -> complete(result, cause)));
        checkSettled(effects);
    }

    /** Frees the batch's keys once nothing of it runs any more. */
    void checkSettled(Effects effects) {
        if (!finished || settled || background > 0) {
            return;
        }
        settled = true;
        UploadJournal.Entry entry = journal;
        if (entry != null && kept == null) {
            boolean confirmed = !deletesAbandoned;
            effects.add(() -> forget(entry, event, confirmed ? null
                    : new UploadException("a delete that undoes it was given up", null)));
        }
        engine.dispatcher.releaseKeys(this);
        engine.dispatcher.dispatch(effects);
        engine.changed.signalAll();
    }

    /**
     * Tells the journal the batch keeps nothing: with a {@code failure} (a delete given up, or the batch never
     * admitted after all), the journal removes its keys itself. Never throws: the journal's lease covers a failure.
     */
    static void forget(UploadJournal.Entry entry, BatchEvent event, @Nullable Throwable failure) {
        try {
            entry.settled(failure == null);
        } catch (RuntimeException e) {
            Engine.LOG.error("uploader '{}': could not settle {} in the upload journal; the journal removes its keys"
                    + " when its lease ends: {}", event.uploaderName(), event, SafeText.describe(e));
        }
    }

    /**
     * Keeps what the batch stored, in the journal if there is one; on {@code uploadAll}'s caller, so that a journal
     * can write it in the caller's transaction.
     *
     * @throws UploadException when the journal cannot keep the batch: it removes the objects itself
     */
    void keep() {
        List<String> keys = kept;
        UploadJournal.Entry entry = journal;
        if (entry == null || keys == null) {
            return;
        }
        try {
            entry.keep(keys);
        } catch (RuntimeException e) {
            throw new UploadException(event + " stored its attachments, but the upload journal could not keep them,"
                    + " so it removes them again: " + SafeText.describe(e), e);
        }
    }

    private void complete(BatchResult result, @Nullable Throwable cause) {
        UploadException notKept = null;
        if (!keepOnCaller) {
            try {
                keep();
            } catch (UploadException e) {
                notKept = e;
            }
        }
        listener.batchFinished(event, result, Duration.ofNanos(System.nanoTime() - submitted));
        if (notKept != null) {
            done.completeExceptionally(notKept);
        } else if (engine.policy.fails(result)) {
            done.completeExceptionally(new BatchFailedException(engine.name, result, cause));
        } else {
            done.complete(result);
        }
        if (callerQueue != null) {
            callerQueue.add(WAKE_UP);
        }
    }

    /** Under the lock, for the {@link Sweep}: whether the batch timeout has passed (true once). */
    boolean deadlinePassed(long now) {
        if (!deadlineFired && now - deadline >= 0) {
            deadlineFired = true;
            return true;
        }
        return false;
    }

    void deadlinePassed() {
        Effects effects = new Effects();
        engine.lock.lock();
        try {
            stop(i -> new UploadTimeoutException(SafeText.label(i, attachments.get(i).fileName())
                            + " did not finish within the batch timeout of " + engine.config.batchTimeout()),
                    Status.FAILED, engine.policy.rollsBackWhenStopped(), effects);
        } finally {
            engine.lock.unlock();
        }
        effects.run();
    }

    /** Stops the batch for the caller (its future was cancelled, its thread interrupted) and rolls it back. */
    void cancel(CancellationException reason) {
        Effects effects = new Effects();
        engine.lock.lock();
        try {
            stop(i -> reason, Status.CANCELLED, true, effects);
        } finally {
            engine.lock.unlock();
        }
        effects.run();
    }

    /** {@link RejectionPolicy#CALLER_RUNS}: the submitting thread runs the batch's calls until it is done. */
    void drainOnCaller() {
        LinkedBlockingQueue<Runnable> callerQueue = Objects.requireNonNull(this.callerQueue, "not a caller-runs batch");
        boolean interrupted = false;
        while (!done.isDone()) {
            try {
                callerQueue.take().run();
            } catch (InterruptedException e) {
                interrupted = true;
                cancel(new CancellationException("the calling thread was interrupted"));
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return event.toString();
    }
}
