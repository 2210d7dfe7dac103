package io.github.boundedupload.internal;

import io.github.boundedupload.UploadResult.Status;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
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

    private final Signal signal = new Signal();
    private @Nullable Thread thread;
    private @Nullable Future<?> future;
    private @Nullable Cancel cancel;
    private boolean started;
    private boolean finished;

    /** Completes when the call is cancelled; storages cannot complete it themselves. */
    CompletionStage<Void> signal() {
        return signal;
    }

    /** The cancel that took effect, or {@code null}. */
    synchronized @Nullable Cancel cancelled() {
        return cancel;
    }

    /** Whether the storage was called at all. */
    synchronized boolean started() {
        return started;
    }

    /**
     * Cancels the call (or prevents it), giving the reason it will fail with. Does nothing once the call finished or
     * after an earlier cancel.
     *
     * @return whether this cancel took effect, so that the caller can watch whether the call stops
     */
    boolean cancel(Throwable reason, Status status) {
        synchronized (this) {
            if (cancel != null || finished) {
                return false;
            }
            cancel = new Cancel(reason, status);
            if (thread != null) {
                thread.interrupt();
            }
        }
        signal.fire(); // outside the lock: storages react to it on this thread
        return true;
    }

    /**
     * The call did not stop after {@link #cancel}: cancels a non-blocking call's future, for storages that watch
     * only that. (A blocking call that ignores its interrupt cannot be forced.)
     */
    void forceCancel() {
        Future<?> toCancel;
        synchronized (this) {
            toCancel = future;
        }
        if (toCancel != null) {
            toCancel.cancel(true);
        }
    }

    /**
     * Runs a blocking call on this thread, after {@code onStart}; never throws, returns a completed future.
     */
    <T> CompletableFuture<T> runBlocking(Runnable onStart, BlockingCall<T> call) {
        synchronized (this) {
            if (cancel != null) {
                return CompletableFuture.failedFuture(cancel.reason());
            }
            started = true;
            thread = Thread.currentThread();
        }
        boolean interruptedByCancel;
        CompletableFuture<T> result;
        try {
            onStart.run();
            result = CompletableFuture.completedFuture(call.call());
        } catch (Throwable t) {
            // Errors too: an attachment must end as failed, never hang its batch.
            result = CompletableFuture.failedFuture(t);
        } finally {
            synchronized (this) {
                thread = null;
                finished = true;
                interruptedByCancel = cancel != null;
            }
        }
        if (interruptedByCancel) {
            // The interrupt was ours and is used up: do not leak it into the thread's next task (or the caller).
            Thread.interrupted();
        }
        return result;
    }

    /** Starts a non-blocking call, after {@code onStart}; never throws. */
    <T> CompletableFuture<T> start(Runnable onStart, AsyncCall<T> call) {
        synchronized (this) {
            if (cancel != null) {
                return CompletableFuture.failedFuture(cancel.reason());
            }
            started = true;
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
        synchronized (this) {
            future = result;
        }
        result.whenComplete((value, failure) -> {
            synchronized (this) {
                finished = true;
            }
        });
        return result;
    }
}
