package io.github.boundedupload;

import io.github.boundedupload.spi.ConcurrencyLimit;
import io.github.boundedupload.spi.ContextPropagator;
import io.github.boundedupload.spi.UploadJournal;
import io.github.boundedupload.spi.UploadListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The bounds and policies of a {@link ConcurrentAttachmentUploader}. Immutable; every value has a safe default,
 * published as a constant here so that documentation and code cannot drift apart. Changes when an uploader's bounds or
 * policies, or their defaults, change.
 *
 * <p>(A long file on purpose: every setting is a constant, a field, a documented accessor and a builder method, and
 * all of them in one place is where a reader looks for a setting.)
 *
 * <pre>{@code
 * UploaderConfig config = UploaderConfig.builder()
 *     .name("study-attachments")
 *     .maxConcurrentUploads(64)            // across all batches
 *     .maxConcurrentUploadsPerBatch(10)    // one big batch cannot starve the others
 *     .maxBytesInFlight(256L << 20)        // big files do not all go at once
 *     .rejectionPolicy(RejectionPolicy.CALLER_RUNS)
 *     .build();
 * }</pre>
 */
public final class UploaderConfig {

    /** Default {@link #name()}. */
    public static final String DEFAULT_NAME = "default";
    /** Default {@link #maxConcurrentUploads()}. */
    public static final int DEFAULT_MAX_CONCURRENT_UPLOADS = 64;
    /**
     * Default {@link #maxConcurrentUploadsPerBatch()}: 16, or {@link #maxConcurrentUploads()} when that is smaller, so
     * that lowering the overall bound alone is a valid configuration.
     */
    public static final int DEFAULT_MAX_CONCURRENT_UPLOADS_PER_BATCH = 16;
    /** Default {@link #maxQueuedUploads()}. */
    public static final int DEFAULT_MAX_QUEUED_UPLOADS = 10_000;
    /**
     * Default {@link #maxBytesInFlight()}: 1 GiB. Measured (docs/benchmarks.md, scenario C): four files of 180 MB from
     * disk went up faster together than one after another on both test servers, and neither files nor byte arrays are
     * copied into memory to be sent; so the default lets a few large files share the network, and a file of 1 GiB or
     * content of unknown length still runs alone.
     */
    public static final long DEFAULT_MAX_BYTES_IN_FLIGHT = 1024L * 1024 * 1024;
    /** Default {@link #maxAttachmentSize()}: 1 GiB. */
    public static final long DEFAULT_MAX_ATTACHMENT_SIZE = 1024L * 1024 * 1024;
    /** Default {@link #maxAttachmentsPerBatch()}. */
    public static final int DEFAULT_MAX_ATTACHMENTS_PER_BATCH = 1_000;
    /** Default {@link #rejectionPolicy()}. */
    public static final RejectionPolicy DEFAULT_REJECTION_POLICY = RejectionPolicy.ABORT;
    /** Default {@link #blockTimeout()}. */
    public static final Duration DEFAULT_BLOCK_TIMEOUT = Duration.ofSeconds(10);
    /** Default {@link #uploadTimeout()}. */
    public static final Duration DEFAULT_UPLOAD_TIMEOUT = Duration.ofMinutes(5);
    /** Default {@link #batchTimeout()}. */
    public static final Duration DEFAULT_BATCH_TIMEOUT = Duration.ofMinutes(30);
    /**
     * Default {@link #shutdownGracePeriod()}: 10 s, so that {@code close()} with the defaults (this and two
     * {@link #DEFAULT_STOP_TIMEOUT}s: 20 s) ends inside Kubernetes' default termination grace period of 30 s.
     */
    public static final Duration DEFAULT_SHUTDOWN_GRACE_PERIOD = Duration.ofSeconds(10);
    /** Default {@link #stopTimeout()}: 5 s (a delete or an abort of S3 takes milliseconds). */
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(5);
    /** Default {@link #rollbackDeadline()}. */
    public static final Duration DEFAULT_ROLLBACK_DEADLINE = Duration.ofMinutes(10);
    /** Default {@link #failurePolicy()}. */
    public static final FailurePolicy DEFAULT_FAILURE_POLICY = FailurePolicy.ALL_OR_NOTHING;
    /** Default {@link #executorType()}. */
    public static final ExecutorType DEFAULT_EXECUTOR_TYPE = ExecutorType.AUTO;
    /** Default {@link #keepUnknownOutcomes()}: what may be stored is removed. */
    public static final boolean DEFAULT_KEEP_UNKNOWN_OUTCOMES = false;
    /**
     * Default {@link #keepWorkOnUploaderThreads()}: a non-blocking storage's answer is handled, and starts the next
     * call, on the thread that brought it.
     */
    public static final boolean DEFAULT_KEEP_WORK_ON_UPLOADER_THREADS = false;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");
    private static final UploaderConfig DEFAULTS = builder().build();

