package io.github.boundedupload.internal;

import io.github.boundedupload.RejectionPolicy;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * {@link RejectionPolicy#CALLER_RUNS}: the submitting thread as its batch's executor. The batch's calls queue here,
 * and the thread runs them one after another until the batch is done (back-pressure on whoever submits).
 * Changes when the way a caller runs its own batch changes.
 */
final class CallerRuns implements Executor {

    private static final Runnable WAKE_UP = () -> { };

    private final LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();

    @Override
    public void execute(Runnable call) {
        queue.add(call);
    }

    /** The batch is done: the caller stops waiting for calls. */
    void wakeUp() {
        queue.add(WAKE_UP);
    }

    /**
     * On the submitting thread: runs the batch's calls until {@code done}; an interrupt cancels the batch (through
     * {@code cancel}) and is kept for the thread.
     */
    void drain(Future<?> done, Consumer<CancellationException> cancel) {
        boolean interrupted = false;
        while (!done.isDone()) {
            try {
                queue.take().run();
            } catch (InterruptedException e) {
                interrupted = true;
                cancel.accept(new CancellationException("the calling thread was interrupted"));
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
