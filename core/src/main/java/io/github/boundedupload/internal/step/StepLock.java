package io.github.boundedupload.internal.step;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The lock every step of the uploader takes, and its one condition. All mutable state of an uploader (the
 * call queue, and the state of its batches, uploads and rollbacks) is guarded by it, and only a step holds it.
 * What a step decides (start a call, tell a listener, complete a future) it adds to its {@link Effects}, which run after
 * unlocking: nothing slow or foreign runs under the lock. After every step the queue moves on (the hook given at
 * construction), so that no step has to remember to start the calls it made room for. Work over a whole batch runs in
 * slices of {@value #SLICE} attachments, each a step of its own ({@link #inSlices}), so that stopping or rolling back
 * 100,000 attachments never holds the lock for long. The end of a call on a virtual thread may be combined with others
 * ({@link #runOrCombine}, {@link Combiner}). Changes when how steps take the lock, or what runs after them, changes.
 */
public final class StepLock {

    /** Attachments a slice of whole-batch work handles in one hold of the lock. */
    public static final int SLICE = 256;
    private static final long UNWATCHED = Long.MIN_VALUE;

    /** One slice of whole-batch work, under the lock: {@code true} while there is more. */
    @FunctionalInterface
    public interface Slice {
        boolean next(Effects effects);
    }

    /** For tests: measures each step's hold of the lock with its own clock. */
    public interface LockWatch {
        long now();

        void held(long duration);
    }

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when queue places free up, a batch finishes or a rollback settles: every waiter checks its own. */
    private final Condition changed = lock.newCondition();
    /** Under the lock, at the end of every step: the queue starts what now fits. */
    private final Consumer<Effects> afterEachStep;
    /** Whose time the deadlines of {@link #awaitLocked} are in. */
    private final Ticker ticker;
    private final Combiner combiner = new Combiner(this);
    private volatile @Nullable LockWatch watch;

    public StepLock(Consumer<Effects> afterEachStep, Ticker ticker) {
        this.afterEachStep = afterEachStep;
        this.ticker = ticker;
    }

    /** A step: under the lock, then the queue moves on; its effects run after unlocking. */
    public void run(Consumer<Effects> step) {
        runHolding(lock(), step);
    }

    private void runHolding(long start, Consumer<Effects> step) {
        Effects effects = new Effects();
        try {
            step.accept(effects);
            afterEachStep.accept(effects);
        } finally {
            unlock(start);
        }
        effects.run();
    }

    /** A step that computes a result. */
    public <T> T compute(Function<Effects, T> step) {
        Effects effects = new Effects();
        T result;
        long start = lock();
        try {
            result = step.apply(effects);
            afterEachStep.accept(effects);
        } finally {
            unlock(start);
        }
        effects.run();
        return result;
    }

    /**
     * A step that may be combined with others on another thread: on a platform thread, run now, as {@link #run} does;
     * on a virtual thread, handed to the {@link Combiner} (perhaps this thread becomes it), unless the thread takes the
     * next call it starts ({@link Combiner.Step#takesNextCall}, asked on virtual threads only) and the lock is free: then
     * it runs the step itself, and carries on with the call. Only for a step whose caller needs nothing from it, and
     * whose thread has nothing to wait for after it (the end of a call). Combined even when the lock is free: one
     * thread at a time then takes the lock for every step handed over meanwhile, instead of each virtual thread
     * competing for it (JMH, 10,000 on supplied virtual threads: +0.47 µs per upload over bare, against +0.55 when only
     * the threads that found the lock held handed theirs over). Not on a thread that takes the next call: there a
     * combined end would cost the hand-off, and a new thread for the next call (on the uploader's own virtual threads
     * +0.25 µs when every end was combined, +0.21 so).
     */
    public void runOrCombine(Combiner.Step step) {
        if (!VirtualThreads.isVirtual(Thread.currentThread())) {
            run(step::runCombined);
        } else if (step.takesNextCall() && lock.tryLock()) {
            runHolding(started(), step::runCombined);
        } else {
            combiner.combine(step);
        }
    }

    /** For tests: hands a step to the {@link Combiner} whatever the thread (see {@link Combiner#combine}). */
    void combine(Combiner.Step step) {
        combiner.combine(step);
    }

    /** For the {@link Combiner}, under the lock: one combined step, then the queue moves on. */
    void runCombinedStep(Combiner.Step step, Effects effects) {
        step.runCombined(effects);
        afterEachStep.accept(effects);
    }

    /** Takes the lock; when watched, the hold's start. */
    long lock() {
        lock.lock();
        return started();
    }

    /** Under the lock, just taken: when watched, the hold's start. */
    private long started() {
        LockWatch watching = watch;
        return watching == null ? UNWATCHED : watching.now();
    }

    void unlock(long start) {
        LockWatch watching = watch;
        if (watching != null && start != UNWATCHED) {
            watching.held(watching.now() - start);
        }
        lock.unlock();
    }

    /** Reads under the lock; nothing moves. */
    public <T> T read(Supplier<T> read) {
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
    public void inSlices(Slice slice, Effects effects) {
        effects.add(() -> {
            boolean more = true;
            while (more) {
                more = compute(slice::next);
            }
        });
    }

    /**
     * Under the lock: waits until the condition holds or the deadline ({@link Ticker#nanoTime()}) passes (the lock
     * is free meanwhile). With a ticker whose waits are not timed, only a signal wakes it (the test's clock signals
     * when it moves), so that a change nobody signalled leaves the waiter blocked for good, not late.
     */
    public boolean awaitLocked(BooleanSupplier condition, long deadline) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            long left = deadline - ticker.nanoTime();
            if (left <= 0) {
                return false;
            }
            if (ticker.timedWaits()) {
                changed.awaitNanos(left);
            } else {
                changed.await();
            }
        }
        return true;
    }

    /** Takes the lock and waits until the condition holds or the deadline passes; whether it holds. */
    public boolean await(BooleanSupplier condition, long deadline) throws InterruptedException {
        lock.lock();
        try {
            return awaitLocked(condition, deadline);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Under the lock: wakes every waiter, each of which checks its own condition. Whoever changes what a waiter waits
     * for calls it: the queue where its count falls, a batch where it finishes or settles, a rollback where it ends.
     */
    public void signalAll() {
        changed.signalAll();
    }

    /** For tests: whether {@code thread} waits to take the lock. */
    public boolean waitsForLock(Thread thread) {
        return lock.hasQueuedThread(thread);
    }

    /** For tests: measures every step's hold of the lock from now on; {@code null} stops it. */
    public void watch(@Nullable LockWatch watch) {
        this.watch = watch;
    }
}
