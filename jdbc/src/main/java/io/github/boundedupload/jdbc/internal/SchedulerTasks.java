package io.github.boundedupload.jdbc.internal;

import static io.github.boundedupload.jdbc.internal.TaskHost.LOG;

import com.github.kagkarlsson.scheduler.exceptions.ExecutionException;
import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.DeadExecutionHandler;
import com.github.kagkarlsson.scheduler.task.Execution;
import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.ExecutionContext;
import com.github.kagkarlsson.scheduler.task.ExecutionOperations;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.schedule.Schedule;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.support.SafeText;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The journal's tasks as db-scheduler runs them: the one-time tasks (a compensation, a deferred upload) and the
 * recurring recovery, with what happens after a run, a failed run and a dead one. A run that ends after its execution was
 * taken over (its instance was paused past the dead-run timeout, and another instance revived it) neither completes nor
 * reschedules it: db-scheduler's own handlers would fail on the changed version and log an ERROR that "indicates a bug";
 * here the stale run hears that the task is another instance's now, and says so. Changes when how the journal's tasks
 * meet db-scheduler changes; what they do is {@link TaskHost.Task}'s.
 */
final class SchedulerTasks {

    private SchedulerTasks() {
    }

    /** A one-time task: what it does is the {@link TaskHost.Task} handed to {@link TaskHost#start}. */
    static final class OneTime extends OneTimeTask<Void> {
        private final Supplier<TaskHost.@Nullable Task> task;
        private final TaskHost host;

        OneTime(String name, Supplier<TaskHost.@Nullable Task> task, TaskHost host) {
            super(name, Void.class, (complete, operations) -> retryLater(task.get(), complete, operations,
                    host.fencing()), (complete, operations) -> revive(task.get(), complete, operations, host.fencing()));
            this.task = task;
            this.host = host;
        }

        @Override
        public CompletionHandler<Void> execute(TaskInstance<Void> instance, ExecutionContext context) {
            Execution execution = context.getExecution();
            if (!host.starting()) {
                // Paused: handed back, due now, without counting a failure.
                return (complete, operations) -> reschedule(complete, operations, Duration.ZERO, instance);
            }
            Duration later;
            try {
                later = task(task.get()).run(instance.getId(), new RunFence(host, execution));
            } finally {
                host.ended();
            }
            Duration after = later;
            return (complete, operations) -> reschedule(complete, operations, after, instance);
        }

        /** Ends a run: the task removed when it is done ({@code later} null), else due again after {@code later}. */
        private void reschedule(ExecutionComplete complete, ExecutionOperations<Void> operations,
                @Nullable Duration later, TaskInstance<Void> instance) {
            try {
                if (later == null) {
                    operations.remove();
                } else {
                    operations.reschedule(complete, Instant.now().plus(later));
                }
            } catch (ExecutionException e) {
                host.fencing().notDone(host.instanceName() + "'s run of " + getName() + " " + instance.getId()
                        + " ended after another instance had taken the task over: it leaves the task to that"
                        + " instance");
            }
        }

        @Override
        public void executeOnce(TaskInstance<Void> instance, ExecutionContext context) {
            throw new IllegalStateException("execute runs the task");
        }
    }

    /**
     * The recurring recovery, on one instance at a time. Like the one-time tasks, a run that ends after another instance
     * revived the task (this one was paused) leaves it to that instance, quietly.
     */
    static final class Recovery extends RecurringTask<Void> {
        private final Schedule schedule;
        private final Supplier<Runnable> recovery;
        private final Fencing fencing;
        private final TaskHost host;

        Recovery(String name, Schedule schedule, Supplier<Runnable> recovery, TaskHost host) {
            super(name, schedule, Void.class, (complete, operations) -> {
                LOG.warn("upload journal: the recovery failed; it runs again in the next poll: {}", reason(complete));
                reschedule(schedule, complete, operations, host.fencing());
            });
            this.schedule = schedule;
            this.recovery = recovery;
            this.fencing = host.fencing();
            this.host = host;
        }

        @Override
        public DeadExecutionHandler<Void> getDeadExecutionHandler() {
            return (complete, operations) -> revive(null, complete, operations, fencing);
        }

        @Override
        public CompletionHandler<Void> execute(TaskInstance<Void> instance, ExecutionContext context) {
            if (host.starting()) { // paused: this run is skipped
                try {
                    recovery.get().run();
                } finally {
                    host.ended();
                }
            }
            return (complete, operations) -> reschedule(schedule, complete, operations, fencing);
        }

        @Override
        public void executeRecurringly(TaskInstance<Void> instance, ExecutionContext context) {
            throw new IllegalStateException("execute runs the recovery");
        }

        private static void reschedule(Schedule schedule, ExecutionComplete complete,
                ExecutionOperations<Void> operations, Fencing fencing) {
            try {
                operations.reschedule(complete, schedule.getNextExecutionTime(complete));
            } catch (ExecutionException e) {
                fencing.notDone("a run of the recovery ended after another instance had taken it over: it leaves the"
                        + " recovery to that instance");
            }
        }
    }

    private static TaskHost.Task task(TaskHost.@Nullable Task task) {
        return Objects.requireNonNull(task, "the journal's tasks run only once it started");
    }

    private static void retryLater(TaskHost.@Nullable Task task, ExecutionComplete complete,
            ExecutionOperations<Void> operations, Fencing fencing) {
        String id = complete.getExecution().taskInstance.getId();
        int tries = complete.getExecution().consecutiveFailures + 1;
        Duration pause = task(task).failed(id, tries, reason(complete));
        try {
            operations.reschedule(complete, complete.getTimeDone().plus(pause));
        } catch (ExecutionException e) {
            fencing.notDone("a failed run of " + complete.getExecution().taskInstance.getTaskName() + " " + id
                    + " ended after another instance had taken the task over: it does not schedule it again");
        }
    }

    /**
     * A run whose instance died (db-scheduler saw no heartbeat of it for {@code missedHeartbeatsLimit} intervals): what
     * it held is released, and it runs again now. db-scheduler's own handler does the same rescheduling, but when two
     * live instances find the same dead run (routine in a fleet), the second one's update finds the row changed and
     * db-scheduler logs it as an ERROR that "indicates a bug"; here the second instance hears that it was revived
     * already, which is what happened.
     */
    private static void revive(TaskHost.@Nullable Task task, ExecutionComplete complete,
            ExecutionOperations<Void> operations, Fencing fencing) {
        Execution execution = complete.getExecution();
        String id = execution.taskInstance.getId();
        String dead = String.valueOf(execution.pickedBy);
        if (task != null) {
            task.ownerDied(id, dead);
        }
        try {
            operations.reschedule(complete, Instant.now());
            LOG.info("upload journal: instance {} died while it ran {} {}; it runs again now",
                    dead, execution.taskInstance.getTaskName(), id);
        } catch (ExecutionException e) {
            LOG.info("upload journal: instance {} died while it ran {} {}; another instance revived it first",
                    dead, execution.taskInstance.getTaskName(), id);
        }
    }

    /** Why a task failed; the journal's own messages name the key and describe the storage's failure safely already. */
    private static String reason(ExecutionComplete complete) {
        return complete.getCause().map(cause -> cause instanceof UploadException ? String.valueOf(cause.getMessage())
                : SafeText.describe(cause)).orElse("unknown failure");
    }
}
