package io.github.boundedupload.internal;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Every timer of one uploader, on one thread (Failsafe's {@code TimeoutExecutor} is the model: one owner for every
 * timeout): the {@link Sweep} of batch deadlines and upload timeouts, and, for the rare paths, stop timeouts and the
 * pauses between tries of a delete. Changes when the timer thread changes.
 */
final class Timeouts {

    private final ScheduledExecutorService timer;

    Timeouts(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /**
     * Runs the action after the delay, unless the returned canceller runs first. Once {@link #close() closed}, runs
     * it at once rather than never: only the end of {@code close()} gets there, which has stopped all waiting.
     */
    Runnable schedule(long delayNanos, Runnable action) {
        try {
            ScheduledFuture<?> scheduled = timer.schedule(() -> {
                try {
                    action.run();
                } catch (RuntimeException | Error e) {
                    // The timer would swallow it: a timeout that fails must not vanish.
                    Engine.LOG.error("internal error in bounded-upload's timer; please report it", e);
                }
            }, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
            return () -> scheduled.cancel(false);
        } catch (RejectedExecutionException e) {
            action.run();
            return () -> { };
        }
    }

    /** Runs the action every {@code periodNanos} (after each run ends), until the returned canceller runs. */
    Runnable every(long periodNanos, Runnable action) {
        try {
            ScheduledFuture<?> scheduled = timer.scheduleWithFixedDelay(() -> {
                try {
                    action.run();
                } catch (RuntimeException | Error e) {
                    Engine.LOG.error("internal error in bounded-upload's timer; please report it", e);
                }
            }, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
            return () -> scheduled.cancel(false);
        } catch (RejectedExecutionException e) {
            return () -> { }; // closed: nothing runs any more that could time out
        }
    }

    void close() {
        timer.shutdownNow();
    }
}
