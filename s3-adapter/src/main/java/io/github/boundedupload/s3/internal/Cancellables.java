package io.github.boundedupload.s3.internal;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;

/**
 * The requests and reads one upload has running, so that cancelling the upload stops all of them: SDK futures
 * abort their requests when cancelled, reads are interrupted. Changes when an upload runs a new kind of work.
 */
final class Cancellables {

    private final Set<Future<?>> running = ConcurrentHashMap.newKeySet();
    private volatile boolean cancelled;

    /** Registers work; cancels it at once when the upload is already cancelled. */
    <T> CompletableFuture<T> add(CompletableFuture<T> future) {
        running.add(future);
        future.whenComplete((value, failure) -> running.remove(future));
        if (cancelled) {
            future.cancel(true);
        }
        return future;
    }

    /** Registers a task; the caller removes it when it ends. */
    void add(Future<?> task) {
        running.add(task);
        if (cancelled) {
            task.cancel(true);
        }
    }

    void remove(Future<?> task) {
        running.remove(task);
    }

    void cancelAll() {
        cancelled = true;
        for (Future<?> future : running) {
            future.cancel(true);
        }
    }

    boolean cancelled() {
        return cancelled;
    }
}
