package io.github.boundedupload.internal;

import io.github.boundedupload.BatchResult;
import io.github.boundedupload.BatchTakenOverException;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploadTimeoutException;
import io.github.boundedupload.internal.step.Effects;
import io.github.boundedupload.internal.step.InContext;
import io.github.boundedupload.internal.step.StepLock;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.ContextPropagator;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.support.SafeText;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * One batch: its {@link Upload}s, a {@link Window} that offers at most {@code maxConcurrentUploadsPerBatch} of them at a
 * time to the {@link CallQueue}, and its outcome; under {@link FailurePolicy#ALL_OR_NOTHING} the first failure stops the
 * batch and rolls it back ({@link Policy}); in a batch that keeps what it stored, an upload of unknown outcome is
 * deleted as a rollback deletes, unless the application keeps unknown outcomes. Changes when what happens to a batch as
 * a whole changes.
 *
 * <p>A batch <em>finishes</em> (its future completes) when every upload has a result and the first try of each delete
 * it waits for has ended; it is <em>settled</em> when nothing of it runs in the backgroundWork any more (deletes being
 * retried, calls given up on that have not returned): its results are final then ({@link Settlement}). Its keys stay
 * its own until it is settled. Work over every upload (skipping those a
 * stop leaves, starting their rollback, freeing their keys) runs in slices ({@link StepLock#inSlices}), and the batch
 * finishes only after the last. State is guarded by the step lock unless marked otherwise. It is the one writer of its
 * state: its uploads, deletes, rollbacks and settlement report to it through its methods.
 */
final class Batch {

    final Engine engine;
    final BatchEvent event;
    final Upload[] uploads;
    final ContextPropagator.Captured context;
    final long submitted;
    final boolean callerRuns;
    final Executor runOn;
    /** Under {@code CALLER_RUNS}: the submitting thread, which runs the batch's calls until it is done. */
    final @Nullable CallerRuns caller;
    final CompletableFuture<BatchResult> done = new CompletableFuture<>();
    /** What background work does to the results after they were recorded, and the report once settled. */
    final Settlement settlement = new Settlement(this);
    /** The uploader's listeners, and the batch's own after them. */
    final UploadListener listener;
    /** The batch in the journal, or {@link JournalRecord#NONE}: asked whether the batch may still act on the storage. */
    final JournalRecord journal;
    /** Whether {@code uploadAll}'s caller keeps the batch in the journal ({@link Settlement#keepInJournal()}), on its thread. */
    final boolean keepOnCaller;
    /** When the batch timeout passes ({@link Ticker#nanoTime()}); watched by the {@link Sweep}. */
    private final long deadline;
    volatile boolean finished;
    // Guarded by the step lock:
    private final Window window;
    /** Whole-batch work running in slices; the batch does not finish before it is done. */
    private int slicing;
    /** Uploads whose result says stored now. */
    private int stored;
    /** First tries of rollback deletes the batch waits for before it finishes. */
    private int awaitedDeletes;
    /** Deletes not yet confirmed or given up, and calls given up on that have not returned. */
    private int backgroundWork;
    /**
     * Whether a key may still hold something nothing here removes (a delete given up, an unknown outcome kept): the
     * journal must then remove the batch's keys itself.
     */
    private boolean objectsMayRemain;
    private boolean stopped;
    private boolean rollback;
    private boolean settled;
    /** Whether the finished batch keeps what it stored (in the journal): then it is not forgotten when settled. */
    private boolean keepsStored;
    /** The upload whose failure stopped the batch (or failed first): its failure is the exception's cause. */
    private @Nullable Upload firstFailure;
    private boolean deadlineFired;

    /** Outside the lock: the batch and its uploads, not yet admitted. */
    Batch(Engine engine, BatchEvent event, List<BatchCheck.Checked> checked, ContextPropagator.Captured context,
            long submitted, boolean callerRuns, @Nullable JournalRecord journal, boolean keepOnCaller,
            UploadListener listener) {
        this.engine = engine;
        this.event = event;
        this.context = context;
        this.submitted = submitted;
        this.callerRuns = callerRuns;
        this.journal = journal != null ? journal : JournalRecord.NONE;
        this.keepOnCaller = keepOnCaller;
        this.listener = listener;
        this.deadline = submitted + engine.config.batchTimeout().toNanos();
        this.caller = callerRuns ? new CallerRuns() : null;
        this.runOn = caller != null ? caller : engine.executor;
        this.uploads = new Upload[checked.size()];
        for (int i = 0; i < uploads.length; i++) {
            uploads[i] = new Upload(this, i, checked.get(i));
        }
        // On the caller, one after another; in the pool, up to the per-batch bound at once.
        this.window = new Window(uploads, callerRuns ? 1 : engine.config.maxConcurrentUploadsPerBatch());
    }

    /** Whether the batch's future is complete (readable outside the lock). */
    boolean finished() {
        return finished;
    }

    /** Under the lock: the batch runs; unless it runs on its caller, its uploads take their places in the queue. */
    void admit(boolean placesTaken, Effects effects) {
        engine.running.add(this);
        if (!callerRuns && !placesTaken) {
            engine.queue.reservePlaces(uploads.length);
        }
        effects.add(() -> InContext.run(context, () -> listener.batchStarted(event)));
        engine.sweep.start();
        fill();
    }

    /** Offers the batch's next uploads to the queue, up to its window. */
    private void fill() {
        if (!stopped) {
            window.fill(engine.queue);
        }
    }

    /**
     * Under the lock: work of the batch in the backgroundWork started ({@code +1}: a call given up on, a delete) or ended
     * ({@code -1}: the call returned, the delete was confirmed or given up).
     */
    void backgroundWork(int change) {
        backgroundWork += change;
    }

    /** Under the lock: the batch waits for the first try of one more delete ({@code +1}), or it ended ({@code -1}). */
    void awaitedDeletes(int change) {
        awaitedDeletes += change;
    }

    /** Under the lock: a key may still hold something nothing here removes (a delete given up). */
    void objectsMayRemain() {
        objectsMayRemain = true;
    }

    /** Under the lock: what a delete did changes an upload's result (the reported one, or after the finish the settled one). */
    void changeResult(Upload upload, UploadResult result) {
        UploadResult before = upload.currentResult();
        if (before != null && before.isStored() && !result.isStored()) {
            stored--;
        }
        upload.changeResult(result, finished);
    }

    /**
     * Stops the batch: uploads not started end at once with {@code status} and the reason for them; running ones are
     * cancelled; with {@code rollback}, what is stored is deleted again. Stopping again can only add the rollback.
     * Under the lock, whatever the batch's size: the uploads it leaves are skipped in slices.
     */
    void stop(IntFunction<Throwable> reasons, Status status, boolean rollback, Effects effects) {
        if (finished) {
            return;
        }
        if (!stopped) {
            stopped = true;
            int from = window.close();
            if (!callerRuns) {
                engine.queue.freePlaces(uploads.length - from); // never offered: they will never start
            }
            // Backwards: taking one out of the list moves the last one, already seen, into its place.
            for (int i = window.liveCount() - 1; i >= 0; i--) {
                Upload upload = window.live(i);
                Throwable reason = reasons.apply(upload.index);
                if (upload.holdsPermit() || upload.abandoned) {
                    effects.add(() -> upload.cancel(reason, status));
                } else {
                    engine.queue.remove(upload);
                    window.remove(upload);
                    skip(upload, reason, status, effects);
                }
            }
            inSlices(from, uploads.length, (upload, slice) -> skip(upload, reasons.apply(upload.index), status,
                    slice), effects);
        }
        if (rollback && !this.rollback) {
            this.rollback = true;
            inSlices(0, window.offered(), (upload, slice) -> {
                UploadResult result = upload.result();
                if (result != null && !upload.rollingBack() && Rollbacks.mustDelete(result)) {
                    upload.rollBack();
                    engine.rollbacks.start(upload, result.storedObject().orElse(null), true, slice);
                }
            }, effects);
        }
        checkDone(effects);
    }

    /** Per-upload work of a whole-batch step. */
    @FunctionalInterface
    private interface EachUpload {
        void accept(Upload upload, Effects effects);
    }

    /**
     * Runs {@code each} over the uploads of places {@code from} to {@code to} in the window's order, in slices; the
     * batch waits for the last.
     */
    private void inSlices(int from, int to, EachUpload each, Effects effects) {
        if (from >= to) {
            return;
        }
        slicing++;
        int[] cursor = {from};
        engine.steps.inSlices(slice -> {
            int end = Math.min(to, cursor[0] + StepLock.SLICE);
            for (int i = cursor[0]; i < end; i++) {
                each.accept(window.inOfferOrder(i), slice);
            }
            cursor[0] = end;
            if (end < to) {
                return true;
            }
            slicing--;
            checkDone(slice);
            return false;
        }, effects);
    }

    private void skip(Upload upload, Throwable reason, Status status, Effects effects) {
        upload.recorded(UploadResult.notStored(upload.index, upload.attachment, upload.key, status, reason), null);
        UploadEvent skipped = upload.event();
        effects.add(() -> InContext.run(context, () -> listener.uploadSkipped(skipped, reason)));
    }

    /** Records an upload's result (answered, or given up on); a failure may stop the batch; the window moves on. */
    void record(Upload upload, UploadResult result, Attempt.@Nullable Cancel cancel, Effects effects) {
        upload.recorded(result, cancel);
        window.remove(upload);
        if (result.isStored()) {
            stored++;
        }
        // A failure because the batch was stopped (not a timeout of its own) is not a real failure. An object stored
        // after the batch was taken over is left to the journal, which removes it: the batch keeps nothing then.
        boolean takenOver = result.status() == Status.POSSIBLY_STORED;
        objectsMayRemain |= takenOver;
        boolean real = (result.status() == Status.FAILED || takenOver)
                && (cancel == null || cancel.status() == Status.FAILED);
        if (real && firstFailure == null) {
            firstFailure = upload;
        }
        if (rollback && Rollbacks.mustDelete(result)) {
            upload.rollBack();
            engine.rollbacks.start(upload, result.storedObject().orElse(null), true, effects);
        } else if (real && engine.policy.stopsOnFailure() && !stopped) {
            CancellationException reason = new CancellationException("cancelled because #" + upload.index + " "
                    + SafeText.quote(upload.attachment.fileName()) + " failed");
            stop(i -> reason, Status.CANCELLED, true, effects);
        } else if (Rollbacks.unknownOutcome(result)) {
            // Kept batch, unknown outcome: FAILED must mean nothing stored, so its key goes as a rollback's would.
            if (engine.config.keepUnknownOutcomes()) {
                upload.recorded(result.possiblyStored(result.failure().orElseThrow()), cancel);
                objectsMayRemain = true;
            } else {
                upload.rollBack();
                engine.rollbacks.start(upload, null, true, effects);
            }
        }
        fill();
        checkDone(effects);
    }

    /**
     * Under the lock, at the end of {@code close()}: a call of this batch that got stuck will not be waited for any
     * more; the batch settles for its caller now.
     */
    void abandonedAtClose(Call call, Effects effects) {
        objectsMayRemain = true;
        settlement.abandoned(call, effects);
    }

    /** Finishes the batch once every upload has a result, no slice is left and no awaited delete runs. */
    void checkDone(Effects effects) {
        if (finished || awaitedDeletes > 0 || !window.empty() || slicing > 0) {
            return;
        }
        finished = true;
        settlement.finishing(backgroundWork == 0);
        engine.running.remove(this);
        engine.completing.add(this);
        engine.steps.signalAll();
        boolean fails = engine.policy.fails(stored, uploads.length);
        keepsStored = journal != JournalRecord.NONE && !fails && stored > 0;
        Upload cause = firstFailure;
        // Outside the lock: the results no longer change once the batch is finished.
        effects.add(() -> InContext.run(context, () -> complete(fails, cause)));
        checkSettled(effects);
    }

    /** Frees the batch's keys (in slices) once nothing of it runs any more. */
    void checkSettled(Effects effects) {
        if (!finished || settled || backgroundWork > 0) {
            return;
        }
        settled = true;
        settlement.settle(effects);
        if (!keepsStored && journal != JournalRecord.NONE) {
            boolean confirmed = !objectsMayRemain;
            effects.add(() -> journal.forget(confirmed ? null
                    : new UploadException("a delete that undoes it was given up", null)));
        }
        // The first slice's keys are freed in this step, before the caller learns the batch finished (an effect), so
        // that its next batch for the same keys starts at once instead of waiting aside; the rest in steps of their own.
        int offered = window.offered();
        int now = Math.min(offered, StepLock.SLICE);
        for (int i = 0; i < now; i++) {
            engine.queue.releaseKey(window.inOfferOrder(i).key, this);
        }
        inSlices(now, offered, (upload, slice) -> engine.queue.releaseKey(upload.key, this), effects);
        engine.steps.signalAll();
    }

    private void complete(boolean fails, @Nullable Upload cause) {
        try {
            settlement.reportFinished(fails, keepsStored, cause);
        } finally {
            engine.completing.remove(this);
        }
    }

    /** Under the lock, for the {@link Sweep}: whether the batch timeout has passed (true once). */
    boolean deadlineDue(long now) {
        if (!deadlineFired && now - deadline >= 0) {
            deadlineFired = true;
            return true;
        }
        return false;
    }

    /** The batch timeout passed: what is not done fails, and under all-or-nothing what is stored is deleted. */
    void timeOut() {
        engine.steps.run(effects -> stop(i -> new UploadTimeoutException(SafeText.label(i,
                uploads[i].attachment.fileName()) + " did not finish within the batch timeout of "
                + engine.config.batchTimeout()), Status.FAILED, engine.policy.rollsBackWhenStopped(), effects));
    }

    /**
     * The journal took the batch over (this process was paused, or cut off from the journal's database): its calls in
     * flight stop now, and what it stored is left to the journal, which removes it.
     */
    void takenOver() {
        BatchTakenOverException reason = new BatchTakenOverException(event + " is no longer this process's: the"
                + " upload journal took it over");
        engine.steps.run(effects -> stop(i -> reason, Status.FAILED, true, effects));
    }

    /** Stops the batch for the caller (its future was cancelled, its thread interrupted) and rolls it back. */
    void cancel(CancellationException reason) {
        engine.steps.run(effects -> stop(i -> reason, Status.CANCELLED, true, effects));
    }

    /** {@link CallerRuns}: the submitting thread runs the batch's calls until it is done. */
    void drainOnCaller() {
        Objects.requireNonNull(caller, "not a caller-runs batch").drain(done, this::cancel);
    }

    @Override
    public String toString() {
        return event.toString();
    }
}
