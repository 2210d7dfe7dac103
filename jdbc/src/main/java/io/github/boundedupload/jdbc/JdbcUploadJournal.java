package io.github.boundedupload.jdbc;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.jdbc.DefaultJdbcCustomization;
import com.github.kagkarlsson.scheduler.logging.LogLevel;
import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.ExecutionOperations;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.jdbc.internal.BoundDataSource;
import io.github.boundedupload.jdbc.internal.DeferredStore;
import io.github.boundedupload.jdbc.internal.Schema;
import io.github.boundedupload.jdbc.internal.Store;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadJournal;
import io.github.boundedupload.support.Backoff;
import io.github.boundedupload.support.SafeText;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link UploadJournal} in the application's own database (PostgreSQL, MySQL or H2): before a batch writes its
 * first byte, a row holds it and every key it may write; keeping the batch deletes the row, in the caller's transaction
 * when there is one; a batch whose lease ends unsettled (its process died, or its caller rolled back) is removed by a
 * durable compensation task, retried with backoff until the storage confirms, by whichever instance is alive. Tasks
 * run on db-scheduler, in a table of their own ({@code bounded_upload_task}); every instance of the application
 * shares the journal's tables and runs compensations for any of them.
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
 * <p>Recovery after a crash starts when the batch's lease ends: the uploader's batch timeout plus two stop timeouts,
 * plus {@link Builder#keepMargin(Duration)}, after the batch began; then within one {@link Builder#pollingInterval}.
 * Close the uploader before the journal.
 */
public final class JdbcUploadJournal implements UploadJournal, AutoCloseable {

    /** Added to a batch's longest run time for its lease: the time its caller has to keep it. */
    public static final Duration DEFAULT_KEEP_MARGIN = Duration.ofMinutes(1);
    /** How often expired leases and due compensations are looked for. */
    public static final Duration DEFAULT_POLLING_INTERVAL = Duration.ofSeconds(10);
    /** How often an instance running a compensation says it is alive; 6 missed mean it died, and another resumes. */
    public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(10);
    /** The pause after a compensation's first failed try; it doubles with each further failure. */
    public static final Duration DEFAULT_FIRST_RETRY_PAUSE = Duration.ofSeconds(1);
    /** The longest pause between two tries of a compensation. */
    public static final Duration DEFAULT_MAX_RETRY_PAUSE = Duration.ofMinutes(10);
    /** How long one delete on a non-blocking storage may take before the try fails. */
    public static final Duration DEFAULT_DELETE_TIMEOUT = Duration.ofMinutes(1);
    /** Tries in a row after which a compensation counts as failing (health, meters); it is still retried. */
    public static final int DEFAULT_FAILING_AFTER = 5;
    /** Threads that run compensations on this instance. */
    public static final int DEFAULT_THREADS = 2;

    static final Logger LOG = LoggerFactory.getLogger(JdbcUploadJournal.class);
    static final String COMPENSATION = "bounded-upload-compensation";
    static final String RECOVERY = "bounded-upload-recovery";
    static final String DEFERRED = "bounded-upload-deferred";
    private static final String TASK_TABLE = "bounded_upload_task";
    /** Expired batches claimed per page, and pages per recovery run. */
    private static final int PAGE = 100;
    private static final int MAX_PAGES = 10;

    private static final ThreadLocal<@Nullable Connection> NAMED_CONNECTION = new ThreadLocal<>();
    static final CallerTransaction NAMED = NAMED_CONNECTION::get;

    private final DataSource dataSource;
    private final BoundDataSource bound;
    private final KeyRemover remover;
    private final CallerTransaction transactions;
    private final String owner;
    private final Duration keepMargin;
    private final Backoff backoff;
    private final Duration maxRetryPause;
    private final int failingAfter;
    private final OneTimeTask<Void> compensation;
    private final OneTimeTask<Void> deferredUpload;
    /** The deferred uploads this instance runs, by uploader name. */
    private final Map<String, DeferredUploads> deferred = new ConcurrentHashMap<>();
    private final Scheduler scheduler;
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong retried = new AtomicLong();
    private final AtomicLong deferredRetried = new AtomicLong();

    private JdbcUploadJournal(Builder b) {
        this.dataSource = b.dataSource;
        this.bound = new BoundDataSource(b.dataSource);
        this.remover = b.remover;
        this.transactions = b.transactions;
        this.owner = b.instanceName;
        this.keepMargin = b.keepMargin;
        this.backoff = new Backoff(b.firstRetryPause, b.maxRetryPause);
        this.maxRetryPause = b.maxRetryPause;
        this.failingAfter = b.failingAfter;
        this.compensation = Tasks.oneTime(COMPENSATION)
                .onFailure(this::retryLater)
                .execute((instance, context) -> compensate(instance.getId()));
        this.deferredUpload = Tasks.oneTime(DEFERRED)
                .onFailure(this::retryDeferredLater)
                .execute((instance, context) -> runDeferred(instance.getId()));
        RecurringTask<Void> recovery = Tasks.recurring(RECOVERY, FixedDelay.of(b.pollingInterval))
                .execute((instance, context) -> recover());
        Schema.Database database;
        try (Connection c = dataSource.getConnection()) {
            if (b.createTables) {
                Schema.create(c, JdbcUploadJournal.class);
            }
            database = Schema.detect(c);
        } catch (SQLException e) {
            throw new UploadException("the upload journal could not reach its database"
                    + (b.createTables ? " to create its tables" : "") + ": " + e.getMessage(), e);
        }
        var scheduler = Scheduler.create(bound, compensation, deferredUpload)
                .startTasks(recovery)
                .tableName(TASK_TABLE)
                .threads(b.threads)
                .pollingInterval(b.pollingInterval)
                .heartbeatInterval(b.heartbeatInterval)
                .missedHeartbeatsLimit(6)
                .schedulerName(new SchedulerName.Fixed(owner))
                .shutdownMaxWait(DEFAULT_DELETE_TIMEOUT.plusSeconds(10))
                .enableImmediateExecution()
                // A failed try is logged by retryLater, once, without the stack trace db-scheduler would add.
                .failureLogging(LogLevel.DEBUG, false);
        if (database == Schema.Database.MYSQL) {
            scheduler.alwaysPersistTimestampInUTC();
        } else if (database == Schema.Database.H2) {
            // db-scheduler has no H2 customization, and warns; its default is right for our zoned timestamps.
            scheduler.jdbcCustomization(new DefaultJdbcCustomization(false));
        }
        this.scheduler = scheduler.build();
        this.scheduler.start();
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
        return new Builder(dataSource, key -> storage.delete(key));
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
        return new Builder(dataSource, key -> await(storage.delete(key)));
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
        Objects.requireNonNull(connection, "connection");
        Connection before = NAMED_CONNECTION.get();
        NAMED_CONNECTION.set(connection);
        try {
            return work.get();
        } finally {
            if (before == null) {
                NAMED_CONNECTION.remove();
            } else {
                NAMED_CONNECTION.set(before);
            }
        }
    }

    // ---- the uploader's side --------------------------------------------------------------------------------

    @Override
    public Entry begin(BatchEvent batch, List<String> keys, Duration maxRunTime) {
        String id = UUID.randomUUID().toString();
        long now = System.currentTimeMillis();
        long leaseUntil = now + maxRunTime.toMillis() + keepMargin.toMillis();
        runInOwnTransaction("record " + batch, c -> {
            try {
                Store.insertBatch(c, id, batch.uploaderName(), owner, Store.OPEN, now, leaseUntil);
                Store.insertKeys(c, id, keys);
            } catch (SQLException e) {
                if (!Store.isDuplicate(e)) {
                    throw e;
                }
                c.rollback();
                String held = Store.heldKey(c, keys).orElse("?");
                throw new UploadException("key " + SafeText.quote(held) + " belongs to a batch that is not settled"
                        + " yet (an upload of that key runs, waits for its caller's commit, or is being removed)",
                        null);
            }
        });
        return new JournalEntry(id, List.copyOf(keys), batch);
    }

    private final class JournalEntry implements Entry {
        private final String id;
        private final List<String> keys;
        private final BatchEvent batch;

        JournalEntry(String id, List<String> keys, BatchEvent batch) {
            this.id = id;
            this.keys = keys;
            this.batch = batch;
        }

        @Override
        public void keep(List<String> kept) {
            Set<String> keep = new HashSet<>(kept);
            List<String> rest = new ArrayList<>();
            for (String key : keys) {
                if (!keep.contains(key)) {
                    rest.add(key);
                }
            }
            if (!rest.isEmpty()) {
                removeApart(rest, batch);
            }
            Connection caller = transactions.current();
            int forgotten;
            if (caller != null) {
                try {
                    forgotten = Store.forgetOpen(caller, id);
                } catch (SQLException e) {
                    throw new UploadException("could not keep " + batch + " in the caller's transaction: "
                            + e.getMessage(), e);
                }
                if (forgotten == 1) {
                    transactions.afterRollback(() -> compensateSoon(id));
                }
            } else {
                forgotten = inOwnTransaction("keep " + batch, c -> Store.forgetOpen(c, id));
            }
            if (forgotten != 1) {
                throw new UploadException(batch + " is being removed already: its lease ended before it was kept",
                        null);
            }
        }

        @Override
        public void settled(boolean confirmed) {
            if (confirmed) {
                inOwnTransaction("forget " + batch, c -> Store.forgetOpen(c, id));
            } else {
                compensateSoon(id);
            }
        }

        @Override
        public String toString() {
            return "journal entry " + id + " of " + batch;
        }
    }

    /** Keys a kept batch did not keep: moved to a batch of their own, removed at once. */
    private void removeApart(List<String> keys, BatchEvent batch) {
        String id = UUID.randomUUID().toString();
        long now = System.currentTimeMillis();
        runInOwnTransaction("hand over what " + batch + " did not keep", c -> {
            Store.insertBatch(c, id, batch.uploaderName(), owner, Store.OPEN, now, now);
            Store.moveKeys(c, keys, id);
        });
        compensateSoon(id);
    }

    /** Claims an open batch and schedules its compensation now; never throws (the lease still covers it). */
    private void compensateSoon(String id) {
        try {
            boolean claimed = inOwnTransaction("claim batch " + id, c -> {
                if (Store.claim(c, id) != 1) {
                    return false;
                }
                bound.with(c, () -> scheduler.scheduleIfNotExists(compensation.instance(id), Instant.now()));
                return true;
            });
            if (claimed) {
                scheduler.triggerCheckForDueExecutions();
            }
        } catch (RuntimeException e) {
            LOG.warn("upload journal: could not start removing batch {} now; it is removed when its lease ends: {}",
                    id, SafeText.describe(e));
        }
    }

    // ---- the tasks --------------------------------------------------------------------------------------------

    /** The recurring task: claims open batches whose lease ended; forgets deferred attachments ended long ago. */
    private void recover() {
        runInOwnTransaction("forget finished deferred attachments", c -> DeferredStore.forgetFinished(c,
                System.currentTimeMillis() - DeferredUploads.KEEP_FINISHED.toMillis()));
        for (int page = 0; page < MAX_PAGES; page++) {
            List<String> expired = inOwnTransaction("find expired batches",
                    c -> Store.expired(c, System.currentTimeMillis(), PAGE));
            for (String id : expired) {
                LOG.info("upload journal: batch {} was not settled before its lease ended (its process died, or its"
                        + " caller did not commit); removing what it stored", id);
                compensateSoon(id);
            }
            if (expired.size() < PAGE) {
                return;
            }
        }
    }

    /** A compensation task: deletes every key of a claimed batch, then forgets it. Throws to be retried. */
    private void compensate(String id) {
        Optional<List<String>> found = inOwnTransaction("read batch " + id, c -> Store.keysOf(c, id));
        if (found.isEmpty()) {
            return; // removed already
        }
        List<String> keys = found.get();
        for (String key : keys) {
            try {
                remover.remove(key);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw new UploadException("could not delete " + SafeText.quote(key) + " to undo batch " + id + ": "
                        + SafeText.describe(e), e);
            }
        }
        runInOwnTransaction("forget batch " + id, c -> {
            Store.delete(c, id);
        });
        completed.incrementAndGet();
        LOG.info("upload journal: removed the {} keys of batch {}", keys.size(), id);
    }

    private void retryLater(ExecutionComplete complete, ExecutionOperations<Void> operations) {
        String id = complete.getExecution().taskInstance.getId();
        int tries = complete.getExecution().consecutiveFailures + 1;
        String why = reason(complete);
        recordFailedTry("batch " + id, c -> Store.failed(c, id, tries, why));
        Duration pause = backoff.pause(tries);
        retried.incrementAndGet();
        if (tries == failingAfter) {
            LOG.error("upload journal: removing batch {} failed {} times in a row; trying again every {} at most,"
                    + " until the storage confirms: {}", id, tries, maxRetryPause, why);
        } else {
            LOG.warn("upload journal: removing batch {} failed (try {}); trying again in {}: {}", id, tries, pause,
                    why);
        }
        operations.reschedule(complete, complete.getTimeDone().plus(pause));
    }

    /** Why a task failed; the journal's own messages name the key and describe the storage's failure safely already. */
    private static String reason(ExecutionComplete complete) {
        return complete.getCause().map(cause -> cause instanceof UploadException ? String.valueOf(cause.getMessage())
                : SafeText.describe(cause)).orElse("unknown failure");
    }

    /** Records a failed try on the task's rows; a database that fails here too is logged, the retry happens anyway. */
    private void recordFailedTry(String what, SqlAction record) {
        try {
            runInOwnTransaction("record a failed try of " + what, record);
        } catch (RuntimeException e) {
            LOG.warn("upload journal: could not record the failed try of {}: {}", what, SafeText.describe(e));
        }
    }

    // ---- deferred uploads -------------------------------------------------------------------------------------

    void register(String uploaderName, DeferredUploads uploads) {
        if (deferred.putIfAbsent(uploaderName, uploads) != null) {
            throw new IllegalArgumentException("the journal runs deferred uploads of uploader '" + uploaderName
                    + "' already");
        }
    }

    long deferredRetried() {
        return deferredRetried.get();
    }

    CallerTransaction callerTransaction() {
        return transactions;
    }

    /** Schedules a deferred batch's upload now, in the transaction of {@code c}. */
    void scheduleDeferred(Connection c, String batchId) throws SQLException {
        bound.with(c, () -> scheduler.scheduleIfNotExists(deferredUpload.instance(batchId), Instant.now()));
    }

    /** Looks for due tasks now (after a commit that scheduled one). */
    void triggerCheck() {
        scheduler.triggerCheckForDueExecutions();
    }

    private void runDeferred(String batchId) {
        String uploader = inOwnTransaction("read deferred batch " + batchId,
                c -> DeferredStore.uploaderOf(c, batchId)).orElse(null);
        if (uploader == null) {
            return; // forgotten
        }
        DeferredUploads uploads = deferred.get(uploader);
        if (uploads == null) {
            throw new UploadException("no DeferredUploads of uploader '" + uploader + "' runs on this instance", null);
        }
        uploads.run(batchId);
    }

    private void retryDeferredLater(ExecutionComplete complete, ExecutionOperations<Void> operations) {
        String id = complete.getExecution().taskInstance.getId();
        int tries = complete.getExecution().consecutiveFailures + 1;
        String why = reason(complete);
        recordFailedTry("deferred batch " + id, c -> DeferredStore.failedTry(c, id));
        Duration pause = backoff.pause(tries);
        deferredRetried.incrementAndGet();
        LOG.warn("upload journal: deferred batch {} was not uploaded (try {}); trying again in {}: {}", id, tries,
                pause, why);
        operations.reschedule(complete, complete.getTimeDone().plus(pause));
    }

    // ---- status -----------------------------------------------------------------------------------------------

    /**
     * What the journal holds now (one query on the database; more when compensations are failing).
     *
     * @return the status
     */
    public JournalStatus status() {
        return inOwnTransaction("read the status", c -> {
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
            return new JournalStatus(open + compensating, compensating, failing, age, failures, completed.get(),
                    retried.get());
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
     * Stops running compensations on this instance, waiting for running ones up to the delete timeout plus 10 s; what
     * is left is resumed by an instance that is alive. Close the uploader first.
     */
    @Override
    public void close() {
        scheduler.stop();
    }

    @Override
    public String toString() {
        return "JdbcUploadJournal[" + owner + "]";
    }

    // ---- plumbing ---------------------------------------------------------------------------------------------

    /** Work on a connection of the journal's own, committed at the end. */
    @FunctionalInterface
    interface InTransaction<T> {
        T run(Connection c) throws SQLException;
    }

    /** Work without a result on a connection of the journal's own, committed at the end. */
    @FunctionalInterface
    private interface SqlAction {
        void run(Connection c) throws SQLException;
    }

    private void runInOwnTransaction(String what, SqlAction action) {
        inOwnTransaction(what, c -> {
            action.run(c);
            return Boolean.TRUE;
        });
    }

    <T> T inOwnTransaction(String what, InTransaction<T> work) {
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

    /** Deletes one key from the storage; throws when the storage does not confirm. */
    @FunctionalInterface
    private interface KeyRemover {
        void remove(String key) throws Exception;
    }

    private static void await(CompletableFuture<Void> delete) throws Exception {
        try {
            delete.get(DEFAULT_DELETE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof Exception ? (Exception) cause : e;
        } catch (TimeoutException | InterruptedException e) {
            delete.cancel(true);
            throw e;
        }
    }

    private static String defaultInstanceName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "unknown-host";
        }
        String name = host + "-" + ProcessHandle.current().pid();
        return name.length() > 50 ? name.substring(name.length() - 50) : name;
    }

    /**
     * Builds a {@link JdbcUploadJournal}; {@link #build()} starts its compensations.
     */
    public static final class Builder {
        private final DataSource dataSource;
        private final KeyRemover remover;
        private CallerTransaction transactions = NAMED;
        private String instanceName = defaultInstanceName();
        private boolean createTables;
        private Duration keepMargin = DEFAULT_KEEP_MARGIN;
        private Duration pollingInterval = DEFAULT_POLLING_INTERVAL;
        private Duration heartbeatInterval = DEFAULT_HEARTBEAT_INTERVAL;
        private Duration firstRetryPause = DEFAULT_FIRST_RETRY_PAUSE;
        private Duration maxRetryPause = DEFAULT_MAX_RETRY_PAUSE;
        private int failingAfter = DEFAULT_FAILING_AFTER;
        private int threads = DEFAULT_THREADS;

        private Builder(DataSource dataSource, KeyRemover remover) {
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
         * Whether to create the journal's tables when they do not exist (PostgreSQL, MySQL, H2); off by default: the
         * scripts {@code schema-postgresql.sql}, {@code schema-mysql.sql} and {@code schema-h2.sql} beside this class
         * belong in the application's migrations.
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
         * Sets how often a running compensation's instance says it is alive ({@link #DEFAULT_HEARTBEAT_INTERVAL});
         * another instance resumes it after 6 missed.
         *
         * @param interval a positive duration
         * @return this builder
         */
        public Builder heartbeatInterval(Duration interval) {
            this.heartbeatInterval = interval;
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
            require(positive(firstRetryPause) && maxRetryPause.compareTo(firstRetryPause) >= 0, "retryPauses",
                    "a positive first pause, and a longest pause at least as long");
            require(failingAfter >= 1, "failingAfter", "at least 1");
            require(threads >= 1, "threads", "at least 1");
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
