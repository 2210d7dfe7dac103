package io.github.boundedupload.internal;

import io.github.boundedupload.internal.step.StepLock;
import io.github.boundedupload.internal.step.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The model-checked tests' time: a clock that moves only when the test {@linkplain #advance advances} it, and a timer on
 * it whose tasks run on the advancing thread once their time has come. An uploader on it waits without timeouts
 * ({@link #timedWaits()} is false), and advancing wakes its step lock's waiters, which then see the new time: a waiter
 * that nobody wakes stays blocked, and the model checker reports the hang. Only monitors and atomics, which the checker
 * controls.
 */
final class TestClock implements Ticker {

    private final AtomicLong now = new AtomicLong();
    private final Timer timer = new Timer();
    private volatile @Nullable StepLock steps;

    @Override
    public long nanoTime() {
        return now.get();
    }

    @Override
    public boolean timedWaits() {
        return false;
    }

    /** The uploader's timer: its tasks run when the clock is advanced past their time. */
    ScheduledExecutorService timer() {
        return timer;
    }

    /** The step lock whose waiters an advance wakes. */
    void wakes(StepLock lock) {
        this.steps = lock;
    }

    /** Moves the clock on, runs the timer's tasks now due (on this thread), and wakes the lock's waiters. */
    void advance(Duration by) {
        long to = now.addAndGet(by.toNanos());
        timer.runDue(to);
        StepLock lock = steps;
        if (lock != null) {
            lock.run(effects -> lock.signalAll());
        }
    }

    /** Tasks scheduled and not yet run (periodic ones count until cancelled). */
    int scheduled() {
        return timer.size();
    }

    /** Runs its tasks in {@link #advance}; nothing runs by itself. */
    private final class Timer extends AbstractExecutorService implements ScheduledExecutorService {

        private final List<Task> tasks = new ArrayList<>();
        private boolean shutdown;

        private synchronized Task add(Runnable command, long delayNanos, long periodNanos) {
            if (shutdown) {
                throw new RejectedExecutionException("the test timer is shut down");
            }
            Task task = new Task(command, now.get() + Math.max(0, delayNanos), periodNanos);
            tasks.add(task);
            return task;
        }

        private synchronized int size() {
            return tasks.size();
        }

        private synchronized @Nullable Task nextDue(long time) {
            Task next = null;
            for (Task task : tasks) {
                if (task.due <= time && (next == null || task.due < next.due)) {
                    next = task;
                }
            }
            if (next != null) {
                tasks.remove(next);
            }
            return next;
        }

        /** A task ran: a periodic one comes again a period later (from now: the clock stands still meanwhile). */
        private synchronized void ran(Task task, long time) {
            if (task.period == 0) {
                task.ran = true;
            } else if (!task.cancelled && !shutdown) {
                task.due = time + task.period;
                tasks.add(task);
            }
        }

        void runDue(long time) {
            for (Task task = nextDue(time); task != null; task = nextDue(time)) {
                task.command.run();
                ran(task, time);
            }
        }

        private synchronized boolean cancel(Task task) {
            task.cancelled = true;
            return tasks.remove(task);
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            return add(command, unit.toNanos(delay), 0);
        }

        @Override
        public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay,
                TimeUnit unit) {
            return add(command, unit.toNanos(initialDelay), Math.max(1, unit.toNanos(delay)));
        }

        @Override
        public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period,
                TimeUnit unit) {
            return scheduleWithFixedDelay(command, initialDelay, period, unit);
        }

        @Override
        public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
            throw new UnsupportedOperationException("the uploader schedules runnables only");
        }

        @Override
        public void execute(Runnable command) {
            add(command, 0, 0);
        }

        @Override
        public synchronized void shutdown() {
            shutdown = true;
        }

        @Override
        public synchronized List<Runnable> shutdownNow() {
            shutdown = true;
            List<Runnable> left = new ArrayList<>();
            for (Task task : tasks) {
                left.add(task.command);
            }
            tasks.clear();
            return left;
        }

        @Override
        public synchronized boolean isShutdown() {
            return shutdown;
        }

        @Override
        public synchronized boolean isTerminated() {
            return shutdown;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return isTerminated();
        }

        /** A task and its future. */
        private final class Task implements ScheduledFuture<Object> {
            final Runnable command;
            final long period;
            long due;
            boolean cancelled;
            boolean ran;

            Task(Runnable command, long due, long period) {
                this.command = command;
                this.due = due;
                this.period = period;
            }

            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                return Timer.this.cancel(this);
            }

            @Override
            public boolean isCancelled() {
                synchronized (Timer.this) {
                    return cancelled;
                }
            }

            @Override
            public boolean isDone() {
                synchronized (Timer.this) {
                    return cancelled || ran;
                }
            }

            @Override
            public @Nullable Object get() {
                throw new UnsupportedOperationException("the uploader never waits for a timer task");
            }

            @Override
            public @Nullable Object get(long timeout, TimeUnit unit) {
                throw new UnsupportedOperationException("the uploader never waits for a timer task");
            }

            @Override
            public long getDelay(TimeUnit unit) {
                synchronized (Timer.this) {
                    return unit.convert(due - now.get(), TimeUnit.NANOSECONDS);
                }
            }

            @Override
            public int compareTo(Delayed other) {
                return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
            }
        }
    }
}
