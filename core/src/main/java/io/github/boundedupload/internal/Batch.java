package io.github.boundedupload.internal;

import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.BatchTakenOverException;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploadTimeoutException;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.ContextPropagator;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.support.SafeText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * One batch: its {@link Upload}s, a window that offers at most {@code maxConcurrentUploadsPerBatch} of them at a time
 * to the {@link Dispatcher}, and its outcome; under {@link FailurePolicy#ALL_OR_NOTHING} the first failure stops the
 * batch and rolls it back ({@link Policy}); in a batch that keeps what it stored, an upload of unknown outcome is
 * deleted as a rollback deletes, unless the application keeps unknown outcomes. Changes when what happens to a batch as
 * a whole changes.
 *
 * <p>A batch <em>finishes</em> (its future completes) when every upload has a result and the first try of each delete
 * it waits for has ended; it is <em>settled</em> when nothing of it runs in the background any more (deletes being
 * retried, calls given up on that have not returned): its results are final then ({@link Settlement}). Its keys stay
 * its own until it is settled. Work over every upload (skipping those a
 * stop leaves, starting their rollback, freeing their keys) runs in slices ({@link Dispatcher#inSlices}), and the batch
 * finishes only after the last. State is guarded by the dispatcher's lock unless marked otherwise.
 */
final class Batch {

    final Engine engine;
    final BatchEvent event;
    final Upload[] uploads;
    final ContextPropagator.Captured context;
    final long submitted;
    final boolean callerRuns;
    final Executor runOn;
    private final @Nullable CallerRuns caller;
    final CompletableFuture<BatchResult> done = new CompletableFuture<>();
    /** What background work does to the results after they were recorded, and the report once settled. */
    final Settlement settlement = new Settlement(this);
    /** The uploader's listeners, and the batch's own after them. */
    final UploadListener listener;
    /** The batch in the journal, if the uploader has one. */
    private final @Nullable JournalRecord journal;
    /** Whether {@code uploadAll}'s caller keeps the batch in the journal ({@link #keep()}), on its own thread. */
    private final boolean keepOnCaller;
    /** When the batch timeout passes (System.nanoTime); watched by the {@link Sweep}. */
    private final long deadline;
    /** Once finished: the keys the result keeps, or null when it keeps nothing. */
    private volatile @Nullable List<String> kept;
    volatile boolean finished;
    // Guarded by the dispatcher's lock:
    /** The uploads offered to the dispatcher and not ended, {@link #liveCount} of them, in no order. */
    private final Upload[] live;
    private int liveCount;
    /** The window's cursor: uploads before it were offered, or skipped by a stop. */
    private int next;
    /** How many uploads were ever offered: those a rollback or the release of keys must look at. */
    private int offered;
    /** Whole-batch work running in slices; the batch does not finish before it is done. */
    private int slicing;
    /** Uploads whose result says stored now. */
    int stored;
    /** First tries of rollback deletes the batch waits for before it finishes. */
    int awaitedDeletes;
    /** Deletes not yet confirmed or given up, and calls given up on that have not returned. */
    int background;
    /**
     * Whether a key may still hold something nothing here removes (a delete given up, an unknown outcome kept): the
     * journal must then remove the batch's keys itself.
     */
    boolean leftBehind;
    private boolean stopped;
    private boolean rollback;
    private boolean settled;
    /** Whether the finished batch keeps what it stored (in the journal): then it is not forgotten when settled. */
    private boolean keeps;
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
        this.journal = journal;
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
        this.live = new Upload[Math.min(uploads.length, callerRuns ? 1 : engine.config.maxConcurrentUploadsPerBatch())];
    }

    /** Whether the batch's future is complete (readable outside the lock). */
    boolean finished() {
        return finished;
    }

    /** Under the lock: the batch runs; unless it runs on its caller, its uploads take their places in the queue. */
    void admit(boolean placesTaken, Effects effects) {
        engine.running.add(this);
        if (!callerRuns && !placesTaken) {
            engine.dispatcher.addQueued(uploads.length);
        }
        effects.add(() -> InContext.run(context, () -> listener.batchStarted(event)));
        engine.sweep.start();
        fill();
    }

    /** Offers the batch's next uploads to the dispatcher, up to its window. */
    private void fill() {
        while (!stopped && liveCount < live.length && next < uploads.length) {
            Upload upload = uploads[next++];
            offered = next;
            upload.liveSlot = liveCount;
            live[liveCount++] = upload;
            engine.dispatcher.enqueue(upload);
        }
    }

    private void removeLive(Upload upload) {
        int slot = upload.liveSlot;
        if (slot >= 0) {
            Upload last = live[--liveCount];
            live[slot] = last;
            last.liveSlot = slot;
            live[liveCount] = null;
            upload.liveSlot = -1;
        }
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
            int from = next;
            next = uploads.length;
            if (!callerRuns) {
                engine.dispatcher.removeQueued(uploads.length - from); // never offered: they will never start
            }
            // Backwards: taking one out of the list moves the last one, already seen, into its place.
            for (int i = liveCount - 1; i >= 0; i--) {
                Upload upload = live[i];
                Throwable reason = reasons.apply(upload.index);
                if (upload.permit || upload.abandoned) {
                    effects.add(() -> upload.cancel(reason, status));
                } else {
                    engine.dispatcher.remove(upload);
                    removeLive(upload);
                    skip(upload, reason, status, effects);
                }
            }
            inSlices(from, uploads.length, (upload, slice) -> skip(upload, reasons.apply(upload.index), status,
                    slice), effects);
        }
        if (rollback && !this.rollback) {
            this.rollback = true;
            inSlices(0, offered, (upload, slice) -> {
                UploadResult result = upload.result;
                if (result != null && !upload.rollingBack && Rollbacks.mustDelete(result)) {
                    upload.rollingBack = true;
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

    /** Runs {@code each} over the uploads from {@code from} to {@code to} in slices; the batch waits for the last. */
    private void inSlices(int from, int to, EachUpload each, Effects effects) {
        if (from >= to) {
            return;
        }
        slicing++;
        int[] cursor = {from};
        engine.dispatcher.inSlices(slice -> {
            int end = Math.min(to, cursor[0] + Dispatcher.SLICE);
            for (int i = cursor[0]; i < end; i++) {
                each.accept(uploads[i], slice);
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
        upload.result = UploadResult.notStored(upload.index, upload.attachment, upload.key, status, reason);
        UploadEvent skipped = upload.event();
        effects.add(() -> InContext.run(context, () -> listener.uploadSkipped(skipped, reason)));
    }

    /** Records an upload's result (answered, or given up on); a failure may stop the batch; the window moves on. */
    void record(Upload upload, UploadResult result, Attempt.@Nullable Cancel cancel, Effects effects) {
        upload.result = result;
        upload.cancel = cancel;
        removeLive(upload);
        if (result.isStored()) {
            stored++;
        }
        // A failure because the batch was stopped (not a timeout of its own) is not a real failure. An object stored
        // after the batch was taken over is left to the journal, which removes it: the batch keeps nothing then.
        boolean takenOver = result.status() == Status.POSSIBLY_STORED;
        leftBehind |= takenOver;
        boolean real = (result.status() == Status.FAILED || takenOver)
                && (cancel == null || cancel.status() == Status.FAILED);
        if (real && firstFailure == null) {
            firstFailure = upload;
        }
        if (rollback && Rollbacks.mustDelete(result)) {
            upload.rollingBack = true;
            engine.rollbacks.start(upload, result.storedObject().orElse(null), true, effects);
        } else if (real && engine.policy.stopsOnFailure() && !stopped) {
            CancellationException reason = new CancellationException("cancelled because #" + upload.index + " "
                    + SafeText.quote(upload.attachment.fileName()) + " failed");
            stop(i -> reason, Status.CANCELLED, true, effects);
        } else if (Rollbacks.unknownOutcome(result)) {
            // Kept batch, unknown outcome: FAILED must mean nothing stored, so its key goes as a rollback's would.
            if (engine.config.keepUnknownOutcomes()) {
                upload.result = result.possiblyStored(result.failure().orElseThrow());
                leftBehind = true;
            } else {
                upload.rollingBack = true;
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
        leftBehind = true;
        settlement.abandoned(call, effects);
    }

    /** Finishes the batch once every upload has a result, no slice is left and no awaited delete runs. */
    void checkDone(Effects effects) {
        if (finished || awaitedDeletes > 0 || next < uploads.length || liveCount > 0 || slicing > 0) {
            return;
        }
        finished = true;
        settlement.finishing(background == 0);
        engine.running.remove(this);
        engine.completing.add(this);
        engine.dispatcher.signalAll();
        boolean fails = engine.policy.fails(stored, uploads.length);
        keeps = journal != null && !fails && stored > 0;
        Upload cause = firstFailure;
        // Outside the lock: the results no longer change once the batch is finished.
        effects.add(() -> InContext.run(context, () -> complete(fails, cause)));
        checkSettled(effects);
    }

    /** Frees the batch's keys (in slices) once nothing of it runs any more. */
    void checkSettled(Effects effects) {
        if (!finished || settled || background > 0) {
            return;
        }
        settled = true;
        settlement.settle(effects);
        JournalRecord record = journal;
        if (record != null && !keeps) {
            boolean confirmed = !leftBehind;
            effects.add(() -> record.forget(confirmed ? null
                    : new UploadException("a delete that undoes it was given up", null)));
        }
        // The first slice's keys are freed in this step, before the caller learns the batch finished (an effect), so
        // that its next batch for the same keys starts at once instead of waiting aside; the rest in steps of their own.
        int now = Math.min(offered, Dispatcher.SLICE);
        for (int i = 0; i < now; i++) {
            engine.dispatcher.releaseKey(uploads[i].key, this);
        }
        inSlices(now, offered, (upload, slice) -> engine.dispatcher.releaseKey(upload.key, this), effects);
        engine.dispatcher.signalAll();
    }

    /**
     * Whether the batch may still act on the storage: always without a journal; with one, while the journal says this
     * process owns it. Asked before each upload and delete; not under the lock (a journal may ask its database).
     */
    boolean owned() {
        JournalRecord record = journal;
        return record == null || record.owned();
    }

    /** Whether an upload of the batch may write {@code key} now: see {@link JournalRecord#writing}. */
    boolean writing(String key) {
        JournalRecord record = journal;
        return record == null || record.writing(key);
    }

    /** Whether an object an upload of the batch stored is the batch's: see {@link JournalRecord#stored}. */
    boolean owns(StoredObject stored) {
        JournalRecord record = journal;
        return record == null || record.stored(stored);
    }

    /**
     * Keeps what the batch stored, in the journal if there is one; on {@code uploadAll}'s caller, so that a journal
     * can write it in the caller's transaction.
     *
     * @throws UploadException when the journal cannot keep the batch: it removes the objects itself
     */
    void keep() {
        List<String> keys = kept;
        JournalRecord record = journal;
        if (record != null && keys != null) {
            record.keep(keys);
        }
    }

    private void complete(boolean fails, @Nullable Upload cause) {
        try {
            report(fails, cause);
        } finally {
            engine.completing.remove(this);
        }
    }

    private void report(boolean fails, @Nullable Upload cause) {
        List<UploadResult> results = new ArrayList<>(uploads.length);
        List<String> keys = keeps ? new ArrayList<>() : null;
        for (Upload upload : uploads) {
            UploadResult result = Objects.requireNonNull(upload.result, "a finished batch has every result");
            results.add(result);
            if (keys != null && result.isStored()) {
                keys.add(upload.key);
            }
        }
        BatchResult result = settlement.finishedResult(results);
        kept = keys == null ? null : List.copyOf(keys);
        UploadException notKept = null;
        if (!keepOnCaller) {
            try {
                keep();
            } catch (UploadException e) {
                notKept = e;
            }
        }
        listener.batchFinished(event, result, Duration.ofNanos(System.nanoTime() - submitted));
        settlement.reportedFinished(result);
        if (notKept != null) {
            done.completeExceptionally(notKept);
        } else if (fails) {
            UploadResult first = cause == null ? null : cause.result;
            done.completeExceptionally(new BatchFailedException(engine.name, result,
                    first == null ? null : first.failure().orElse(null)));
        } else {
            done.complete(result);
        }
        if (caller != null) {
            caller.wakeUp();
        }
        settlement.afterReport();
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
        engine.dispatcher.run(effects -> stop(i -> new UploadTimeoutException(SafeText.label(i,
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
        engine.dispatcher.run(effects -> stop(i -> reason, Status.FAILED, true, effects));
    }

    /** Stops the batch for the caller (its future was cancelled, its thread interrupted) and rolls it back. */
    void cancel(CancellationException reason) {
        engine.dispatcher.run(effects -> stop(i -> reason, Status.CANCELLED, true, effects));
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