    private final String name;
    private final int maxConcurrentUploads;
    private final int maxConcurrentUploadsPerBatch;
    /** Whether {@link #maxConcurrentUploadsPerBatch} is the default's, which follows a smaller overall bound. */
    private final boolean perBatchByDefault;
    private final int maxQueuedUploads;
    private final long maxBytesInFlight;
    private final long maxAttachmentSize;
    private final int maxAttachmentsPerBatch;
    private final RejectionPolicy rejectionPolicy;
    private final Duration blockTimeout;
    private final Duration uploadTimeout;
    private final Duration batchTimeout;
    private final Duration shutdownGracePeriod;
    private final Duration stopTimeout;
    private final Duration rollbackDeadline;
    private final FailurePolicy failurePolicy;
    private final boolean keepUnknownOutcomes;
    private final ExecutorType executorType;
    private final @Nullable Executor executor;
    private final boolean keepWorkOnUploaderThreads;
    private final ContextPropagator contextPropagator;
    private final List<UploadListener> listeners;
    private final KeyStrategy keyStrategy;
    private final @Nullable ConcurrencyLimit concurrencyLimit;
    private final @Nullable UploadJournal journal;

    private UploaderConfig(Builder b) {
        this.name = b.name;
        this.maxConcurrentUploads = b.maxConcurrentUploads;
        this.maxConcurrentUploadsPerBatch = b.perBatch();
        this.perBatchByDefault = !b.perBatchSet;
        this.maxQueuedUploads = b.maxQueuedUploads;
        this.maxBytesInFlight = b.maxBytesInFlight;
        this.maxAttachmentSize = b.maxAttachmentSize;
        this.maxAttachmentsPerBatch = b.maxAttachmentsPerBatch;
        this.rejectionPolicy = b.rejectionPolicy;
        this.blockTimeout = b.blockTimeout;
        this.uploadTimeout = b.uploadTimeout;
        this.batchTimeout = b.batchTimeout;
        this.shutdownGracePeriod = b.shutdownGracePeriod;
        this.stopTimeout = b.stopTimeout;
        this.rollbackDeadline = b.rollbackDeadline;
        this.failurePolicy = b.failurePolicy;
        this.keepUnknownOutcomes = b.keepUnknownOutcomes;
        this.executorType = b.executorType;
        this.executor = b.executor;
        this.keepWorkOnUploaderThreads = b.keepWorkOnUploaderThreads;
        this.contextPropagator = b.contextPropagator;
        this.listeners = List.copyOf(b.listeners);
        this.keyStrategy = b.keyStrategy;
        this.concurrencyLimit = b.concurrencyLimit;
        this.journal = b.journal;
    }

    /**
     * The defaults.
     *
     * @return a configuration with every default value
     */
    public static UploaderConfig defaults() {
        return DEFAULTS;
    }

    /**
     * A builder that starts from the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder that starts from this configuration's values; this configuration does not change.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * The uploader's name: in thread names, metric tags and messages.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The most uploads in flight at once, over all batches. Each upload holds one permit from start to end.
     *
     * @return the limit
     */
    public int maxConcurrentUploads() {
        return maxConcurrentUploads;
    }

