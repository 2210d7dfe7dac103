package io.github.boundedupload.autoconfigure;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.util.unit.DataSize;

/**
 * Settings of the upload journal ({@code bounded-upload-jdbc} on the class path, and a {@code DataSource}): what a
 * batch stored is removed after a crash, an outage, or a rollback of the Spring-managed transaction that called
 * {@code uploadAll}, by whichever instance of the application is alive. Changes when the journal gets another setting.
 */
public class JournalProperties {

    /**
     * Whether to record batches in the application's database (its DataSource) before their first byte, and keep them
     * in the calling Spring transaction: the objects stay if, and only if, it commits.
     */
    private boolean enabled;

    /**
     * Whether to make the journal's tables exist at start-up; unset, through the application's Flyway or Liquibase
     * when one runs at start-up, else only on an embedded database. When the application's Flyway runs at start-up, its
     * Flyway applies the journal's migrations, right after the application's own (history table
     * bounded_upload_schema_history); else when its Liquibase does, Liquibase applies the journal's changelog; else the
     * journal creates what is missing itself (PostgreSQL, MySQL/MariaDB or H2). Unset: as Spring Boot's own schema
     * initialization, only on an embedded database, unless a migration tool of the application runs. Set it to false
     * when the application's own migrations include the journal's. Where nothing creates them, start-up checks that
     * the tables exist.
     */
    private @Nullable Boolean createTables;

    /** This instance's name among the application's instances; by default the host name and process id. */
    private @Nullable String instanceName;

    /**
     * Added to a batch's longest run time (batch timeout plus two stop timeouts) for its lease: the time its caller has
     * to commit. A batch not kept when its lease ends is removed.
     */
    private Duration keepMargin = Duration.ofMinutes(1);

    /** How often expired leases and due compensations are looked for. */
    private Duration pollingInterval = Duration.ofSeconds(10);

    /**
     * How long an instance may send no heartbeat, by the database's clock, before the fleet counts it as dead: a live
     * instance then removes what its batches stored, without waiting for their lease, and the silent instance acts on
     * none of them any more. At least three heartbeat intervals (10 s each).
     */
    private Duration livenessTimeout = Duration.ofMinutes(1);

    /** Tries in a row after which a compensation counts as failing (health details, meters); it is still retried. */
    private int failingAfter = 5;

    /** Threads that run compensations and deferred uploads on this instance. */
    private int threads = 2;

    /** The pause after the first failed try of a compensation or a deferred upload; it doubles with each failure. */
    private Duration firstRetryPause = Duration.ofSeconds(1);

    /** The longest pause between two tries of a compensation or a deferred upload. */
    private Duration maxRetryPause = Duration.ofMinutes(10);

    private final Deferred deferred = new Deferred();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public @Nullable Boolean getCreateTables() {
        return createTables;
    }

    public void setCreateTables(@Nullable Boolean createTables) {
        this.createTables = createTables;
    }

    public @Nullable String getInstanceName() {
        return instanceName;
    }

    public void setInstanceName(@Nullable String instanceName) {
        this.instanceName = instanceName;
    }

    public Duration getKeepMargin() {
        return keepMargin;
    }

    public void setKeepMargin(Duration keepMargin) {
        this.keepMargin = keepMargin;
    }

    public Duration getPollingInterval() {
        return pollingInterval;
    }

    public void setPollingInterval(Duration pollingInterval) {
        this.pollingInterval = pollingInterval;
    }

    public Duration getLivenessTimeout() {
        return livenessTimeout;
    }

    public void setLivenessTimeout(Duration livenessTimeout) {
        this.livenessTimeout = livenessTimeout;
    }

    public int getFailingAfter() {
        return failingAfter;
    }

    public void setFailingAfter(int failingAfter) {
        this.failingAfter = failingAfter;
    }

    public int getThreads() {
        return threads;
    }

    public void setThreads(int threads) {
        this.threads = threads;
    }

    public Duration getFirstRetryPause() {
        return firstRetryPause;
    }

    public void setFirstRetryPause(Duration firstRetryPause) {
        this.firstRetryPause = firstRetryPause;
    }

    public Duration getMaxRetryPause() {
        return maxRetryPause;
    }

    public void setMaxRetryPause(Duration maxRetryPause) {
        this.maxRetryPause = maxRetryPause;
    }

    public Deferred getDeferred() {
        return deferred;
    }

    /**
     * Deferred uploads (a DeferredUploads bean): attachments accepted for upload after the response, their content
     * staged in the database until stored.
     */
    public static class Deferred {

        /** Largest attachment that is staged for a deferred upload. */
        private DataSize maxAttachmentSize = DataSize.ofMegabytes(16);

        /**
         * Bound of all staged content, on every instance; a batch that would exceed it is refused. Small, for the
         * application's own database: the content is in its log, its backups and its cache too.
         */
        private DataSize maxStagedSize = DataSize.ofMegabytes(64);

        /** Bound of staged attachments, on every instance; a batch that would exceed it is refused. */
        private int maxStagedAttachments = 10_000;

        /** How long after it was accepted a deferred attachment is retried before it is recorded failed. */
        private Duration deadline = Duration.ofHours(24);

        public DataSize getMaxAttachmentSize() {
            return maxAttachmentSize;
        }

        public void setMaxAttachmentSize(DataSize maxAttachmentSize) {
            this.maxAttachmentSize = maxAttachmentSize;
        }

        public DataSize getMaxStagedSize() {
            return maxStagedSize;
        }

        public void setMaxStagedSize(DataSize maxStagedSize) {
            this.maxStagedSize = maxStagedSize;
        }

        public int getMaxStagedAttachments() {
            return maxStagedAttachments;
        }

        public void setMaxStagedAttachments(int maxStagedAttachments) {
            this.maxStagedAttachments = maxStagedAttachments;
        }

        public Duration getDeadline() {
            return deadline;
        }

        public void setDeadline(Duration deadline) {
            this.deadline = deadline;
        }
    }
}
