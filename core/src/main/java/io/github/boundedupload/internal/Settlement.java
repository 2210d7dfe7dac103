package io.github.boundedupload.internal;

import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploadStuckException;
import io.github.boundedupload.internal.step.Effects;
import io.github.boundedupload.internal.step.InContext;
import io.github.boundedupload.spi.UploadEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link Batch}'s background work (deletes confirmed, retried or given up; calls given up at close) does to its
 * results after they were recorded, and the two reports of them: at the finish, where a result never says what is
 * about to change (an object still being deleted is DELETING, not STORED), and once settled, when they are final
 * ({@code BatchResult.settled()}). Changes when what a result says while its batch's background work runs changes, or
 * what a report of the batch holds. Guarded by the step lock unless marked otherwise.
 */
final class Settlement {

    private final Batch batch;
    /** Completes once the batch is settled, with its final results: {@code BatchResult.settled()}. */
    private final CompletableFuture<BatchResult> settledResult = new CompletableFuture<>();
    /** Completes once the finished batch has been reported, so that its settled result is reported after it. */
    private final CompletableFuture<Void> reported = new CompletableFuture<>();
    /** The result reported at the finish; set before {@link #reported} completes. */
    private volatile @Nullable BatchResult finishedResult;
    /** Once finished: the keys the result keeps, or null when it keeps nothing. */
    private volatile @Nullable List<String> keysToKeep;
    /** Whether the results are final (settled, or given up at close): nothing changes them any more. */
    private boolean resultsFinal;
    /** Whether the batch was settled in the step that finished it: its first result is its settled one. */
    private boolean settledAtFinish;

    Settlement(Batch batch) {
        this.batch = batch;
    }

    /** A delete was confirmed: the result says so, until the results are final. */
    void deleted(Upload upload, @Nullable StoredObject deleted, Effects effects) {
        UploadResult result = upload.currentResult();
        if (!resultsFinal && result != null) {
            Attempt.Cancel cancel = upload.cancel();
            Throwable failure = result.failure().orElse(null);
            if (result.storedObject().isPresent()
                    && (result.status() == Status.STORED || result.status() == Status.DELETING)) {
                batch.changeResult(upload, result.deleted());
            } else if ((result.status() == Status.FAILED || result.status() == Status.DELETING) && failure != null) {
                // What it may have left is gone now. Stopped by a cancel: as the cancel says. (A call that got stuck
                // stays failed: the user should hear that it got stuck.)
                batch.changeResult(upload, cancel != null && !(failure instanceof UploadStuckException)
                        ? UploadResult.notStored(upload.index, upload.attachment, upload.key, cancel.status(),
                                cancel.reason())
                        : UploadResult.notStored(upload.index, upload.attachment, upload.key, Status.FAILED, failure));
            }
        }
        if (deleted != null) {
            UploadEvent event = upload.event();
            effects.add(() -> InContext.run(batch.context, () -> batch.listener.uploadRolledBack(event, deleted, null)));
        }
    }

    /**
     * A try of a delete failed and another follows: the result says the object is being deleted (never that it is
     * stored), and, at the first try, why it is not deleted yet.
     */
    void stillDeleting(Upload upload, Throwable failure, boolean firstTry) {
        UploadResult result = upload.currentResult();
        if (resultsFinal || result == null) {
            return;
        }
        if (firstTry) {
            result.failure().ifPresent(f -> {
                if (f != failure) {
                    f.addSuppressed(failure);
                }
            });
        }
        if (result.status() == Status.STORED || result.status() == Status.FAILED) {
            batch.changeResult(upload, result.deleting(failure));
        }
    }

    /** A delete was given up: the result says the key may still hold what the upload stored. */
    void deleteGivenUp(Upload upload, Throwable failure) {
        batch.objectsMayRemain();
        UploadResult result = upload.currentResult();
        if (resultsFinal || result == null || result.status() == Status.DELETED
                || result.status() == Status.POSSIBLY_STORED) {
            return;
        }
        batch.changeResult(upload, result.possiblyStored(failure));
    }