    /**
     * The most uploads of one batch in flight at once, so that one batch of 1,000 cannot hold every permit while a
     * batch of 1 from another request waits. Unless set, {@value #DEFAULT_MAX_CONCURRENT_UPLOADS_PER_BATCH}, or
     * {@link #maxConcurrentUploads()} when that is smaller.
     *
     * @return the limit
     */
    public int maxConcurrentUploadsPerBatch() {
        return maxConcurrentUploadsPerBatch;
    }

    /**
     * The most uploads accepted and not yet started, over all batches. A batch is admitted whole or not at all;
     * when it does not fit, the {@link #rejectionPolicy()} decides.
     *
     * @return the limit
     */
    public int maxQueuedUploads() {
        return maxQueuedUploads;
    }

    /**
     * The most bytes of content in flight at once, over all uploads. An upload counts with its length (content of
     * unknown length with {@link #maxAttachmentSize()}), capped at this limit: a bigger one runs when nothing else
     * is in flight. Large files then go a few at a time instead of all competing for bandwidth. What this adds to the
     * heap depends on the storage: the S3 adapter reads files from disk and sends byte arrays as they are, and buffers
     * only streams longer than its multipart threshold, part by part.
     *
     * @return the limit in bytes
     */
    public long maxBytesInFlight() {
        return maxBytesInFlight;
    }

    /**
     * The largest attachment accepted. Content of known length above it is refused before the batch starts; content
     * of unknown length fails as soon as it yields more.
     *
     * @return the limit in bytes
     */
    public long maxAttachmentSize() {
        return maxAttachmentSize;
    }

    /**
     * The most attachments in one batch.
     *
     * @return the limit
     */
    public int maxAttachmentsPerBatch() {
        return maxAttachmentsPerBatch;
    }

    /**
     * What happens to a batch that does not fit in the queue.
     *
     * @return the policy
     */
    public RejectionPolicy rejectionPolicy() {
        return rejectionPolicy;
    }

    /**
     * How long {@link RejectionPolicy#BLOCK} waits for queue space.
     *
     * @return the timeout
     */
    public Duration blockTimeout() {
        return blockTimeout;
    }

    /**
     * How long one upload may run before it is interrupted and fails with an {@link UploadTimeoutException}. Upload
     * and batch timeouts are checked every twentieth of the shorter of the two (at most every second), so they fire
     * up to that much late.
     *
     * @return the timeout
     */
    public Duration uploadTimeout() {
        return uploadTimeout;
    }

    /**
     * How long a batch may take from submission: when it passes, uploads not yet finished fail with an
     * {@link UploadTimeoutException}.
     *
     * @return the timeout
     */
    public Duration batchTimeout() {
        return batchTimeout;
    }

    /**
     * How long {@link ConcurrentAttachmentUploader#close()} lets running batches (and deletes that undo failed
     * batches) finish before it cancels them. {@code close()} returns at most two {@link #stopTimeout()}s later.
     *
     * @return the grace period
     */
    public Duration shutdownGracePeriod() {
        return shutdownGracePeriod;
    }

    /**
     * How long a call to the storage may take to stop once the uploader has cancelled it (timeout, stopped batch,
     * close), and how long one delete that undoes a failed batch may take. A call that has not stopped by then is
     * given up: its attachment fails with an {@link UploadStuckException}, its permit and bytes are freed for other
     * uploads, and if it stores its object after all, the uploader deletes it. {@link UploaderStats#stuckUploads()}
     * counts such calls until they return.
     *
     * @return the timeout
     */
    public Duration stopTimeout() {
        return stopTimeout;
    }

    /**
     * How long the uploader keeps trying, with growing pauses, to delete what a failed batch stored (or may have
     * stored), and what an upload of unknown outcome may have stored ({@link #keepUnknownOutcomes()}), when the
     * storage does not confirm the delete: an outage or throttling then delays the clean-up instead of leaving objects
     * behind. The batch's result is reported after the first try of each delete; what is not deleted then is
     * {@link UploadResult.Status#DELETING} (listed in {@link BatchFailedException#notDeleted()}), and the retries go
     * on in the background ({@link UploaderStats#pendingRollbacks()}, {@link BatchResult#settled()}). What still
     * cannot be deleted when this deadline passes (or when the uploader closes) is reported:
     * {@link UploadResult.Status#POSSIBLY_STORED}, an error log naming the key, and
     * {@link io.github.boundedupload.spi.UploadListener#rollbackAbandoned}.
     *
     * @return the deadline, counted from the batch's failure
     */
    public Duration rollbackDeadline() {
        return rollbackDeadline;
    }

