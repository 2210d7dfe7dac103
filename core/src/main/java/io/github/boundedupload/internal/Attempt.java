package io.github.boundedupload.internal;

import io.github.boundedupload.UploadResult.Status;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One call to the storage that can be cancelled from another thread. A cancel completes the call's
 * {@link #signal()} (what non-blocking storages watch, see {@code UploadRequest.cancellation()}) and interrupts the
 * thread of a blocking call while it runs; the call then ends when the storage has stopped and cleaned up, never
 * earlier. A cancel that arrives before the call starts prevents it. {@link #forceCancel()} is for a storage that did
 * not stop in time. Changes when the way a call is cancelled changes.
 */
final class Attempt {

    /** A call to a blocking storage; one that returns nothing (a delete) returns {@code null}. */
    @FunctionalInterface
    interface BlockingCall<T> {
        @Nullable T call() throws Exception;
    }

    /** What is done with a call's outcome: its value, or why it failed. */
    @FunctionalInterface
    interface Answer<T> {
        void accept(@Nullable T value, @Nullable Throwable failure);
    }

    /** A call to a non-blocking storage. */
    @FunctionalInterface
    interface AsyncCall<T> {
        CompletableFuture<T> start();
    }

    /** Why a call was cancelled, and how its attachment ends because of it. */
    record Cancel(Throwable reason, Status status) {
    }

    /**
     * What a storage watches and cannot complete: every way to complete it from outside does nothing. One object per
     * call, where a {@code minimalCompletionStage()} of a plain future added a stage and a relay to every upload.
     */
    private static final class Signal extends CompletableFuture<Void> {

        void fire() {
            super.complete(null);
        }

        @Override
        public boolean complete(Void value) {
            return false;
        }

        @Override
        public boolean completeExceptionally(Throwable ex) {
            return false;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            return false;
        }

        @Override
        public void obtrudeValue(Void value) {
            throw new UnsupportedOperationException("only the uploader signals a cancel");
        }

        @Override
        public void obtrudeException(Throwable ex) {
            throw new UnsupportedOperationException("only the uploader signals a cancel");
        }

        @Override
        public CompletableFuture<Void> completeAsync(Supplier<? extends Void> supplier, Executor executor) {
            throw new UnsupportedOperationException("only the uploader signals a cancel");
        }

        @Override
        public CompletableFuture<Void> completeAsync(Supplier<? extends Void> supplier) {
            throw new UnsupportedOperationException("only the uploader signals a cancel");
        }
    }

    /** {@link #state} while the storage is called and no cancel came. */
    private static final Object RUNNING = new Object();
    /** {@link #state} once the call finished without a cancel. */
    private static final Object FINISHED = new Object();
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Attempt.class, "state", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Signal signal = new Signal();
    /**
     * {@code null} before the call; {@link #RUNNING}; {@link #FINISHED}; or, once cancelled, the {@link Cancelled}
     * (whatever came after). Each change is one compare-and-set: a call that nobody cancels pays two, where it took
     * a monitor three times (JMH: 5 % of the uploader's samples on virtual threads).
     */
    private volatile @Nullable Object state;
    /** The thread of a blocking call, set before it is {@link #RUNNING}; read by a cancel that finds it running. */
    private @Nullable Thread thread;
    private volatile @Nullable Future<?> future;
    /** How a cancel interrupts a running blocking call: {@link Thread#interrupt()}, or a test's, which holds it back. */
    private final Consumer<Thread> interrupter;

    Attempt() {
        this(Thread::interrupt);
    }

    /** For tests: a cancel interrupts a running call's thread with {@code interrupter}. */
    Attempt(Consumer<Thread> interrupter) {
        this.interrupter = interrupter;
    }

    /** A cancel that took effect, and whether it interrupted a running call. */
    private static final class Cancelled {
        final Cancel cancel;
        final boolean whileRunning;
        /** Set once the running call's thread is interrupted: only then may the call clear its interrupt. */
        volatile boolean interruptDelivered;

        Cancelled(Cancel cancel, boolean whileRunning) {
            this.cancel = cancel;
            this.whileRunning = whileRunning;
        }
    }

    /** Completes when the call is cancelled; storages cannot complete it themselves. */
    CompletionStage<Void> signal() {
        return signal;
    }

    /** The cancel that took effect, or {@code null}. */
    @Nullable Cancel cancelled() {
        Object now = state;
        return now instanceof Cancelled ? ((Cancelled) now).cancel : null;
    }

    /** Whether the storage was called at all. */
    boolean started() {
        Object now = state;
        return now == RUNNING || now == FINISHED || now instanceof Cancelled && ((Cancelled) now).whileRunning;
    }

    /**
     * Cancels the call (or prevents it), giving the reason it will fail with. Does nothing once the call finished or
     * after an earlier cancel.
     *
     * @return whether this cancel took effect, so that the caller can watch whether the call stops
     */
    boolean cancel(Throwable reason, Status status) {
        Cancel cancel = new Cancel(reason, status);
        while (true) {
            Object now = state;
            if (now == FINISHED || now instanceof Cancelled) {
                return false;
            }
            Cancelled cancelled = new Cancelled(cancel, now == RUNNING);
            if (STATE.compareAndSet(this, now, cancelled)) {
                if (cancelled.whileRunning) {
                    Thread running = thread;
                    if (running != null) {
                        interrupter.accept(running);
                    }
                    cancelled.interruptDelivered = true;
                }
                signal.fire(); // storages react to it on this thread
                return true;
            }
        }
    }

    /**
     * The call did not stop after {@link #cancel}: cancels a non-blocking call's future, for storages that watch
     * only that. (A blocking call that ignores its interrupt cannot be forced.)
     */
    void forceCancel() {
        Future<?> toCancel = future;
        if (toCancel != null) {
            toCancel.cancel(true);
        }
    }

    /**
     * Runs a blocking call on this thread, after {@code onStart}, and hands its outcome to {@code answer} on this
     * thread (no future: nothing waits for it elsewhere); never throws.
     */
    <T> void runBlocking(Runnable onStart, BlockingCall<T> call, Answer<T> answer) {
        thread = Thread.currentThread(); // published by the compare-and-set
        if (!STATE.compareAndSet(this, null, RUNNING)) {
            thread = null;
            answer(answer, null, Objects.requireNonNull(cancelled()).reason());
            return;
        }
        T value = null;
        Throwable failure = null;
        try {
            onStart.run();
            value = call.call();
        } catch (Throwable t) {
            // Errors too: an attachment must end as failed, never hang its batch.
            failure = t;
        }
        if (!STATE.compareAndSet(this, RUNNING, FINISHED)) {
            // Cancelled while it ran: the interrupt is ours and used up, so it must not leak into the thread's next
            // task (or the caller). Cleared once it has arrived: the cancel's thread may be between its
            // compare-and-set and the interrupt.
            Cancelled cancelled = (Cancelled) Objects.requireNonNull(state);
            while (!cancelled.interruptDelivered) {
                Thread.yield();
            }
            Thread.interrupted();
        }
        thread = null;
        answer(answer, value, failure);
    }

    /**
     * Starts a non-blocking call, after {@code onStart}; its outcome goes to {@code answer} on the thread that completes
     * its future (perhaps this one); never throws.
     */
    <T> void start(Runnable onStart, AsyncCall<T> call, Answer<T> answer) {
        if (!STATE.compareAndSet(this, null, RUNNING)) {
            answer(answer, null, Objects.requireNonNull(cancelled()).reason());
            return;
        }
        CompletableFuture<T> result;
        try {
            onStart.run();
            result = call.start();
            if (result == null) {
                result = CompletableFuture.failedFuture(new IllegalStateException("the storage returned no future"));
            }
        } catch (Throwable t) {
            result = CompletableFuture.failedFuture(t);
        }
        future = result;
        result.whenComplete((value, failure) -> {
            STATE.compareAndSet(this, RUNNING, FINISHED);
            answer(answer, value, failure);
        });
    }

    /**
     * Hands the outcome on. What fails in the uploader's handling of it is an internal error, logged; not thrown, so
     * that the thread still runs the call the handling started (a future's {@code whenComplete} swallowed it).
     */
    private static <T> void answer(Answer<T> answer, @Nullable T value, @Nullable Throwable failure) {
        try {
            answer.accept(value, failure);
        } catch (RuntimeException | Error e) {
            Engine.LOG.error("internal error in bounded-upload; please report it", e);
        }
    }
}
