package io.github.boundedupload.internal;

import io.github.boundedupload.spi.ConcurrencyLimit;
import io.github.boundedupload.spi.ContextPropagator;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The queue of calls to the storage, and the lock every step of the uploader takes. One FIFO queue for every batch;
 * a call leaves it when a permit (and its bytes) is free, and one writer per key. OkHttp's {@code Dispatcher} is the
 * model: it owns its lock, its count and its queue, and starts the next call itself when one ends ({@link #release})
 * and at the end of every step ({@link #run}), so that no room has to remember to. Changes when the order or the
 * bounds of calls change.
 *
 * <p><b>Steps.</b> All mutable state of an uploader (the queue, permits, keys, and the state of its batches, uploads
 * and rollbacks) is guarded by this lock, and only a step holds it. What a step decides (start a call, tell a listener,
 * complete a future) it adds to its {@link Effects}, which run after unlocking: nothing slow or foreign runs under the
 * lock. Work over a whole batch runs in slices of {@value #SLICE} attachments, each a step of its own
 * ({@link #inSlices}), so that stopping or rolling back 100,000 attachments never holds the lock for long.
 *
 * <p><b>One writer per key.</b> A key belongs to the first batch that writes it until that batch is settled (finished,
 * its deletes confirmed or given up, its stuck calls returned). A call of another batch for that key waits aside,
 * without holding up the queue, and goes first when the key is free: a rollback can then never delete an object that
 * another batch of this uploader wrote and reported stored.
 *
 * <p><b>Steps left to another thread.</b> A virtual thread that finds the lock held parks, leaves its carrier, and
 * mounts again when the lock is handed to it: when many uploads end at once, every end paid that, one after the other
 * (JMH, a batch of 10,000 on virtual threads: 15 % of the samples in the lock). The end of a call (an upload's or a
 * delete's) on a virtual thread is left instead ({@link #runOrLeave}): pushed on a stack, and run under the lock, its
 * effects after, by the one thread on duty (the first to leave a step while none was on duty), which runs every step
 * left until none is; the thread that left it goes on at once.
 */
final class Dispatcher {

    /** Attachments a slice of whole-batch work handles in one hold of the lock. */
    static final int SLICE = 256;
    private static final long UNWATCHED = Long.MIN_VALUE;
    /** The bottom of the stack of steps left while a thread is on duty; never run. */
    private static final Left ON_DUTY = new Left() {
        @Override
        void runLeft(Effects effects) {
            throw new IllegalStateException("the bottom of the stack of steps left is never run");
        }

        @Override
        ContextPropagator.Captured leftContext() {
            throw new IllegalStateException("the bottom of the stack of steps left has no context");
        }
    };

    /** One slice of whole-batch work, under the lock: {@code true} while there is more. */
    @FunctionalInterface
    interface Slice {
        boolean next(Effects effects);
    }

    /** For tests: measures each step's hold of the lock with its own clock. */
    interface LockWatch {
        long now();

        void held(long duration);
    }

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when queue space frees up, a batch finishes or a rollback settles. */
    private final Condition changed = lock.newCondition();
    private final int maxInFlight;
    private final @Nullable ConcurrencyLimit adaptive;
    private final long maxBytesInFlight;
    private volatile @Nullable LockWatch watch;
    /**
     * The stack of steps left ({@link #leave}: the ends of uploads on virtual threads), at most one per upload in flight:
     * {@code null} while no thread is on duty; while one is, never empty: {@link #ON_DUTY}, with the steps left since
     * its last take above it.
     */
    private final AtomicReference<@Nullable Left> leftTop = new AtomicReference<>();
    // Guarded by the lock:
    private final ArrayDeque<Call> ready = new ArrayDeque<>();
    private final Map<String, Batch> writers = new HashMap<>();
    private final Map<String, ArrayDeque<Call>> waiting = new HashMap<>();
    /** Uploads admitted and not started, and deletes waiting for their next try: what maxQueuedUploads bounds. */
    private int queued;
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

    // ---- steps -------------------------------------------------------------------------------------------------

    /** A step: under the lock, then the queue moves on; its effects run after unlocking. */
    void run(Consumer<Effects> step) {
        runHolding(lock(), step);
    }

    private void runHolding(long start, Consumer<Effects> step) {
        Effects effects = new Effects();
        try {
            step.accept(effects);
            dispatch(effects);
        } finally {
            unlock(start);
        }
        effects.run();
    }

    /**
     * A step that may be left to another thread: on a platform thread, run now, as {@link #run} does; on a virtual
     * thread, {@linkplain #leave left}, to run under the lock by the thread on duty (perhaps this one), unless the
     * thread takes the next call it starts ({@link Handoff#takesNext}, asked on virtual threads only) and the lock is
     * free: then it runs the step itself, and carries on with the call. Only for a step whose caller needs nothing from
     * it, and whose thread has nothing to wait for after it (the end of a call). Left even when the lock is free: one
     * thread at a time then takes the lock for every step left meanwhile, instead of each virtual thread competing for
     * it (JMH, 10,000 on supplied virtual threads: +0.47 µs per upload over bare, against +0.55 when only the threads
     * that found the lock held left theirs). Not on a thread that takes the next call: there a left end would cost the
     * hand-off, and a new thread for the next call (on the uploader's own virtual threads +0.25 µs when every end was
     * left, +0.21 so).
     */
    void runOrLeave(Call call) {
        if (!UploadThreads.isVirtual(Thread.currentThread())) {
            run(call::runLeft);
        } else if (Handoff.takesNext(call) && lock.tryLock()) {
            runHolding(started(), call::runLeft);
        } else {
            leave(call);
        }
    }

    /**
     * Leaves a step to the thread on duty, or takes the duty: pushed on a stack (the step is its own node: nothing is
     * allocated per step); then, if no thread was on duty, this thread takes every step left (one swap for all of
     * them), runs them under the lock in the order they were left, in holds of at most {@value #SLICE}, and takes again
     * until none is left; then, off duty (a step left meanwhile finds a thread of its own), their effects, in the order
     * they were decided, each in its step's context (the effects of steps of one context in a row share one
     * application of it; none for this thread's own, {@code left}'s, which it is in). Off duty first, because effects
     * run foreign code (listeners, whatever waits for a batch's future, even a batch of this uploader submitted from
     * there), which must never hold up the ends of other uploads. The duty ends: each step it runs frees a permit, and
     * the call that permit goes to starts only with the effects, so the calls that can still end run out. A step that
     * fails is reported as an internal error and does not stop the others.
     */
    void leave(Left left) {
        Left top;
        do {
            top = leftTop.get();
            left.nextLeft = top;
        } while (!leftTop.compareAndSet(top, left));
        if (top != null) {
            return; // a thread is on duty (the stack is never empty while one is): it takes this one
        }
        Duty duty = new Duty();
        do {
            // Everything pushed since the last take, down to the mark (or, the first time, to the end).
            runLeftSteps(inOrder(leftTop.getAndSet(ON_DUTY)), duty);
        } while (!leftTop.compareAndSet(ON_DUTY, null));
        duty.runEffects(left.leftContext());
    }

    /** Reverses steps taken from the stack into the order they were left in, ending in {@code null}. */
    private static Left inOrder(Left top) {
        Left ordered = null;
        Left next = top;
        while (next != null && next != ON_DUTY) {
            Left below = next.nextLeft;
            next.nextLeft = ordered;
            ordered = next;
            next = below;
        }
        return Objects.requireNonNull(ordered);
    }

    /** Runs left steps under the lock, in holds of at most {@value #SLICE}. */
    private void runLeftSteps(@Nullable Left first, Duty duty) {
        Left next = first;
        while (next != null) {
            long start = lock();
            try {
                for (int i = 0; i < SLICE && next != null; i++) {
                    Left step = next;
                    next = step.nextLeft;
                    step.nextLeft = null;
                    runLeftStep(step, duty);
                }
            } finally {
                unlock(start);
            }
        }
    }

    /** Runs a left step under the lock. One that fails is reported and does not stop the others. */
    private void runLeftStep(Left left, Duty duty) {
        Effects effects = duty.effectsFor(left.leftContext());
        try {
            left.runLeft(effects);
            dispatch(effects);
        } catch (RuntimeException | Error e) {
            Engine.LOG.error("internal error in bounded-upload; please report it", e);
            duty.failed(e);
        }
    }

    /**
     * A step that can be left to the thread on duty ({@link #leave}): the end of a {@link Call}. It is its own node of
     * the stack of steps left, so that leaving one allocates nothing.
     */
    abstract static class Left {
        /** Below it on the stack; once taken, the next in the order the steps were left in; {@code null} once run. */
        @Nullable Left nextLeft;

        /** Under the lock, by the thread on duty (or, on a platform thread, by its own): the step. */
        abstract void runLeft(Effects effects);

        /** The context the step's effects run in. */
        abstract ContextPropagator.Captured leftContext();
    }

    /**
     * What a thread on duty has run: the effects of its steps in the order they were decided, in groups of steps in a
     * row with one context (one batch), each applied once; and the first {@link Error} of a step.
     */
    private static final class Duty {
        private @Nullable InContextEffects first;
        private @Nullable InContextEffects last;
        private @Nullable Error fatal;

        /** The effects of a step in {@code context}: those of the step before it, if it had the same context. */
        Effects effectsFor(ContextPropagator.Captured context) {
            InContextEffects group = last;
            if (group == null || group.context != context) {
                group = new InContextEffects(context);
                if (last == null) {
                    first = group;
                } else {
                    last.next = group;
                }
                last = group;
            }
            return group.effects;
        }

        void failed(Throwable failure) {
            if (fatal == null && failure instanceof Error) {
                fatal = (Error) failure;
            }
        }

        /**
         * Off duty: runs the effects, each group in its context, except {@code own}, which this thread is in already;
         * then throws the first {@link Error} of a step, if there was one.
         */
        void runEffects(ContextPropagator.Captured own) {
            for (InContextEffects group = first; group != null; group = group.next) {
                if (group.context == own) {
                    group.effects.run();
                } else {
                    InContext.run(group.context, group.effects::run);
                }
            }
            if (fatal != null) {
                throw fatal;
            }
        }
    }

    /** Effects of steps left in a row with one context, and run in it. */
    private static final class InContextEffects {
        final ContextPropagator.Captured context;
        final Effects effects = new Effects();
        @Nullable InContextEffects next;

        InContextEffects(ContextPropagator.Captured context) {
            this.context = context;
        }
    }

    /** A step with a result. */
    <T> T call(Function<Effects, T> step) {
        Effects effects = new Effects();
        T result;
        long start = lock();
        try {
            result = step.apply(effects);
            dispatch(effects);
        } finally {
            unlock(start);
        }
        effects.run();
        return result;
    }

    /** Takes the lock; when watched, the hold's start. */
    private long lock() {
        lock.lock();
        return started();
    }

    /** Under the lock, just taken: when watched, the hold's start. */
    private long started() {
        LockWatch watching = watch;
        return watching == null ? UNWATCHED : watching.now();
    }

    private void unlock(long start) {
        LockWatch watching = watch;
        if (watching != null && start != UNWATCHED) {
            watching.held(watching.now() - start);
        }
        lock.unlock();
    }

    /** Reads under the lock; nothing moves. */
    <T> T read(Supplier<T> read) {
        lock.lock();
        try {
            return read.get();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whole-batch work, after the current step: {@code slice} runs again and again, each time a step of its own that
     * handles at most {@value #SLICE} attachments, until it says it is done; other steps (another batch's submission,
     * an upload's end) take the lock in between.
     */
    void inSlices(Slice slice, Effects effects) {
        effects.add(() -> {
            boolean more = true;
            while (more) {
                more = call(slice::next);
            }
        });
    }

    /** Under the lock: waits until the condition holds or the deadline passes (the lock is free meanwhile). */
    boolean awaitLocked(BooleanSupplier condition, long deadline) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            changed.awaitNanos(left);
        }
        return true;
    }

    /** Takes the lock and waits until the condition holds or the deadline passes; whether it holds. */
    boolean await(BooleanSupplier condition, long deadline) throws InterruptedException {
        lock.lock();
        try {
            return awaitLocked(condition, deadline);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Under the lock: wakes whoever waits for a batch's end or quiet. Queue space wakes them where the count falls
     * ({@link #dispatch}, {@link #remove}, {@link #removeQueued}).
     */
    void signalAll() {
        changed.signalAll();
    }

    /** For tests: whether {@code thread} waits to take the lock. */
    boolean waitsForLock(Thread thread) {
        return lock.hasQueuedThread(thread);
    }

    /** For tests: measures every step's hold of the lock from now on; {@code null} stops it. */
    void watch(@Nullable LockWatch watch) {
        this.watch = watch;
    }

    // ---- the count of the queue ----------------------------------------------------------------------------------

    /** Uploads admitted and not started, and deletes waiting for their next try. */
    int queued() {
        return queued;
    }

    /** Places taken in the queue: a batch admitted, a delete waiting for its next try. */
    void addQueued(int places) {
        queued += places;
    }

    /** Places given back without a start: uploads of a stopped batch, a delete tried again or given up. */
    void removeQueued(int places) {
        queued -= places;
        changed.signalAll(); // queue space: a batch waiting under BLOCK may fit now
    }

    // ---- the queue and its permits ---------------------------------------------------------------------------------

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

    /**
     * Takes a call that has not started out of the queue: marked, and dropped when the queue reaches it (in O(1) now,
     * however long the queue is).
     */
    void remove(Call call) {
        if (!call.removed) {
            call.removed = true;
            if (call.holdsQueuePlace) {
                call.holdsQueuePlace = false;
                queued--;
                changed.signalAll(); // queue space: a batch waiting under BLOCK may fit now
            }
        }
    }

    /** Starts queued calls while permits and bytes allow, in FIFO order (a big upload is not overtaken). */
    private void dispatch(Effects effects) {
        int limit = limit();
        while (inFlight < limit && !ready.isEmpty()) {
            Call call = ready.peekFirst();
            if (call.removed) {
                ready.pollFirst();
                continue;
            }
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
            if (call.holdsQueuePlace) {
                call.holdsQueuePlace = false;
                queued--;
                changed.signalAll(); // queue space: a batch waiting under BLOCK may fit now
            }
            call.permit = true;
            link(call);
            inFlightVolatile = ++inFlight;
            bytesInFlight += call.weight;
            effects.add(call::start);
        }
    }

    /** A call ended, or is given up on: its permit and bytes go to the next call in the queue, now. */
    void release(Call call, Effects effects) {
        if (call.permit) {
            call.permit = false;
            unlink(call);
            inFlightVolatile = --inFlight;
            bytesInFlight -= call.weight;
            dispatch(effects);
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

    /** A key of a settled batch is free: calls of other batches waiting for it go first. */
    void releaseKey(String key, Batch batch) {
        if (writers.remove(key, batch)) {
            ArrayDeque<Call> forKey = waiting.remove(key);
            if (forKey != null) {
                forKey.descendingIterator().forEachRemaining(ready::addFirst);
            }
        }
    }
}