    /**
     * What a batch does when one of its attachments fails.
     *
     * @return the policy
     */
    public FailurePolicy failurePolicy() {
        return failurePolicy;
    }

    /**
     * Whether an attachment whose outcome is unknown (its upload failed in a way that says
     * {@link UploadException#mayBeStored()}: the whole content went out and no answer came, and the storage could not
     * be asked) is left as it is, in a batch that keeps what it stored ({@link FailurePolicy#COLLECT}). By default
     * ({@code false}) its key is deleted, exactly as a rollback deletes (retried until {@link #rollbackDeadline()}), so
     * that FAILED means nothing is stored; with {@code true} it is reported
     * {@link UploadResult.Status#POSSIBLY_STORED} and something else removes it (an upload journal removes every key
     * a batch does not keep, whatever this says). A failed all-or-nothing batch always deletes everything it may have
     * stored.
     *
     * @return whether unknown outcomes are kept
     */
    public boolean keepUnknownOutcomes() {
        return keepUnknownOutcomes;
    }

    /**
     * Which threads the uploader creates for itself when no {@link #executor()} is supplied. They are daemon threads
     * (virtual threads are, too): a call to the storage that never returns cannot keep the JVM from exiting, so wait
     * for your batches, or close the uploader, before the application's last non-daemon thread ends.
     *
     * @return the type
     */
    public ExecutorType executorType() {
        return executorType;
    }

    /**
     * The executor supplied by the application, if any. The uploader never shuts it down, and still bounds how many
     * uploads it hands to it. Each call to the storage is a task of its own, so that an executor that decorates its
     * tasks (a Spring {@code TaskDecorator}) sees every one; except on the JDK's thread-per-task executor
     * ({@code Executors.newVirtualThreadPerTaskExecutor()}), which only makes a thread per task: there, as on the
     * uploader's own threads, a thread that ends a call runs the next one it starts, instead of a new thread for it.
     * Once the executor is shut down, the calls it refuses fail, each reported.
     *
     * @return the executor, or empty when the uploader creates its own threads
     */
    public Optional<Executor> executor() {
        return Optional.ofNullable(executor);
    }

    /**
     * Whether every call to the storage, every context propagation and every listener call of an upload stays on the
     * uploader's threads (its own, or the supplied {@link #executor()}'s), also with a non-blocking storage. A
     * non-blocking storage answers on a thread of its client's (the AWS SDK's {@code sdk-async-response} threads: the
     * future-completion executor of the application's {@code S3AsyncClient}, which the application may share). By
     * default ({@code false}) that thread handles the answer: it reports the upload to the listeners, in the batch's
     * context, and starts the next call itself, which saves a thread's wake-up per upload (scenario B of the
     * benchmark, docs/performance.md). A listener or context propagator that blocks there holds a thread of that
     * client: once all of them are held, the application's own requests on the client do not complete either. With
     * {@code true} the answer is handed to one of the uploader's threads, at that wake-up's cost. A blocking storage
     * answers on the uploader's thread that called it either way. Not affected: {@code bytesSent}, which is called on
     * the thread that sends the bytes (a non-blocking client's I/O thread).
     *
     * @return whether a non-blocking storage's answers are handed to the uploader's threads
     */
    public boolean keepWorkOnUploaderThreads() {
        return keepWorkOnUploaderThreads;
    }

    /**
     * How context reaches the upload threads.
     *
     * @return the propagator, {@link ContextPropagator#mdc()} by default
     */
    public ContextPropagator contextPropagator() {
        return contextPropagator;
    }

    /**
     * The listeners, called in this order.
     *
     * @return an unmodifiable list
     */
    public List<UploadListener> listeners() {
        return listeners;
    }

