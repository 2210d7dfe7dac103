package io.github.boundedupload.s3.internal;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Permits for requests, without threads: at most {@code permits} calls run at once; the others wait in a FIFO
 * queue (bounded: beyond {@code maxWaiting} a call fails at once) and start when a running one completes. Sized to
 * the HTTP client's connection pool, no request ever waits inside the client for a connection, where it would time
 * out after the client's connection acquisition timeout; here it waits as long as its upload may take.
 * Changes when the way requests wait for a connection changes.
 *
 * <p>Cancelling a returned future takes a waiting call out of the queue, or cancels the running call (which, for
 * an SDK call, aborts the request). Calls are started by whichever thread frees a permit, through a trampoline:
 * calls that complete at once cannot make the stack grow.
 */
public final class RequestLimiter {

    private final int permits;
    private final int maxWaiting;
    private final ReentrantLock lock = new ReentrantLock();
    // Guarded by lock:
    private int available;
    private final ArrayDeque<Call<?>> waiting = new ArrayDeque<>();
    // The trampoline:
    private final Queue<Call<?>> starts = new ConcurrentLinkedQueue<>();
    private final AtomicInteger startsPending = new AtomicInteger();

    public RequestLimiter(int permits, int maxWaiting) {
        if (permits < 1 || maxWaiting < 0) {
            throw new IllegalArgumentException("permits must be >= 1 and maxWaiting >= 0");
        }
        this.permits = permits;
        this.maxWaiting = maxWaiting;
        this.available = permits;
    }

    /** Runs a call when a permit is free; the permit is held until the call's future completes. */
    public <T> CompletableFuture<T> run(Supplier<CompletableFuture<T>> call) {
        Call<T> entry = new Call<>(call);
        boolean now;
        lock.lock();
        try {
            if (available > 0) {
                available--;
                now = true;
            } else if (waiting.size() >= maxWaiting) {
                return CompletableFuture.failedFuture(new RejectedExecutionException("more than " + maxWaiting
                        + " requests are waiting for one of " + permits + " permits"));
            } else {
                waiting.addLast(entry);
                now = false;
            }
        } finally {
            lock.unlock();
        }
        entry.result.whenComplete((value, failure) -> {
            if (entry.result.isCancelled()) {
                entry.cancelled();
            }
        });
        if (now) {
            start(entry);
        }
        return entry.result;
    }

    /** How many calls run now. */
    public int running() {
        lock.lock();
        try {
            return permits - available;
        } finally {
            lock.unlock();
        }
    }

    /** How many calls wait for a permit now. */
    public int waiting() {
        lock.lock();
        try {
            return waiting.size();
        } finally {
            lock.unlock();
        }
    }

    private void start(Call<?> call) {
        starts.add(call);
        if (startsPending.getAndIncrement() != 0) {
            return; // a thread further up this stack, or another thread, is draining: it will start this call
        }
        do {
            starts.remove().start();
        } while (startsPending.decrementAndGet() != 0);
    }

    private void release() {
        Call<?> next;
        lock.lock();
        try {
            next = waiting.pollFirst();
            if (next == null) {
                available++;
            }
        } finally {
            lock.unlock();
        }
        if (next != null) {
            start(next); // the permit passes straight to the next call
        }
    }

    /** Removes a call from the queue; true when it was still waiting (and so holds no permit). */
    private boolean dequeue(Call<?> call) {
        lock.lock();
        try {
            return waiting.remove(call);
        } finally {
            lock.unlock();
        }
    }

    private final class Call<T> {
        final Supplier<CompletableFuture<T>> supplier;
        final CompletableFuture<T> result = new CompletableFuture<>();
        private volatile @Nullable CompletableFuture<T> running;

        Call(Supplier<CompletableFuture<T>> supplier) {
            this.supplier = supplier;
        }

        /** Runs with a permit; gives it back when the call completes, or at once when it never starts. */
        void start() {
            if (result.isDone()) {
                release();
                return;
            }
            CompletableFuture<T> started;
            try {
                started = supplier.get();
            } catch (RuntimeException | Error e) {
                started = CompletableFuture.failedFuture(e);
            }
            running = started;
            started.whenComplete((value, failure) -> {
                release();
                if (failure != null) {
                    result.completeExceptionally(failure);
                } else {
                    result.complete(value);
                }
            });
            if (result.isCancelled()) {
                started.cancel(true);
            }
        }

        void cancelled() {
            if (!dequeue(this)) {
                CompletableFuture<T> call = running;
                if (call != null) {
                    call.cancel(true);
                }
            }
        }
    }
}
