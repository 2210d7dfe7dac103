package io.github.boundedupload.internal;

import io.github.boundedupload.BatchTakenOverException;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploadStuckException;
import io.github.boundedupload.internal.step.Effects;
import io.github.boundedupload.internal.step.InContext;
import io.github.boundedupload.internal.step.StepLock;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.support.Backoff;
import io.github.boundedupload.support.SafeText;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Deletes that undo failed batches, and that remove what uploads of unknown outcome may have stored, until the storage
 * confirms them. While a delete is tried again, its attachment is DELETING, never STORED. A failed try is tried again
 * after a growing pause (200 ms doubling up to 30 s, randomised so that many deletes do not retry in step) until the uploader's
 * rollback deadline, also after the batch has reported its result; what still cannot be deleted then, or when the
 * uploader closes, is reported (an error log naming the key, {@code UploadListener.rollbackAbandoned}), never
 * dropped. A delete waiting for its next try counts as queued work, so that an outage cannot pile them up without
 * bound: new batches are refused instead. All methods run under the step lock. Changes when what follows a
 * failed delete changes.
 */
final class Rollbacks {

    private static final Backoff BACKOFF = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(30));

    private final Engine engine;
    /** Deletes not yet confirmed or given up. */
    private int pending;
    /** Failed tries waiting for their next, with why they failed. */
    private final Map<DeleteCall, Throwable> waiting = new LinkedHashMap<>();

    Rollbacks(Engine engine) {
        this.engine = engine;
    }

    int pending() {
        return pending;
    }

    /** What a rollback deletes: stored objects, and the keys of failed uploads the storage may hold anyway. */
    static boolean mustDelete(UploadResult result) {
        return result.isStored()
                || result.status() == Status.FAILED && Upload.mayBeStored(result.failure().orElse(null));
    }

    /**
     * Whether the upload failed and the storage may hold something under its key anyway. A call that got stuck is not
     * one: it has not returned, and what it stores when it does is deleted then.
     */
    static boolean unknownOutcome(UploadResult result) {
        Throwable failure = result.failure().orElse(null);
        return !result.isStored() && result.status() != Status.POSSIBLY_STORED
                && !(failure instanceof UploadStuckException) && Upload.mayBeStored(failure);
    }

    /**
     * Starts deleting what an upload stored ({@code stored}) or may have stored (its key). With {@code awaited}, the
     * batch reports its result only after this first try.
     */
    void start(Upload upload, @Nullable StoredObject stored, boolean awaited, Effects effects) {
        pending++;
        Batch batch = upload.batch;
        batch.backgroundWork(1);
        if (awaited) {
            batch.awaitedDeletes(1);
        }
        // Also once closed (a stuck call that stored after close() returned): one try, on the thread at hand if the
        // executor is gone, and no retry.
        engine.queue.enqueueFirst(new DeleteCall(upload, stored, 1, awaited,
                engine.ticker.nanoTime() + engine.config.rollbackDeadline().toNanos()));
    }

    /** A try ended: {@code failure} is null when the storage confirmed the delete. */
    void tried(DeleteCall call, @Nullable Throwable failure, Effects effects) {
        Batch batch = call.batch;
        if (call.awaited) {
            batch.awaitedDeletes(-1);
        }
        if (failure == null) {
            pending--;
            batch.backgroundWork(-1);
            batch.settlement.deleted(call.upload, call.stored, effects);
        } else if (!engine.stopping() && engine.ticker.nanoTime() < call.deadline
                && !(failure instanceof BatchTakenOverException)) {
            batch.settlement.stillDeleting(call.upload, failure, call.awaited);
            retryLater(call, failure, effects);
        } else {
            giveUp(call, failure, effects);
        }
        batch.checkDone(effects);
        batch.checkSettled(effects);
    }

    private void retryLater(DeleteCall call, Throwable failure, Effects effects) {
        long pause = BACKOFF.pause(call.tries).toNanos();
        waiting.put(call, failure);
        engine.queue.reservePlaces(1);
        UploadEvent event = call.upload.event();
        Batch batch = call.batch;
        effects.add(() -> {
            if (call.tries == 1) {
                Engine.LOG.warn("uploader '{}': could not delete {} ({} of {}); trying again until the rollback"
                        + " deadline of {}: {}", engine.name, SafeText.quote(call.key), call.describe(), batch,
                        engine.config.rollbackDeadline(), SafeText.describe(failure));
            }
            InContext.run(batch.context, () -> batch.listener.rollbackRetried(event, failure, Duration.ofNanos(pause)));
        });
        engine.timeouts.schedule(pause, () -> engine.steps.run(e -> retry(call, e)));
    }

    private void retry(DeleteCall call, Effects effects) {
        Throwable failure = waiting.remove(call);
        if (failure == null) {
            return; // given up already (close)
        }
        engine.queue.freePlaces(1);
        if (engine.stopping()) {
            giveUp(call, failure, effects);
            call.batch.checkSettled(effects);
        } else {
            engine.queue.enqueueFirst(call.next());
        }
    }

    /** The end of {@code close()}: deletes waiting for their next try are given up and reported, in slices. */
    void giveUpWaiting(Effects effects) {
        engine.steps.inSlices(slice -> {
            Iterator<Map.Entry<DeleteCall, Throwable>> entries = waiting.entrySet().iterator();
            for (int n = 0; n < StepLock.SLICE && entries.hasNext(); n++) {
                Map.Entry<DeleteCall, Throwable> entry = entries.next();
                entries.remove();
                engine.queue.freePlaces(1);
                giveUp(entry.getKey(), entry.getValue(), slice);
                entry.getKey().batch.checkSettled(slice);
            }
            return !waiting.isEmpty();
        }, effects);
    }

    private void giveUp(DeleteCall call, Throwable failure, Effects effects) {
        pending--;
        Batch batch = call.batch;
        batch.settlement.deleteGivenUp(call.upload, failure);
        batch.backgroundWork(-1);
        UploadEvent event = call.upload.event();
        StoredObject stored = call.stored;
        boolean closed = engine.stopping();
        boolean takenOver = failure instanceof BatchTakenOverException;
        effects.add(() -> {
            if (takenOver) {
                Engine.LOG.warn("uploader '{}': {}", engine.name, failure.getMessage());
            } else {
                Engine.LOG.error("uploader '{}': gave up deleting {} ({} of {}) after {} tries{}; the storage may still"
                        + " hold what it stored there, and something else must remove it: {}", engine.name,
                        SafeText.quote(call.key), call.describe(), batch, call.tries, closed
                                ? " (the uploader closed)" : " (rollback deadline passed)", SafeText.describe(failure));
            }
            InContext.run(batch.context, () -> {
                batch.listener.rollbackAbandoned(event, failure);
                if (stored != null) {
                    batch.listener.uploadRolledBack(event, stored, failure);
                }
            });
        });
    }
}