    /**
     * How keys are chosen for attachments without an explicit key.
     *
     * @return the strategy, {@code KeyStrategy.datedUuid("")} by default
     */
    public KeyStrategy keyStrategy() {
        return keyStrategy;
    }

    /**
     * The adaptive limit of uploads in flight, under {@link #maxConcurrentUploads()}, if one is set: the number of
     * uploads in flight then follows how the storage answers.
     *
     * @return the limit, or empty for the fixed {@link #maxConcurrentUploads()}
     */
    public Optional<ConcurrencyLimit> concurrencyLimit() {
        return Optional.ofNullable(concurrencyLimit);
    }

    /**
     * The journal that records batches durably, if one is set: what a batch stored is then removed even when the
     * process dies before the batch settles, and {@code uploadAll} keeps a batch in the caller's transaction where the
     * journal supports one.
     *
     * @return the journal, or empty to undo failed batches from memory only
     */
    public Optional<UploadJournal> journal() {
        return Optional.ofNullable(journal);
    }

    @Override
    public String toString() {
        return "UploaderConfig[name=" + name + ", maxConcurrentUploads=" + maxConcurrentUploads
                + ", maxConcurrentUploadsPerBatch=" + maxConcurrentUploadsPerBatch
                + ", maxQueuedUploads=" + maxQueuedUploads + ", maxBytesInFlight=" + maxBytesInFlight
                + ", maxAttachmentSize=" + maxAttachmentSize + ", maxAttachmentsPerBatch=" + maxAttachmentsPerBatch
                + ", rejectionPolicy=" + rejectionPolicy + ", blockTimeout=" + blockTimeout
                + ", uploadTimeout=" + uploadTimeout + ", batchTimeout=" + batchTimeout
                + ", shutdownGracePeriod=" + shutdownGracePeriod + ", stopTimeout=" + stopTimeout
                + ", rollbackDeadline=" + rollbackDeadline + ", failurePolicy=" + failurePolicy
                + ", keepUnknownOutcomes=" + keepUnknownOutcomes
                + ", executor=" + (executor == null ? executorType : "supplied")
                + ", keepWorkOnUploaderThreads=" + keepWorkOnUploaderThreads
                + (concurrencyLimit == null ? "" : ", concurrencyLimit=" + concurrencyLimit)
                + (journal == null ? "" : ", journal=" + journal) + "]";
    }

    /**
     * Builds an {@link UploaderConfig}. A plain mutable object, not thread-safe; {@link #build()} checks every value
     * and copies them, so later changes to the builder do not affect what it built.
     */
    public static final class Builder {
        private String name = DEFAULT_NAME;
        private int maxConcurrentUploads = DEFAULT_MAX_CONCURRENT_UPLOADS;
        private int maxConcurrentUploadsPerBatch = DEFAULT_MAX_CONCURRENT_UPLOADS_PER_BATCH;
        /** Whether {@link #maxConcurrentUploadsPerBatch(int)} was called (or copied from a config where it was). */
        private boolean perBatchSet;
        private int maxQueuedUploads = DEFAULT_MAX_QUEUED_UPLOADS;
        private long maxBytesInFlight = DEFAULT_MAX_BYTES_IN_FLIGHT;
        private long maxAttachmentSize = DEFAULT_MAX_ATTACHMENT_SIZE;
        private int maxAttachmentsPerBatch = DEFAULT_MAX_ATTACHMENTS_PER_BATCH;
        private RejectionPolicy rejectionPolicy = DEFAULT_REJECTION_POLICY;
        private Duration blockTimeout = DEFAULT_BLOCK_TIMEOUT;
        private Duration uploadTimeout = DEFAULT_UPLOAD_TIMEOUT;
        private Duration batchTimeout = DEFAULT_BATCH_TIMEOUT;
        private Duration shutdownGracePeriod = DEFAULT_SHUTDOWN_GRACE_PERIOD;
        private Duration stopTimeout = DEFAULT_STOP_TIMEOUT;
        private Duration rollbackDeadline = DEFAULT_ROLLBACK_DEADLINE;
        private FailurePolicy failurePolicy = DEFAULT_FAILURE_POLICY;
        private boolean keepUnknownOutcomes = DEFAULT_KEEP_UNKNOWN_OUTCOMES;
        private ExecutorType executorType = DEFAULT_EXECUTOR_TYPE;
        private @Nullable Executor executor;
        private boolean keepWorkOnUploaderThreads = DEFAULT_KEEP_WORK_ON_UPLOADER_THREADS;
        private ContextPropagator contextPropagator = ContextPropagator.mdc();
        private final List<UploadListener> listeners = new ArrayList<>();
        private KeyStrategy keyStrategy = KeyStrategy.datedUuid("");
        private @Nullable ConcurrencyLimit concurrencyLimit;
        private @Nullable UploadJournal journal;

