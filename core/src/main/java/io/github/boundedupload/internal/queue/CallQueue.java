package io.github.boundedupload.internal.queue;

import io.github.boundedupload.internal.step.Combiner;
import io.github.boundedupload.internal.step.Effects;
import io.github.boundedupload.internal.step.StepLock;

import io.github.boundedupload.spi.ConcurrencyLimit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The queue of calls to the storage and its permits. One FIFO queue for every batch; a call leaves it when a permit
 * (and its bytes) is free, and one writer per key. OkHttp's {@code Dispatcher} is the model: it owns its count and its
 * queue, and starts the next call itself when one ends ({@link #release}) and at the end of every step (the
 * {@link StepLock} runs {@link #dispatch} then), so that no one has to remember to. It counts its places itself
 * ({@link #reservePlaces}, {@link #freePlaces}) and wakes the waiters wherever the count falls. Everything here is
 * guarded by the {@link StepLock}. Changes when the order or the bounds of calls change.
 *
 * <p><b>One writer per key.</b> A key belongs to the first batch that writes it until that batch is settled (finished,
 * its deletes confirmed or given up, its stuck calls returned). A call of another batch for that key waits aside,
 * without holding up the queue, and goes first when the key is free: a rollback can then never delete an object that
 * another batch of this uploader wrote and reported stored.
 */
public final class CallQueue<E extends CallQueue.Entry> {

    /**
     * What the queue holds: a call to the storage, with what the queue needs of it and the queue's marks on it, which
     * only the queue writes (the architecture rules check it).
     */
    public abstract static class Entry extends Combiner.Step {
        /** The key it writes. */
        public final String key;
        /** Whose the key is while it runs (its batch): one writer per key. */
        public final Object writer;
        /** What it counts against the bytes-in-flight bound. */
        public final long weight;
        /** Holds a permit (and its bytes). */
        boolean permit;
        /** Counted in the queue's places until it starts or is removed. */
        boolean holdsPlace;
        /** Taken out of the queue before it started: dropped when the queue reaches it. */
        boolean removed;
        /** Neighbours in the list of entries holding a permit. */
        @Nullable Entry previousRunning;
        @Nullable Entry nextRunning;

        /** @param holdsPlace whether it takes one of the places {@link #reservePlaces} reserved for it */
        protected Entry(String key, Object writer, long weight, boolean holdsPlace) {
            this.key = key;
            this.writer = writer;
            this.weight = weight;
            this.holdsPlace = holdsPlace;
        }

        /** Whether it holds a permit now. */
        public final boolean holdsPermit() {
            return permit;
        }

        /** Outside the lock, once it got its permit: runs the call. */
        protected abstract void start();
    }

    private final StepLock lock;
    private final int maxInFlight;
    private final @Nullable ConcurrencyLimit adaptive;
    private final long maxBytesInFlight;
    private final ArrayDeque<E> ready = new ArrayDeque<>();
    private final Map<String, Object> writers = new HashMap<>();
    private final Map<String, ArrayDeque<E>> waiting = new HashMap<>();
    /** Uploads admitted and not started, and deletes waiting for their next try: what maxQueuedUploads bounds. */
    private int queued;
    /** The entries holding a permit, as an intrusive list (no allocation per call). */
    private @Nullable Entry firstRunning;
    private int inFlight;
    private volatile int inFlightVolatile;
    private long bytesInFlight;

    public CallQueue(StepLock lock, int maxInFlight, @Nullable ConcurrencyLimit adaptive, long maxBytesInFlight) {
        this.lock = lock;
        this.maxInFlight = maxInFlight;
        this.adaptive = adaptive;
        this.maxBytesInFlight = maxBytesInFlight;
    }

    /** Uploads admitted and not started, and deletes waiting for their next try. */
    public int queued() {
        return queued;
    }

    /** Places taken in the queue: a batch admitted, a delete waiting for its next try. */
    public void reservePlaces(int places) {
        queued += places;
    }

    /** Places given back without a start: uploads of a stopped batch, a delete tried again or given up. */
    public void freePlaces(int places) {
        queued -= places;
        lock.signalAll(); // queue space: a batch waiting under BLOCK may fit now
    }

    /** The permits there are now: the configured maximum, or less when an adaptive limit says so. */
    public int limit() {
        return adaptive == null ? maxInFlight : Math.min(maxInFlight, Math.max(1, adaptive.limit()));
    }

    public int inFlight() {
        return inFlight;
    }

    /** {@link #inFlight()} read without the lock, for samples (a racy count is good enough there). */
    public int inFlightNow() {
        return inFlightVolatile;
    }

    public long bytesInFlight() {
        return bytesInFlight;
    }

    public void enqueue(E entry) {
        ready.addLast(entry);
    }

    /** Deletes go first: they free storage and finish batches. */
    public void enqueueFirst(E entry) {
        ready.addFirst(entry);
    }

    /**
     * Takes an entry that has not started out of the queue: marked, and dropped when the queue reaches it (in O(1)
     * now, however long the queue is).
     */
    public void remove(Entry entry) {
        if (!entry.removed) {
            entry.removed = true;
            freePlaceOf(entry);
        }
    }

    private void freePlaceOf(Entry entry) {
        if (entry.holdsPlace) {
            entry.holdsPlace = false;
            queued--;
            lock.signalAll(); // queue space: a batch waiting under BLOCK may fit now
        }
    }

    /** Starts queued entries while permits and bytes allow, in FIFO order (a big upload is not overtaken). */
    public void dispatch(Effects effects) {
        int limit = limit();
        while (inFlight < limit && !ready.isEmpty()) {
            E entry = ready.peekFirst();
            if (entry.removed) {
                ready.pollFirst();
                continue;
            }
            Object writer = writers.get(entry.key);
            if (writer != null && writer != entry.writer) {
                ready.pollFirst();
                waiting.computeIfAbsent(entry.key, k -> new ArrayDeque<>()).addLast(entry);
                continue;
            }
            if (entry.weight > 0 && bytesInFlight > 0 && bytesInFlight + entry.weight > maxBytesInFlight) {
                break;
            }
            ready.pollFirst();
            if (writer == null) {
                writers.put(entry.key, entry.writer);
            }
            freePlaceOf(entry);
            entry.permit = true;
            link(entry);
            inFlightVolatile = ++inFlight;
            bytesInFlight += entry.weight;
            effects.add(entry::start);
        }
    }

    /**
     * An entry ended, or is given up on: its permit and bytes go to the next in the queue, now. Whether it held one.
     */
    public boolean release(Entry entry, Effects effects) {
        if (!entry.permit) {
            return false;
        }
        entry.permit = false;
        unlink(entry);
        inFlightVolatile = --inFlight;
        bytesInFlight -= entry.weight;
        dispatch(effects);
        return true;
    }

    /** Every entry that holds a permit now. */
    @SuppressWarnings("unchecked") // only entries of type E are ever linked
    public void forEachRunning(Consumer<E> action) {
        for (Entry entry = firstRunning; entry != null; entry = entry.nextRunning) {
            action.accept((E) entry);
        }
    }

    public List<E> running() {
        List<E> entries = new ArrayList<>(inFlight);
        forEachRunning(entries::add);
        return entries;
    }

    private void link(Entry entry) {
        entry.nextRunning = firstRunning;
        entry.previousRunning = null;
        if (firstRunning != null) {
            firstRunning.previousRunning = entry;
        }
        firstRunning = entry;
    }

    private void unlink(Entry entry) {
        if (entry.previousRunning != null) {
            entry.previousRunning.nextRunning = entry.nextRunning;
        } else {
            firstRunning = entry.nextRunning;
        }
        if (entry.nextRunning != null) {
            entry.nextRunning.previousRunning = entry.previousRunning;
        }
        entry.previousRunning = null;
        entry.nextRunning = null;
    }

    /** A key of a settled batch is free: entries of other batches waiting for it go first. */
    public void releaseKey(String key, Object writer) {
        if (writers.remove(key, writer)) {
            ArrayDeque<E> forKey = waiting.remove(key);
            if (forKey != null) {
                forKey.descendingIterator().forEachRemaining(ready::addFirst);
            }
        }
    }
}
