package io.github.boundedupload.internal;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.support.Backoff;
import io.github.boundedupload.support.SafeText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Deletes that undo failed batches, until the storage confirms them. A failed try is tried again after a growing
 * pause (200 ms doubling up to 30 s, randomised so that many deletes do not retry in step) until the uploader's
 * rollback deadline, also after the batch has reported its result; what still cannot be deleted then, or when the
 * uploader closes, is reported (an error log naming the key, {@code UploadListener.rollbackAbandoned}), never
 * dropped. A delete waiting for its next try counts as queued work, so that an outage cannot pile them up without
 * bound: new batches are refused instead. All methods run under the engine's lock.
 */
final class Rollbacks {

    /** 200 ms, doubling up to 30 s. */
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

    /**
     * Starts deleting what an attachment of the batch stored ({@code stored}) or may have stored (its key). With
     * {@code awaited}, the batch reports its result only after this first try.
     */
    void start(Batch batch, int index, @Nullable StoredObject stored, boolean awaited, Effects effects) {
        pending++;
        batch.background++;
        if (awaited) {
            batch.awaitedDeletes++;
        }
        // Also once closed (a stuck call that stored after close() returned): one try, on the thread at hand if the
        // executor is gone, and no retry.
        engine.dispatcher.enqueueFirst(new DeleteCall(engine, batch, index, stored, 1, awaited,
                System.nanoTime() + engine.config.rollbackDeadline().toNanos()));
    }

    /** A try ended: {@code failure} is null when the storage confirmed the delete. */
    void tried(DeleteCall call, @Nullable Throwable failure, Effects effects) {
        Batch batch = call.batch;
        if (call.awaited) {
            batch.awaitedDeletes--;
        }
        if (failure == null) {
            pending--;
            batch.background--;
            batch.deleted(call.index, call.stored, effects);
        } else {
            if (call.awaited) {
                batch.notDeleted(call.index, failure);
            }
            if (!engine.stopping && System.nanoTime() < call.deadline) {
                retryLater(call, failure, effects);
            } else {
                giveUp(call, failure, effects);
            }
        }
        batch.checkDone(effects);
        batch.checkSettled(effects);
    }

    private void retryLater(DeleteCall call, Throwable failure, Effects effects) {
        long pause = BACKOFF.pause(call.tries).toNanos();
        waiting.put(call, failure);
        engine.queued++;
        if (call.tries == 1) {
            Engine.LOG.warn("uploader '{}': could not delete {} to undo {}; trying again until the rollback deadline"
                    + " of {}: {}", engine.name, SafeText.quote(call.key), call.batch, engine.config.rollbackDeadline(),
                    SafeText.describe(failure));
        }
        UploadEvent event = call.batch.event(call.index);
        effects.add(() -> Engine.inContext(call.batch.context,
                () -> call.batch.listener.rollbackRetried(event, failure, Duration.ofNanos(pause))));
        engine.timeouts.schedule(pause, () -> retry(call));
    }

    private void retry(DeleteCall call) {
        Effects effects = new Effects();
        engine.lock.lock();
        try {
            Throwable failure = waiting.remove(call);
            if (failure == null) {
                return; // given up already (close)
            }
            engine.queued--;
            if (engine.stopping) {
                giveUp(call, failure, effects);
                call.batch.checkSettled(effects);
            } else {
                engine.dispatcher.enqueueFirst(new DeleteCall(engine, call.batch, call.index, call.stored,
                        call.tries + 1, false, call.deadline));
                engine.dispatcher.dispatch(effects);
            }
        } finally {
            engine.lock.unlock();
        }
        effects.run();
    }

    /** The end of {@code close()}: deletes waiting for their next try are given up and reported. */
    void giveUpWaiting(Effects effects) {
        for (Map.Entry<DeleteCall, Throwable> entry : new ArrayList<>(waiting.entrySet())) {
            waiting.remove(entry.getKey());
            engine.queued--;
            giveUp(entry.getKey(), entry.getValue(), effects);
            entry.getKey().batch.checkSettled(effects);
        }
    }

    private void giveUp(DeleteCall call, Throwable failure, Effects effects) {
        pending--;
        call.batch.deletesAbandoned = true;
        call.batch.background--;
        Engine.LOG.error("uploader '{}': gave up deleting {} to undo {} after {} tries{}; the storage may still hold"
                + " what it stored there, and something else must remove it: {}", engine.name, SafeText.quote(call.key),
                call.batch, call.tries, engine.stopping ? " (the uploader closed)" : " (rollback deadline passed)",
                SafeText.describe(failure));
        UploadEvent event = call.batch.event(call.index);
        StoredObject stored = call.stored;
        effects.add(() -> Engine.inContext(call.batch.context, () -> {
            call.batch.listener.rollbackAbandoned(event, failure);
            if (stored != null) {
                call.batch.listener.uploadRolledBack(event, stored, failure);
            }
        }));
    }
}