        private Builder() {
        }

        private Builder(UploaderConfig c) {
            name = c.name;
            maxConcurrentUploads = c.maxConcurrentUploads;
            maxConcurrentUploadsPerBatch = c.maxConcurrentUploadsPerBatch;
            perBatchSet = !c.perBatchByDefault;
            maxQueuedUploads = c.maxQueuedUploads;
            maxBytesInFlight = c.maxBytesInFlight;
            maxAttachmentSize = c.maxAttachmentSize;
            maxAttachmentsPerBatch = c.maxAttachmentsPerBatch;
            rejectionPolicy = c.rejectionPolicy;
            blockTimeout = c.blockTimeout;
            uploadTimeout = c.uploadTimeout;
            batchTimeout = c.batchTimeout;
            shutdownGracePeriod = c.shutdownGracePeriod;
            stopTimeout = c.stopTimeout;
            rollbackDeadline = c.rollbackDeadline;
            failurePolicy = c.failurePolicy;
            keepUnknownOutcomes = c.keepUnknownOutcomes;
            executorType = c.executorType;
            executor = c.executor;
            keepWorkOnUploaderThreads = c.keepWorkOnUploaderThreads;
            contextPropagator = c.contextPropagator;
            listeners.addAll(c.listeners);
            keyStrategy = c.keyStrategy;
            concurrencyLimit = c.concurrencyLimit;
            journal = c.journal;
        }

