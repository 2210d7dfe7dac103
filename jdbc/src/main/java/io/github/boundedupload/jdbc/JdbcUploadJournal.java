package io.github.boundedupload.jdbc;

import io.github.boundedupload.UploadException;
import io.github.boundedupload.jdbc.internal.BatchRecords;
import io.github.boundedupload.jdbc.internal.Compensations;
import io.github.boundedupload.jdbc.internal.DeferredRuns;
import io.github.boundedupload.jdbc.internal.Liveness;
import io.github.boundedupload.jdbc.internal.NamedConnection;
import io.github.boundedupload.jdbc.internal.Store;
import io.github.boundedupload.jdbc.internal.TaskHost;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadJournal;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * An {@link UploadJournal} in the application's own database (PostgreSQL, MySQL or H2): before a batch writes its
 * first byte, a row holds it and every key it may write; keeping the batch deletes the row, in the caller's transaction
 * when there is one; a batch whose lease ends unsettled (its process died, or its caller rolled back) is removed by a
 * durable compensation task, retried with backoff until the storage confirms, by whichever instance is alive. Tasks
 * run on db-scheduler, in a table of their own ({@code bounded_upload_task}); every instance of the application
 * shares the journal's tables and runs compensations for any of them. Changes when the journal's settings, status or
 * lifetime change.
 *
 * <pre>{@code
 * FileUploader storage = S3FileUploader.builder(s3, "attachments").build();
 * try (JdbcUploadJournal journal = JdbcUploadJournal.builder(dataSource, storage).createTables(true).build();
 *      ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
 *              UploaderConfig.builder().journal(journal).build())) {
 *     try (Connection tx = dataSource.getConnection()) {
 *         tx.setAutoCommit(false);
 *         BatchResult result = JdbcUploadJournal.inTransaction(tx, () -> uploader.uploadAll(attachments));
 *         insertRows(tx, result);   // the application's rows that point to the objects
 *         tx.commit();              // objects and rows together; a rollback or a crash removes the objects
 *     }
 * }
 * }</pre>
 *
 * <p>Recovery of a batch whose process died starts when its lease ends: the uploader's batch timeout plus two stop
 * timeouts, plus {@link Builder#keepMargin(Duration)}, after the batch began; then within one
 * {@link Builder#pollingInterval}. A compensation or a deferred upload cut by its instance's death does not wait for
 * any lease: another instance takes it over once db-scheduler finds the run dead (6 missed heartbeats, about a minute
 * with the defaults), releasing what it held. At shutdown, {@link #pause()} the journal, close the uploader, then
 * close the journal.
 *
 * <p>This class is the journal's face: its settings, its status and its lifetime, and what changes with them. The work
 * is done in rooms of its own, each below the one that uses it: the batches' rows, the scheduler that hosts the tasks,
 * the compensations, and the deferred-upload task ({@code docs/design.md} draws them).
 */
public final class JdbcUploadJournal implements UploadJournal, AutoCloseable {

    /** Added to a batch's longest run time for its lease: the time its caller has to keep it. */
    public static final Duration DEFAULT_KEEP_MARGIN = Duration.ofMinutes(1);
    /** How often expired leases and due compensations are looked for. */
    public static final Duration DEFAULT_POLLING_INTERVAL = Duration.ofSeconds(10);
    /**
     * How often an instance says it is alive: for its batches (see {@link #DEFAULT_LIVENESS_TIMEOUT}) and for each task
     * it runs (6 missed mean it died, and another instance resumes the task).
     */
    public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(10);
    /**
     * How long an instance may send no heartbeat, by the database's clock, before it counts as dead: its batches are
     * then removed by a live instance without waiting for their lease, and it acts on none of them any more.
     */
    public static final Duration DEFAULT_LIVENESS_TIMEOUT = Duration.ofMinutes(1);
    /** The pause after a compensation's first failed try; it doubles with each further failure. */
    public static final Duration DEFAULT_FIRST_RETRY_PAUSE = Duration.ofSeconds(1);
    /** The longest pause between two tries of a compensation. */
    public static final Duration DEFAULT_MAX_RETRY_PAUSE = Duration.ofMinutes(10);
    /** How long one delete on a non-blocking storage may take before the try fails. */
    public static final Duration DEFAULT_DELETE_TIMEOUT = Duration.ofMinutes(1);
    /**
     * How long after {@link #pause()} (or after {@link #close()}, without a pause) the journal's close waits for the
     * tasks this instance runs (a compensation's delete, a deferred upload, the recovery) before it interrupts them.
     */
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(5);
    /** Tries in a row after which a compensation counts as failing (health, meters); it is still retried. */
    public static final int DEFAULT_FAILING_AFTER = 5;
    /** Threads that run compensations on this instance. */
    public static final int DEFAULT_THREADS = 2;
    private final TaskHost host;
    private final Liveness liveness;
    private final Compensations compensations;
    private final DeferredRuns deferredRuns;
    private final BatchRecords records;
    private final CallerTransaction transactions;
    private final String owner;
    private final int failingAfter;
    private final Compensations.Remover remover;
    /** What other parts of the module add to every run of the recovery (a grant store's reconciliation). */
    private final List<Runnable> reconciliations = new CopyOnWriteArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    private JdbcUploadJournal(Builder b) {
        this.transactions = b.transactions;
        this.owner = b.instanceName;
        this.failingAfter = b.failingAfter;
        this.host = new TaskHost(b.dataSource, new TaskHost.Settings(owner, b.threads, b.pollingInterval,
                b.heartbeatInterval, b.stopTimeout, b.createTables), JdbcUploadJournal.class);
        this.liveness = new Liveness(host, owner, b.heartbeatInterval, b.livenessTimeout, host.fencing());
        this.compensations = new Compensations(host, b.remover, owner, b.firstRetryPause, b.maxRetryPause,
                failingAfter, b.heartbeatInterval);
        this.deferredRuns = new DeferredRuns(host, compensations, b.firstRetryPause, b.maxRetryPause);
        this.records = new BatchRecords(host, compensations, liveness, transactions, owner, b.keepMargin,
                b.heartbeatInterval);
        this.remover = b.remover;
        host.start(compensations, deferredRuns, () -> {
            deferredRuns.forgetFinished();
            liveness.declareDead();
            compensations.recover();
            reconciliations.forEach(Runnable::run);
        });
    }

    /**
     * A journal that removes objects from a blocking storage: the same storage the uploader writes to.
     *
     * @param dataSource the application's database, where the journal's tables are
     * @param storage the storage compensations delete from
     * @return a builder
     */
    public static Builder builder(DataSource dataSource, FileUploader storage) {
        Objects.requireNonNull(storage, "storage");
        return new Builder(dataSource, Compensations.remover(storage));
    }

    /**
     * A journal that removes objects from a non-blocking storage: the same storage the uploader writes to.
     *
     * @param dataSource the application's database, where the journal's tables are
     * @param storage the storage compensations delete from
     * @return a builder
     */
    public static Builder builder(DataSource dataSource, AsyncFileUploader storage) {
        Objects.requireNonNull(storage, "storage");
        return new Builder(dataSource, Compensations.remover(storage, DEFAULT_DELETE_TIMEOUT));
    }

    /**
     * Runs {@code work} (an {@code uploadAll}) so that the batches it keeps are kept in {@code connection}'s
     * transaction: the objects stay if, and only if, that transaction commits. The caller commits or rolls back; the
     * journal neither commits nor closes the connection. For the default {@link CallerTransaction#named()}.
     *
     * @param connection a connection whose auto-commit is off
     * @param work what to run
     * @param <T> what the work returns
     * @return what the work returned
     */
    public static <T> T inTransaction(Connection connection, Supplier<T> work) {
        return NamedConnection.with(Objects.requireNonNull(connection, "connection"), work);
    }

    // ---- the uploader's side --------------------------------------------------------------------------------

    @Override
    public Entry begin(BatchEvent batch, List<String> keys, Duration maxRunTime) {
        return records.begin(batch, keys, maxRunTime);
    }

    // ---- status -----------------------------------------------------------------------------------------------

    /**
     * What the journal holds now (one query on the database; more when compensations are failing).
     *
     * @return the status
     */
    public JournalStatus status() {
        return host.inOwnTransaction("read the status", c -> {
            long open = 0;
            long compensating = 0;
            long failing = 0;
            long oldest = Long.MAX_VALUE;
            for (Store.StateCount count : Store.counts(c, failingAfter)) {
                if (Store.OPEN.equals(count.state())) {
                    open += count.batches();
                } else {
                    compensating += count.batches();
                }
                failing += count.failing();
                oldest = Math.min(oldest, count.oldestCreatedAt());
            }
            List<String> failures = new ArrayList<>();
            if (failing > 0) {
                for (Store.Failing f : Store.failing(c, failingAfter, 10)) {
                    failures.add("batch " + f.batchId() + " of uploader '" + f.uploader() + "': " + f.tries()
                            + " tries, last: " + f.lastFailure());
                }
            }
            Duration age = oldest == Long.MAX_VALUE ? null
                    : Duration.ofMillis(Math.max(0, System.currentTimeMillis() - oldest));
            return new JournalStatus(open + compensating, compensating, failing, age, failures,
                    compensations.completed(), compensations.retried(), host.fencing().count());
        });
    }

    /**
     * The name this instance writes into the batches it begins and runs its tasks under.
     *
     * @return the instance name
     */
    public String instanceName() {
        return owner;
    }

    /**
     * The tries in a row after which a compensation counts as failing.
     *
     * @return the threshold
     */
    public int failingAfter() {
        return failingAfter;
    }

    /**
     * Takes no more work on this instance: from now on it starts no compensation, deferred upload or recovery run (what
     * it picks is handed back at once for another instance, or for this one's successor), while the batches of its
     * uploader still write to it and its running tasks go on. The first step of a graceful shutdown: pause the journal,
     * close the uploader (its running batches, deferred uploads among them, end), then close the journal. Spring
     * Boot's starter does this in its drain. Pausing again, or after {@link #close()}, does nothing.
     */
    public void pause() {
        host.pause();
    }

    /**
     * Stops running tasks on this instance: pauses, waits for the running ones to end until {@link Builder#stopTimeout}
     * after the pause (after {@link #pause()}, if it was called, else after this call), then interrupts what still runs
     * (an instance that is alive takes it up again, as after a crash) and stops db-scheduler, within about 2 s more.
     * Then ends this instance's session: a batch it still holds (a caller that never committed) is removed at the next
     * recovery. Close the uploader first. A second call does nothing.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            host.close();
        } finally {
            liveness.close();
        }
    }

    @Override
    public String toString() {
        return "JdbcUploadJournal[" + owner + "]";
    }

    // ---- what deferred uploads share -------------------------------------------------------------------------

    TaskHost host() {
        return host;
    }

    DeferredRuns deferredRuns() {
        return deferredRuns;
    }

    BatchRecords records() {
        return records;
    }

    CallerTransaction callerTransaction() {
        return transactions;
    }

    Compensations.Remover storage() {
        return remover;
    }

    /** Runs {@code step} in every run of the recovery, on one instance of the fleet at a time. */
    void addToRecovery(Runnable step) {
        reconciliations.add(step);
    }

    /**
     * Builds a {@link JdbcUploadJournal}; {@link #build()} starts its compensations.
     */
    public static final class Builder {
        private final DataSource dataSource;
        private final Compensations.Remover remover;
        private CallerTransaction transactions = CallerTransaction.named();
        private String instanceName = TaskHost.defaultInstanceName();
        private boolean createTables;
        private Duration keepMargin = DEFAULT_KEEP_MARGIN;
        private Duration pollingInterval = DEFAULT_POLLING_INTERVAL;
        private Duration heartbeatInterval = DEFAULT_HEARTBEAT_INTERVAL;
        private Duration livenessTimeout = DEFAULT_LIVENESS_TIMEOUT;
        private Duration firstRetryPause = DEFAULT_FIRST_RETRY_PAUSE;
        private Duration maxRetryPause = DEFAULT_MAX_RETRY_PAUSE;
        private int failingAfter = DEFAULT_FAILING_AFTER;
        private int threads = DEFAULT_THREADS;
        private Duration stopTimeout = DEFAULT_STOP_TIMEOUT;

        private Builder(DataSource dataSource, Compensations.Remover remover) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
            this.remover = remover;
        }

        /**
         * How the journal finds the caller's transaction; {@link CallerTransaction#named()} by default.
         *
         * @param transactions the finder
         * @return this builder
         */
        public Builder callerTransaction(CallerTransaction transactions) {
            this.transactions = Objects.requireNonNull(transactions, "transactions");
            return this;
        }

        /**
         * The name of this instance in the journal and among db-scheduler's instances: unique per running process,
         * at most 50 characters. By default the host name and the process id.
         *
         * @param name the name
         * @return this builder
         */
        public Builder instanceName(String name) {
            this.instanceName = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * Whether to create the journal's tables when they do not exist (PostgreSQL, MySQL or MariaDB, H2), under a
         * lock of the database, so that instances starting at once all start; off by default. The schema is also a
         * Flyway migration ({@code classpath:io/github/boundedupload/jdbc/flyway/postgresql}, {@code .../mysql},
         * {@code .../h2}) and a Liquibase changelog
         * ({@code classpath:io/github/boundedupload/jdbc/liquibase/bounded-upload-journal.xml}), for applications
         * whose migrations own their schema ({@code docs/journal.md}).
         *
         * @param create whether to create them
         * @return this builder
         */
        public Builder createTables(boolean create) {
            this.createTables = create;
            return this;
        }

        /**
         * Sets the margin added to a batch's longest run time for its lease ({@link #DEFAULT_KEEP_MARGIN}).
         *
         * @param margin zero or more
         * @return this builder
         */
        public Builder keepMargin(Duration margin) {
            this.keepMargin = margin;
            return this;
        }

        /**
         * Sets how often expired leases and due compensations are looked for ({@link #DEFAULT_POLLING_INTERVAL}).
         *
         * @param interval a positive duration
         * @return this builder
         */
        public Builder pollingInterval(Duration interval) {
            this.pollingInterval = interval;
            return this;
        }

        /**
         * Sets how often this instance says it is alive ({@link #DEFAULT_HEARTBEAT_INTERVAL}): for its batches, and for
         * each task it runs, which another instance resumes after 6 missed.
         *
         * @param interval a positive duration
         * @return this builder
         */
        public Builder heartbeatInterval(Duration interval) {
            this.heartbeatInterval = interval;
            return this;
        }

        /**
         * Sets how long this instance may send no heartbeat, by the database's clock, before the fleet counts it as
         * dead ({@link #DEFAULT_LIVENESS_TIMEOUT}): then a live instance removes what its batches stored, without
         * waiting for their lease, and this instance, should it come back, acts on none of them any more. At least
         * three heartbeat intervals. Shorter recovers a crashed instance's objects sooner; longer tolerates longer
         * pauses (garbage collection, a frozen VM, a slow database) before an instance's running batches are given up.
         *
         * @param timeout at least three heartbeat intervals
         * @return this builder
         */
        public Builder livenessTimeout(Duration timeout) {
            this.livenessTimeout = timeout;
            return this;
        }

        /**
         * Sets the pauses between tries of a compensation: the first, doubling up to the longest, randomised
         * ({@link #DEFAULT_FIRST_RETRY_PAUSE}, {@link #DEFAULT_MAX_RETRY_PAUSE}).
         *
         * @param first the first pause
         * @param max the longest pause
         * @return this builder
         */
        public Builder retryPauses(Duration first, Duration max) {
            this.firstRetryPause = first;
            this.maxRetryPause = max;
            return this;
        }

        /**
         * Sets the tries in a row after which a compensation counts as failing ({@link #DEFAULT_FAILING_AFTER}).
         *
         * @param tries at least 1
         * @return this builder
         */
        public Builder failingAfter(int tries) {
            this.failingAfter = tries;
            return this;
        }

        /**
         * Sets the threads that run compensations on this instance ({@link #DEFAULT_THREADS}).
         *
         * @param threads at least 1
         * @return this builder
         */
        public Builder threads(int threads) {
            this.threads = threads;
            return this;
        }

        /**
         * Sets how long after {@link JdbcUploadJournal#pause()} (or after its close, without a pause) the journal's
         * close waits for the tasks this instance runs before it interrupts them ({@link #DEFAULT_STOP_TIMEOUT}).
         * Interrupting one loses nothing: an instance that is alive takes it up again, as after a crash. For a
         * graceful shutdown, the time the uploader's close takes: its deferred uploads run as its batches, and end with
         * them.
         *
         * @param timeout zero or more
         * @return this builder
         */
        public Builder stopTimeout(Duration timeout) {
            this.stopTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * Checks the settings, creates the tables if asked, and starts the journal's tasks.
         *
         * @return a running journal; close it after the uploader
         * @throws IllegalArgumentException naming a setting out of range
         * @throws UploadException when the database cannot be reached
         */
        public JdbcUploadJournal build() {
            require(!instanceName.isBlank() && instanceName.length() <= 50, "instanceName",
                    "1 to 50 characters");
            require(!keepMargin.isNegative(), "keepMargin", "zero or more");
            require(positive(pollingInterval), "pollingInterval", "a positive duration");
            require(positive(heartbeatInterval), "heartbeatInterval", "a positive duration");
            require(livenessTimeout.compareTo(heartbeatInterval.multipliedBy(3)) >= 0, "livenessTimeout",
                    "at least three heartbeat intervals (" + heartbeatInterval.multipliedBy(3) + ")");
            require(positive(firstRetryPause) && maxRetryPause.compareTo(firstRetryPause) >= 0, "retryPauses",
                    "a positive first pause, and a longest pause at least as long");
            require(failingAfter >= 1, "failingAfter", "at least 1");
            require(threads >= 1, "threads", "at least 1");
            require(!stopTimeout.isNegative(), "stopTimeout", "zero or more");
            return new JdbcUploadJournal(this);
        }

        private static boolean positive(Duration d) {
            return !d.isNegative() && !d.isZero();
        }

        private static void require(boolean valid, String setting, String allowed) {
            if (!valid) {
                throw new IllegalArgumentException("JdbcUploadJournal." + setting + " must be " + allowed);
            }
        }
    }
}
