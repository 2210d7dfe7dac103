package io.github.boundedupload.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import io.github.boundedupload.spi.ConcurrencyLimit;
import org.jspecify.annotations.Nullable;
import java.util.HashMap;
import java.util.Map;

/**
 * Which call to the storage runs next: one FIFO queue for every batch, a call leaving it when a permit (and its bytes)
 * is free, and one writer per key. OkHttp's {@code Dispatcher} is the model: a global cap, nothing else; the
 * per-batch window lives in {@link Batch}. Guarded by the uploader's lock; starting a call is an {@link Effects
 * effect}.
 *
 * <p><b>One writer per key.</b> A key belongs to the first batch that writes it until that batch is settled (finished,
 * its deletes confirmed or given up, its stuck calls returned). A call of another batch for that key waits aside,
 * without holding up the queue, and goes first when the key is free: a rollback can then never delete an object that
 * another batch of this uploader wrote and reported stored.
 */
final class Dispatcher {

    private final int maxInFlight;
    private final @Nullable ConcurrencyLimit adaptive;
    private final long maxBytesInFlight;
    private final ArrayDeque<Call> ready = new ArrayDeque<>();
    private final Map<String, Batch> writers = new HashMap<>();
    private final Map<String, ArrayDeque<Call>> waiting = new HashMap<>();
    /** The calls holding a permit, as an intrusive list (no allocation per call). */
    private @Nullable Call firstRunning;
    private int inFlight;
    private volatile int inFlightVolatile;
    private long bytesInFlight;

    Dispatcher(int maxInFlight, @Nullable ConcurrencyLimit adaptive, long maxBytesInFlight) {
        this.maxInFlight = maxInFlight;
        this.adaptive = adaptive;
        this.maxBytesInFlight = maxBytesInFlight;
    }

    /** The permits there are now: the configured maximum, or less when an adaptive limit says so. */
    int limit() {
        return adaptive == null ? maxInFlight : Math.min(maxInFlight, Math.max(1, adaptive.limit()));
    }

    int inFlight() {
        return inFlight;
    }

    /** {@link #inFlight()} read without the lock, for samples (a racy count is good enough there). */
    int inFlightNow() {
        return inFlightVolatile;
    }

    long bytesInFlight() {
        return bytesInFlight;
    }

    void enqueue(Call call) {
        ready.addLast(call);
    }

    /** Deletes go first: they free storage and finish batches. */
    void enqueueFirst(Call call) {
        ready.addFirst(call);
    }

    /** Takes a call that has not started out of the queue. */
    void remove(Call call) {
        if (!ready.remove(call)) {
            ArrayDeque<Call> forKey = waiting.get(call.key);
            if (forKey != null && forKey.remove(call) && forKey.isEmpty()) {
                waiting.remove(call.key);
            }
        }
    }

    /** Starts queued calls while permits and bytes allow, in FIFO order (a big upload is not overtaken). */
    void dispatch(Effects effects) {
        int limit = limit();
        while (inFlight < limit && !ready.isEmpty()) {
            Call call = ready.peekFirst();
            Batch writer = writers.get(call.key);
            if (writer != null && writer != call.batch) {
                ready.pollFirst();
                waiting.computeIfAbsent(call.key, k -> new ArrayDeque<>()).addLast(call);
                continue;
            }
            if (call.weight > 0 && bytesInFlight > 0 && bytesInFlight + call.weight > maxBytesInFlight) {
                break;
            }
            ready.pollFirst();
            if (writer == null) {
                writers.put(call.key, call.batch);
            }
            call.permit = true;
            link(call);
            inFlightVolatile = ++inFlight;
            bytesInFlight += call.weight;
            call.dispatched();
            effects.add(call::start);
        }
    }

    /** A call ended, or is given up on: its permit and bytes go to the next. */
    void release(Call call) {
        if (call.permit) {
            call.permit = false;
            unlink(call);
            inFlightVolatile = --inFlight;
            bytesInFlight -= call.weight;
        }
    }

    /** Every call that holds a permit now. */
    void forEachRunning(Consumer<Call> action) {
        for (Call call = firstRunning; call != null; call = call.nextRunning) {
            action.accept(call);
        }
    }

    List<Call> running() {
        List<Call> calls = new ArrayList<>(inFlight);
        forEachRunning(calls::add);
        return calls;
    }

    private void link(Call call) {
        call.nextRunning = firstRunning;
        call.previousRunning = null;
        if (firstRunning != null) {
            firstRunning.previousRunning = call;
        }
        firstRunning = call;
    }

    private void unlink(Call call) {
        if (call.previousRunning != null) {
            call.previousRunning.nextRunning = call.nextRunning;
        } else {
            firstRunning = call.nextRunning;
        }
        if (call.nextRunning != null) {
            call.nextRunning.previousRunning = call.previousRunning;
        }
        call.previousRunning = null;
        call.nextRunning = null;
    }

    /** The batch is settled: its keys are free, and calls of other batches waiting for them go first. */
    void releaseKeys(Batch batch) {
        for (String key : batch.keys) {
            if (writers.remove(key, batch)) {
                ArrayDeque<Call> forKey = waiting.remove(key);
                if (forKey != null) {
                    forKey.descendingIterator().forEachRemaining(ready::addFirst);
                }
            }
        }
    }
}