        /**
         * Sets {@link UploaderConfig#name()}: letters, digits, {@code .}, {@code _} and {@code -}, at most 63.
         *
         * @param name the name
         * @return this builder
         */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * Sets {@link UploaderConfig#maxConcurrentUploads()}.
         *
         * @param max at least 1
         * @return this builder
         */
        public Builder maxConcurrentUploads(int max) {
            this.maxConcurrentUploads = max;
            return this;
        }

        /**
         * Sets {@link UploaderConfig#maxConcurrentUploadsPerBatch()}; unset, it is
         * {@value UploaderConfig#DEFAULT_MAX_CONCURRENT_UPLOADS_PER_BATCH}, or {@code maxConcurrentUploads} when that is
         * smaller.
         *
         * @param max at least 1, at most {@code maxConcurrentUploads}
         * @return this builder
         */
        public Builder maxConcurrentUploadsPerBatch(int max) {
            this.maxConcurrentUploadsPerBatch = max;
            this.perBatchSet = true;
            return this;
        }

        /** The per-batch bound that is built: the one set, or the default's, never above the overall bound. */
        private int perBatch() {
            return perBatchSet ? maxConcurrentUploadsPerBatch
                    : Math.min(DEFAULT_MAX_CONCURRENT_UPLOADS_PER_BATCH, maxConcurrentUploads);
        }

        /**
         * Sets {@link UploaderConfig#maxQueuedUploads()}.
         *
         * @param max at least {@code maxAttachmentsPerBatch}, so that a full batch can be admitted
         * @return this builder
         */
        public Builder maxQueuedUploads(int max) {
            this.maxQueuedUploads = max;
            return this;
        }

        /**
         * Sets {@link UploaderConfig#maxBytesInFlight()}.
         *
         * @param bytes at least 1
         * @return this builder
         */
        public Builder maxBytesInFlight(long bytes) {
            this.maxBytesInFlight = bytes;
            return this;
        }

        /**
         * Sets {@link UploaderConfig#maxAttachmentSize()}.
         *
         * @param bytes at least 1
         * @return this builder
         */
        public Builder maxAttachmentSize(long bytes) {
            this.maxAttachmentSize = bytes;
            return this;
        }

        /**
         * Sets {@link UploaderConfig#maxAttachmentsPerBatch()}.
         *
         * @param max at least 1
         * @return this builder
         */
        public Builder maxAttachmentsPerBatch(int max) {
            this.maxAttachmentsPerBatch = max;
            return this;
        }

        /**
         * Sets {@link UploaderConfig#rejectionPolicy()}.
         *
         * @param policy the policy
         * @return this builder
         */
        public Builder rejectionPolicy(RejectionPolicy policy) {
            this.rejectionPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Sets {@link UploaderConfig#blockTimeout()}, used by {@link RejectionPolicy#BLOCK}.
         *
         * @param timeout positive
         * @return this builder
         */
        public Builder blockTimeout(Duration timeout) {
            this.blockTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * Sets {@link UploaderConfig#uploadTimeout()}.
         *
         * @param timeout positive
         * @return this builder
         */
        public Builder uploadTimeout(Duration timeout) {
            this.uploadTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * Sets {@link UploaderConfig#batchTimeout()}.
         *
         * @param timeout positive
         * @return this builder
         */
        public Builder batchTimeout(Duration timeout) {
            this.batchTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * Sets {@link UploaderConfig#shutdownGracePeriod()}.
         *
         * @param gracePeriod zero or positive
         * @return this builder
         */
        public Builder shutdownGracePeriod(Duration gracePeriod) {
            this.shutdownGracePeriod = Objects.requireNonNull(gracePeriod, "gracePeriod");
            return this;
        }

        /**
         * Sets {@link UploaderConfig#stopTimeout()}.
         *
         * @param timeout positive
         * @return this builder
         */
        public Builder stopTimeout(Duration timeout) {
            this.stopTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * Sets {@link UploaderConfig#rollbackDeadline()}.
         *
         * @param deadline positive
         * @return this builder
         */
        public Builder rollbackDeadline(Duration deadline) {
            this.rollbackDeadline = Objects.requireNonNull(deadline, "deadline");
            return this;
        }

        /**
         * Sets {@link UploaderConfig#failurePolicy()}.
         *
         * @param policy the policy
         * @return this builder
         */
        public Builder failurePolicy(FailurePolicy policy) {
            this.failurePolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Sets {@link UploaderConfig#keepUnknownOutcomes()}.
         *
         * @param keep {@code true} to leave what an upload of unknown outcome may have stored; {@code false} (the
         *        default) to delete it
         * @return this builder
         */
        public Builder keepUnknownOutcomes(boolean keep) {
            this.keepUnknownOutcomes = keep;
            return this;
        }

        /**
         * Sets {@link UploaderConfig#executorType()}; ignored when an {@link #executor(Executor)} is supplied.
         *
         * @param type the type
         * @return this builder
         */
        public Builder executorType(ExecutorType type) {
            this.executorType = Objects.requireNonNull(type, "type");
            return this;
        }

        /**
         * Supplies the executor uploads run on, instead of the uploader's own threads. It should be dedicated to
         * uploads: the uploader bounds what it submits, but cannot stop other work from starving it.
         *
         * @param executor the executor, or {@code null} for the uploader's own threads
         * @return this builder
         */
        public Builder executor(@Nullable Executor executor) {
            this.executor = executor;
            return this;
        }

        /**
         * Sets {@link UploaderConfig#keepWorkOnUploaderThreads()}.
         *
         * @param keep {@code true} to hand a non-blocking storage's answers to the uploader's threads, so that no
         *        listener or context propagator runs on the storage client's threads; {@code false} (the default) to
         *        handle them, and start the next call, on the thread that brought them
         * @return this builder
         */
        public Builder keepWorkOnUploaderThreads(boolean keep) {
            this.keepWorkOnUploaderThreads = keep;
            return this;
        }

        /**
         * Sets {@link UploaderConfig#contextPropagator()}.
         *
         * @param propagator the propagator; {@link ContextPropagator#none()} to propagate nothing
         * @return this builder
         */
        public Builder contextPropagator(ContextPropagator propagator) {
            this.contextPropagator = Objects.requireNonNull(propagator, "propagator");
            return this;
        }

        /**
         * Adds a listener; listeners are called in the order they were added.
         *
         * @param listener the listener
         * @return this builder
         */
        public Builder listener(UploadListener listener) {
            this.listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Sets {@link UploaderConfig#keyStrategy()}.
         *
         * @param strategy the strategy
         * @return this builder
         */
        public Builder keyStrategy(KeyStrategy strategy) {
            this.keyStrategy = Objects.requireNonNull(strategy, "strategy");
            return this;
        }

        /**
         * Sets {@link UploaderConfig#concurrencyLimit()}, such as
         * {@code io.github.boundedupload.limits.AdaptiveConcurrency.create(8, 64)}.
         *
         * @param limit the adaptive limit, or {@code null} for the fixed {@code maxConcurrentUploads}
         * @return this builder
         */
        public Builder concurrencyLimit(@Nullable ConcurrencyLimit limit) {
            this.concurrencyLimit = limit;
            return this;
        }

        /**
         * Sets {@link UploaderConfig#journal()}, such as {@code io.github.boundedupload.jdbc.JdbcUploadJournal}.
         *
         * @param journal the journal, or {@code null} to undo failed batches from memory only
         * @return this builder
         */
        public Builder journal(@Nullable UploadJournal journal) {
            this.journal = journal;
            return this;
        }

        /**
         * Checks every value and builds the configuration.
         *
         * @return a new, immutable configuration
         * @throws InvalidSettingException naming the first invalid setting and what it allows
         */
        public UploaderConfig build() {
            require(NAME.matcher(name).matches(), "name", "'" + name + "'",
                    "1 to 63 letters, digits, '.', '_' or '-', starting with a letter or digit");
            require(maxConcurrentUploads >= 1, "maxConcurrentUploads", maxConcurrentUploads, "at least 1");
            require(perBatch() >= 1 && perBatch() <= maxConcurrentUploads,
                    "maxConcurrentUploadsPerBatch", perBatch(),
                    "from 1 to {maxConcurrentUploads} (" + maxConcurrentUploads + ")");
            require(maxAttachmentsPerBatch >= 1, "maxAttachmentsPerBatch", maxAttachmentsPerBatch, "at least 1");
            require(maxQueuedUploads >= maxAttachmentsPerBatch, "maxQueuedUploads", maxQueuedUploads,
                    "at least {maxAttachmentsPerBatch} (" + maxAttachmentsPerBatch + "), or no full batch could ever"
                            + " be admitted");
            require(maxBytesInFlight >= 1, "maxBytesInFlight", maxBytesInFlight, "at least 1");
            require(maxAttachmentSize >= 1, "maxAttachmentSize", maxAttachmentSize, "at least 1");
            requirePositive(blockTimeout, "blockTimeout");
            requirePositive(uploadTimeout, "uploadTimeout");
            requirePositive(batchTimeout, "batchTimeout");
            require(!shutdownGracePeriod.isNegative(), "shutdownGracePeriod", shutdownGracePeriod, "zero or more");
            requirePositive(stopTimeout, "stopTimeout");
            requirePositive(rollbackDeadline, "rollbackDeadline");
            require(executorType != ExecutorType.VIRTUAL || executor != null || Runtime.version().feature() >= 21,
                    "executorType", executorType, "AUTO or PLATFORM on Java " + Runtime.version().feature()
                            + " (VIRTUAL needs Java 21 or later)");
            return new UploaderConfig(this);
        }

        private static void requirePositive(Duration value, String setting) {
            require(!value.isNegative() && !value.isZero(), setting, value, "a positive duration");
        }

        private static void require(boolean valid, String setting, Object value, String allowed) {
            if (!valid) {
                throw new InvalidSettingException(setting, String.valueOf(value), allowed);
            }
        }
    }
}
