package io.github.boundedupload.internal;

import io.github.boundedupload.UploadResult.Status;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;

/**
 * One call to the storage that can be cancelled from another thread: a blocking call by interrupting the thread that
 * makes it (only while it makes it), a non-blocking one by cancelling its future. A cancel that arrives before the
 * call starts prevents it.
 */
final class Attempt {

    /** A call to a blocking storage. */
    @FunctionalInterface
    interface BlockingCall<T> {
        T call() throws Exception;
    }

    /** A call to a non-blocking storage. */
    @FunctionalInterface
    interface AsyncCall<T> {
        CompletableFuture<T> start();
    }

    /** Why a call was cancelled, and how its attachment ends because of it. */
    record Cancel(Throwable reason, Status status) {
    }

    private @Nullable Thread thread;
    private @Nullable Future<?> future;
    private @Nullable Cancel cancel;
    private boolean started;
    private boolean finished;

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
     */
    void cancel(Throwable reason, Status status) {
        Future<?> toCancel;
        synchronized (this) {
            if (cancel != null || finished) {
                return;
            }
            cancel = new Cancel(reason, status);
            if (thread != null) {
                thread.interrupt();
            }
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
        boolean cancelNow;
        synchronized (this) {
            future = result;
            cancelNow = cancel != null;
        }
        if (cancelNow) {
            result.cancel(true);
        }
        result.whenComplete((value, failure) -> {
            synchronized (this) {
                finished = true;
            }
        });
        return result;
    }
}
