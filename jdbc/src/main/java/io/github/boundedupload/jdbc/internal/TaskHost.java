package io.github.boundedupload.jdbc.internal;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.jdbc.DefaultJdbcCustomization;
import com.github.kagkarlsson.scheduler.logging.LogLevel;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.support.SafeText;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the journal's durable tasks run, and the transactions they and the journal write in: db-scheduler set up on
 * the application's database (its own table, {@code bounded_upload_task}; every instance runs tasks of any other),
 * with the journal's two one-time tasks (a compensation, a deferred upload) and its recurring recovery. What a task
 * does is not decided here: each is a {@link Task} handed to {@link #start}. Changes when the way tasks are hosted
 * changes (another scheduler, other timing), not when what they do changes.
 */
public final class TaskHost implements AutoCloseable {

    /** The journal logs under one name, whichever of its rooms writes. */
    public static final Logger LOG = LoggerFactory.getLogger("io.github.boundedupload.jdbc.JdbcUploadJournal");
    /** The task that removes what a batch stored. */
    public static final String COMPENSATION = "bounded-upload-compensation";
    /** The task that uploads a staged batch. */
    public static final String DEFERRED = "bounded-upload-deferred";
    private static final String RECOVERY = "bounded-upload-recovery";
    private static final String TASK_TABLE = "bounded_upload_task";

    /** What a one-time task does with its id; it throws to be tried again later. */
    public interface Task {
        /**
         * Runs the task. A run that finds, before a step that acts, that its execution is no longer its own (its
         * instance was taken for dead, and another runs the task now) stops there, reports what it did not do, and
         * returns: what happens to the execution is its new owner's.
         *
         * @param id the task instance's id
         * @param fence what this run owns: ask it before each step that writes or deletes
         * @return null when the task is done; else how long to wait before it runs again, without counting a failure
         *         (what it needs is held by another run)
         */
        @Nullable Duration run(String id, RunFence fence);

        /**
         * A try failed: records it, and says when to try again.
         *
         * @param id the task instance's id
         * @param tries the tries in a row that failed, this one included
         * @param why what failed, safe to log
         * @return the pause before the next try
         */
        Duration failed(String id, int tries, String why);

        /**
         * The instance that ran this task stopped sending heartbeats (it died) before the task ended: releases what
         * that run held, so that the task, run again now, is not held up by it. Called on every live instance that
         * finds the dead run, before it runs again: it must be harmless to call twice.
         *
         * @param id the task instance's id
         * @param deadInstance the name of the instance that died
         */
        void ownerDied(String id, String deadInstance);
    }

    /** Work on a connection of the journal's own, committed at the end. */
    @FunctionalInterface
    public interface InTransaction<T> {
        /**
         * Runs.
         *
         * @param c the connection; auto-commit off
         * @return a value
         * @throws SQLException when the database fails (the transaction is rolled back)
         */
        T run(Connection c) throws SQLException;
    }

    /** Work without a result on a connection of the journal's own, committed at the end. */
    @FunctionalInterface
    public interface SqlAction {
        /**
         * Runs.
         *
         * @param c the connection; auto-commit off
         * @throws SQLException when the database fails (the transaction is rolled back)
         */
        void run(Connection c) throws SQLException;
    }

    /**
     * How the scheduler runs.
     *
     * @param stopTimeout how long after the pause {@link #close()} waits for running tasks before it interrupts them
     */
    public record Settings(String instanceName, int threads, Duration pollingInterval, Duration heartbeatInterval,
            Duration stopTimeout, boolean createTables) {
    }

    /**
     * How long db-scheduler waits, at the end of {@link #close()}, for the tasks it still runs: once before it
     * interrupts them, once after. {@link #close()} has waited its stop timeout for them already.
     */
    public static final Duration SCHEDULER_WAIT = Duration.ofSeconds(1);

    /** The host name and the process id, at most 50 characters: unique per running process. */
    public static String defaultInstanceName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "unknown-host";
        }
        String name = host + "-" + ProcessHandle.current().pid();
        return name.length() > 50 ? name.substring(name.length() - 50) : name;
    }

    private final DataSource dataSource;
    private final BoundDataSource bound;
    private final Schema.Database database;
    private final String instanceName;
    private final Fencing fencing = new Fencing();
    private final OneTimeTask<Void> compensation;
    private final OneTimeTask<Void> deferred;
    private final Scheduler scheduler;
    private volatile @Nullable Task compensations;
    private volatile @Nullable Task deferredUploads;
    private volatile Runnable recovery = () -> { };
    private final Duration stopTimeout;
    /** Guards {@link #running} and {@link #paused}; signalled when the last running task ends. */
    private final Object runs = new Object();
    private int running;
    private boolean paused;
    private long pausedAt;

    /**
     * Creates the tables if asked and sets the scheduler up; nothing runs before {@link #start}.
     *
     * @throws UploadException when the database cannot be reached
     */
    public TaskHost(DataSource dataSource, Settings settings, Class<?> schemaOwner) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.bound = new BoundDataSource(dataSource);
        this.instanceName = settings.instanceName();
        this.stopTimeout = settings.stopTimeout();
        this.compensation = new SchedulerTasks.OneTime(COMPENSATION, () -> compensations, this);
        this.deferred = new SchedulerTasks.OneTime(DEFERRED, () -> deferredUploads, this);
        RecurringTask<Void> recover = new SchedulerTasks.Recovery(RECOVERY, FixedDelay.of(settings.pollingInterval()),
                () -> recovery, this);
        Schema.Database found;
        Connection c;
        try {
            c = dataSource.getConnection();
        } catch (SQLException e) {
            throw new UploadException("the upload journal could not reach its database: " + e.getMessage(), e);
        }
        try (c) {
            found = Schema.detect(c);
            if (settings.createTables()) {
                try {
                    Schema.create(c, schemaOwner);
                } catch (SQLException e) {
                    throw new UploadException("the upload journal could not create its tables on "
                            + found.displayName() + ": " + e.getMessage() + " (SQLState " + e.getSQLState() + ")",
                            e);
                }
            } else {
                List<String> missing = Schema.missing(c);
                if (!missing.isEmpty()) {
                    throw new UploadException("the upload journal's schema is missing on " + found.displayName()
                            + ": " + String.join(", ", missing) + ". Create it with createTables(true), the Flyway"
                            + " migrations (JournalMigrations.flywayLocation) or the Liquibase changelog ("
                            + "JournalMigrations.LIQUIBASE_CHANGELOG); see docs/journal.md", null);
                }
            }
        } catch (SQLException e) {
            throw new UploadException("the upload journal could not read which database it is on: "
                    + e.getMessage(), e);
        }
        this.database = found;
        var builder = Scheduler.create(bound, compensation, deferred)
                .startTasks(recover)
                .tableName(TASK_TABLE)
                .threads(settings.threads())
                .pollingInterval(settings.pollingInterval())
                .heartbeatInterval(settings.heartbeatInterval())
                .missedHeartbeatsLimit(6)
                .schedulerName(new SchedulerName.Fixed(settings.instanceName()))
                .shutdownMaxWait(SCHEDULER_WAIT)
                .enableImmediateExecution()
                // A failed try is logged by the task's own failed(), once, without the stack trace db-scheduler adds.
                .failureLogging(LogLevel.DEBUG, false);
        if (database == Schema.Database.MYSQL) {
            builder.alwaysPersistTimestampInUTC();
        } else if (database == Schema.Database.H2) {
            // db-scheduler has no H2 customization, and warns; its default is right for our zoned timestamps.
            builder.jdbcCustomization(new DefaultJdbcCustomization(false));
        }
        this.scheduler = builder.build();
    }

    /** Starts running tasks: what compensations, deferred uploads and the recurring recovery do. */
    public void start(Task compensations, Task deferredUploads, Runnable recovery) {
        this.compensations = compensations;
        this.deferredUploads = deferredUploads;
        this.recovery = recovery;
        scheduler.start();
    }

    /** The database the journal is on. */
    public Schema.Database database() {
        return database;
    }

    /** The name this instance runs tasks under. */
    String instanceName() {
        return instanceName;
    }

    /** What this instance did not do because its work had been taken over. */
    public Fencing fencing() {
        return fencing;
    }


    /**
     * Schedules a task instance now, in the transaction of {@code c}: it runs once that commits, and never when it
     * rolls back.
     *
     * @param task {@link #COMPENSATION} or {@link #DEFERRED}
     */
    public void schedule(String task, String id, Connection c) throws SQLException {
        OneTimeTask<Void> oneTime = COMPENSATION.equals(task) ? compensation : deferred;
        bound.with(c, () -> scheduler.scheduleIfNotExists(oneTime.instance(id), Instant.now()));
    }

    /** Looks for due tasks now (after a commit that scheduled one) instead of at the next poll. */
    public void triggerCheck() {
        scheduler.triggerCheckForDueExecutions();
    }

    /** Runs {@code work} on a connection of the journal's own and commits. */
    public <T> T inOwnTransaction(String what, InTransaction<T> work) {
        try (Connection c = dataSource.getConnection()) {
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(auto);
            }
        } catch (SQLException e) {
            throw new UploadException("upload journal: could not " + what + ": " + e.getMessage(), e);
        }
    }

    /** Runs {@code action} on a connection of the journal's own and commits. */
    public void runInOwnTransaction(String what, SqlAction action) {
        inOwnTransaction(what, c -> {
            action.run(c);
            return Boolean.TRUE;
        });
    }

    /** Records a failed try on a task's rows; a database that fails here too is logged, the retry happens anyway. */
    public void recordFailedTry(String what, SqlAction record) {
        try {
            runInOwnTransaction("record a failed try of " + what, record);
        } catch (RuntimeException e) {
            LOG.warn("upload journal: could not record the failed try of {}: {}", what, SafeText.describe(e));
        }
    }

    /**
     * Takes no more work on this instance: a task it picks from now on is handed back at once, due now, for an instance
     * that is not paused (or for this one's successor); the recovery skips its runs. Running tasks go on.
     */
    public void pause() {
        synchronized (runs) {
            if (!paused) {
                paused = true;
                pausedAt = System.nanoTime();
            }
        }
        scheduler.pause();
    }

    /**
     * Starts a run of a task, unless this instance is paused.
     *
     * @return whether the task may run; if so, {@link #ended()} must follow
     */
    boolean starting() {
        synchronized (runs) {
            if (paused) {
                return false;
            }
            running++;
            return true;
        }
    }

    /** A run that {@link #starting()} let start has ended. */
    void ended() {
        synchronized (runs) {
            running--;
            if (running == 0) {
                runs.notifyAll();
            }
        }
    }

    /**
     * Pauses, waits until the stop timeout after the pause for the running tasks to end, then stops the scheduler, which
     * interrupts
     * what still runs after {@link #SCHEDULER_WAIT} (an interrupted task is taken up again by an instance that is
     * alive, as after a crash). Called once: {@code JdbcUploadJournal.close()} guards it.
     */
    @Override
    public void close() {
        pause();
        synchronized (runs) {
            long deadline = pausedAt + stopTimeout.toNanos();
            boolean interrupted = false;
            while (running > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    LOG.warn("upload journal: {} task(s) still run {} ms after the journal paused (its stop"
                            + " timeout); they are interrupted, and an instance that is alive takes them up again",
                            running, stopTimeout.toMillis());
                    break;
                }
                try {
                    runs.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    interrupted = true;
                    break;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        scheduler.stop();
    }
}