    /** A call given up at close: an upload's attachment may be stored when it returns (POSSIBLY_STORED). */
    void abandoned(Call call, Effects effects) {
        if (call instanceof Upload) {
            Upload upload = (Upload) call;
            UploadResult result = upload.currentResult();
            if (!resultsFinal && result != null
                    && (result.status() == Status.FAILED || result.status() == Status.DELETING)) {
                batch.changeResult(upload, result.possiblyStored(result.failure().orElseThrow()));
            }
        }
        if (batch.finished) {
            settle(effects);
        }
    }

    /** Under the lock, as the batch finishes: whether nothing of it runs in the background any more. */
    void finishing(boolean settledNow) {
        settledAtFinish = settledNow;
    }

    /**
     * Under the lock: the results are final from now on; the settled result is reported after the finished one (at
     * once, by {@link #reportFinished}, when the batch settled as it finished).
     */
    void settle(Effects effects) {
        if (resultsFinal) {
            return;
        }
        resultsFinal = true;
        if (!settledAtFinish) {
            effects.add(() -> reported.thenRun(() -> InContext.run(batch.context, this::reportSettled)));
        }
    }

    /** Outside the lock, once settled: the final results (the finished ones, when nothing changed). */
    private void reportSettled() {
        BatchResult first = Objects.requireNonNull(finishedResult, "reported before settled");
        List<UploadResult> results = new ArrayList<>(batch.uploads.length);
        boolean changed = false;
        for (Upload upload : batch.uploads) {
            UploadResult result = Objects.requireNonNull(upload.currentResult(), "a settled batch has every result");
            changed |= result != first.results().get(upload.index);
            results.add(result);
        }
        BatchResult settled = changed ? new BatchResult(results) : first;
        batch.listener.batchSettled(batch.event, settled);
        settledResult.complete(settled);
    }

    /**
     * Keeps what the batch stored, in the journal if there is one; on {@code uploadAll}'s caller, so that a journal
     * can write it in the caller's transaction.
     *
     * @throws UploadException when the journal cannot keep the batch: it removes the objects itself
     */
    void keepInJournal() {
        List<String> keys = keysToKeep;
        if (keys != null) {
            batch.journal.keep(keys);
        }
    }

    /**
     * Outside the lock, once the batch finished (its results no longer change): reports it to the listeners and
     * completes its future, with a result that promises the settled one when that may still change.
     *
     * @param fails whether the failure policy fails the batch
     * @param keeps whether it keeps what it stored, in the journal
     * @param cause the upload whose failure stopped the batch (or failed first)
     */
    void reportFinished(boolean fails, boolean keeps, @Nullable Upload cause) {
        List<UploadResult> results = new ArrayList<>(batch.uploads.length);
        List<String> keys = keeps ? new ArrayList<>() : null;
        for (Upload upload : batch.uploads) {
            UploadResult result = Objects.requireNonNull(upload.result(), "a finished batch has every result");
            results.add(result);
            if (keys != null && result.isStored()) {
                keys.add(upload.key);
            }
        }
        BatchResult result = settledAtFinish ? new BatchResult(results)
                : new BatchResult(results, settledResult.minimalCompletionStage());
        finishedResult = result;
        keysToKeep = keys == null ? null : List.copyOf(keys);
        UploadException notKept = null;
        if (!batch.keepOnCaller) {
            try {
                keepInJournal();
            } catch (UploadException e) {
                notKept = e;
            }
        }
        Duration took = Duration.ofNanos(batch.engine.ticker.nanoTime() - batch.submitted);
        batch.listener.batchFinished(batch.event, result, took);
        if (settledAtFinish) {
            batch.listener.batchSettled(batch.event, result);
            settledResult.complete(result);
        }
        if (notKept != null) {
            batch.done.completeExceptionally(notKept);
        } else if (fails) {
            UploadResult first = cause == null ? null : cause.result();
            batch.done.completeExceptionally(new BatchFailedException(batch.engine.name, result,
                    first == null ? null : first.failure().orElse(null)));
        } else {
            batch.done.complete(result);
        }
        if (batch.caller != null) {
            batch.caller.wakeUp();
        }
        reported.complete(null);
    }
}
