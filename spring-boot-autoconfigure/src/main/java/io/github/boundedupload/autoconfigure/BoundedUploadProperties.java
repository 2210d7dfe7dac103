package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.RejectionPolicy;
import io.github.boundedupload.UploaderConfig;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * Settings of the auto-configured {@link io.github.boundedupload.ConcurrentAttachmentUploader}, under
 * {@code bounded-upload.*}. Every bound and policy of {@link UploaderConfig} has a property here, with the same
 * default; what properties cannot express is set by an {@link UploaderConfigCustomizer}. Changes when the uploader's
 * properties change.
 *
 * <p>The values are checked when they are bound, with the same rules as {@link UploaderConfig.Builder#build()}, so an
 * invalid value stops the application at start-up with a message that names the property, where it was set and
 * what it allows.
 *
 * <pre>{@code
 * bounded-upload:
 *   name: attachments
 *   max-concurrent-uploads: 32
 *   max-concurrent-uploads-per-batch: 10
 *   max-bytes-in-flight: 128MB
 *   rejection-policy: caller-runs
 *   local:
 *     root: /var/lib/app/uploads
 * }</pre>
 */
@ConfigurationProperties(BoundedUploadProperties.PREFIX)
public class BoundedUploadProperties implements Validator {

    /** The prefix of every property: {@value}. */
    public static final String PREFIX = "bounded-upload";

    /**
     * The default {@code shutdown-grace-period}: 10 s, the core's ({@link UploaderConfig#DEFAULT_SHUTDOWN_GRACE_PERIOD}),
     * so that the drain in Spring Boot's shutdown (this, two stop timeouts, and one more for the S3 storage's clean-up:
     * 25 s) fits in Kubernetes' default termination grace period of 30 s.
     */
    public static final Duration DEFAULT_SHUTDOWN_GRACE_PERIOD = Duration.ofSeconds(10);

    /**
     * The default {@code stop-timeout}: 5 s, the core's ({@link UploaderConfig#DEFAULT_STOP_TIMEOUT}), for the same
     * shutdown budget as {@link #DEFAULT_SHUTDOWN_GRACE_PERIOD}. A delete or an abort of S3 takes milliseconds.
     */
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(5);

    /**
     * Whether to auto-configure the uploader at all.
     */
    private boolean enabled = true;

    /**
     * Name of the uploader, used in thread names, metric tags and messages: 1 to 63 letters, digits, '.', '_' or '-',
     * starting with a letter or digit.
     */
    private String name = UploaderConfig.DEFAULT_NAME;

    /**
     * Maximum number of uploads in flight at once, over all batches. Each upload holds one permit from its start to
     * its end.
     */
    private int maxConcurrentUploads = UploaderConfig.DEFAULT_MAX_CONCURRENT_UPLOADS;

    /**
     * Maximum number of uploads of one batch in flight at once (by default 16, or max-concurrent-uploads when that is
     * smaller), so that one large batch cannot hold every permit while a small batch from another request waits. At
     * most max-concurrent-uploads.
     */
    private @Nullable Integer maxConcurrentUploadsPerBatch;

    /**
     * Maximum number of uploads accepted and not yet started, over all batches. A batch is admitted whole or not at
     * all; when it does not fit, the rejection policy decides. At least max-attachments-per-batch.
     */
    private int maxQueuedUploads = UploaderConfig.DEFAULT_MAX_QUEUED_UPLOADS;

    /**
     * Maximum number of bytes of content in flight at once, over all uploads, so that large files go a few at a time
     * instead of all competing for bandwidth. An attachment larger than this runs when nothing else is in flight.
     */
    private DataSize maxBytesInFlight = DataSize.ofBytes(UploaderConfig.DEFAULT_MAX_BYTES_IN_FLIGHT);

    /**
     * Maximum size of one attachment. Larger content of known length is refused before its batch starts; content of
     * unknown length fails as soon as it yields more.
     */
    private DataSize maxAttachmentSize = DataSize.ofBytes(UploaderConfig.DEFAULT_MAX_ATTACHMENT_SIZE);

    /**
     * Maximum number of attachments in one batch.
     */
    private int maxAttachmentsPerBatch = UploaderConfig.DEFAULT_MAX_ATTACHMENTS_PER_BATCH;

    /**
     * What happens to a batch that does not fit in the queue: 'abort' refuses it at once, 'caller-runs' makes the
     * calling thread upload it (back-pressure), 'block' makes the calling thread wait for space up to block-timeout.
     */
    private RejectionPolicy rejectionPolicy = UploaderConfig.DEFAULT_REJECTION_POLICY;

    /**
     * How long the 'block' rejection policy waits for queue space before it refuses the batch.
     */
    private Duration blockTimeout = UploaderConfig.DEFAULT_BLOCK_TIMEOUT;

    /**
     * How long one upload may run before it is interrupted and fails.
     */
    private Duration uploadTimeout = UploaderConfig.DEFAULT_UPLOAD_TIMEOUT;

    /**
     * How long a batch may take from its submission; uploads not finished by then fail.
     */
    private Duration batchTimeout = UploaderConfig.DEFAULT_BATCH_TIMEOUT;

    /**
     * How long running batches may go on when the application stops, before they are cancelled. With two
     * stop-timeout it must be shorter than spring.lifecycle.timeout-per-shutdown-phase (checked at start-up).
     */
    private Duration shutdownGracePeriod = DEFAULT_SHUTDOWN_GRACE_PERIOD;

    /**
     * How long a call to the storage may take to stop once cancelled (timeout, failed batch, shutdown), and how long
     * one delete that undoes a failed batch may take. A call that has not stopped by then is given up: its
     * attachment fails, its permit goes to other uploads, and what it stores later is deleted. At shutdown, also how
     * long the S3 storage waits for the clean-up of cancelled uploads.
     */
    private Duration stopTimeout = DEFAULT_STOP_TIMEOUT;

    /**
     * How long the deletes that undo a failed batch (or remove what an upload of unknown outcome may have stored) are
     * retried, with growing pauses, while the storage does not confirm them (an outage, throttling). What still cannot
     * be deleted then is logged as an error and counted.
     */
    private Duration rollbackDeadline = UploaderConfig.DEFAULT_ROLLBACK_DEADLINE;

    /**
     * What a batch does when one of its attachments fails: 'all-or-nothing' stops it and deletes what it stored,
     * 'collect' lets every attachment run to its own end and reports each one.
     */
    private FailurePolicy failurePolicy = UploaderConfig.DEFAULT_FAILURE_POLICY;

    /**
     * Whether to leave what an upload of unknown outcome may have stored (its answer was lost and the storage could
     * not be asked) in a batch that keeps what it stored ('collect'), reported as possibly stored. By default it is
     * deleted, as a rollback deletes, so that a failed attachment means nothing is stored.
     */
    private boolean keepUnknownOutcomes = UploaderConfig.DEFAULT_KEEP_UNKNOWN_OUTCOMES;

    /**
     * Whether every storage call, context propagation and listener call (but bytesSent, which the non-blocking client
     * reports on its event loop) stays on the uploader's threads, also with the non-blocking S3 storage. By default the S3AsyncClient's completion threads that bring an answer report the
     * upload to the listeners and start the next one, which saves a thread's wake-up per upload; a listener that
     * blocks there holds the client's threads, and the application's own requests on that client stop completing.
     */
    private boolean keepWorkOnUploaderThreads = UploaderConfig.DEFAULT_KEEP_WORK_ON_UPLOADER_THREADS;

    /**
     * Prefix of the storage keys chosen for attachments without an explicit key, which look like
     * 'prefix/yyyy/MM/dd/uuid-file-name'. Empty for no prefix.
     */
    private String keyPrefix = "";

    @NestedConfigurationProperty
    private final ExecutorProperties executor = new ExecutorProperties();

    @NestedConfigurationProperty
    private final MdcProperties mdc = new MdcProperties();

    @NestedConfigurationProperty
    private final AdaptiveConcurrencyProperties adaptiveConcurrency = new AdaptiveConcurrencyProperties();

    @NestedConfigurationProperty
    private final LocalProperties local = new LocalProperties();

    @NestedConfigurationProperty
    private final HealthProperties health = new HealthProperties();

    @NestedConfigurationProperty
    private final S3Properties s3 = new S3Properties();

    @NestedConfigurationProperty
    private final JournalProperties journal = new JournalProperties();

    @NestedConfigurationProperty
    private final DirectProperties direct = new DirectProperties();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public int getMaxConcurrentUploads() {
        return maxConcurrentUploads;
    }

    public void setMaxConcurrentUploads(int maxConcurrentUploads) {
        this.maxConcurrentUploads = maxConcurrentUploads;
    }

    public @Nullable Integer getMaxConcurrentUploadsPerBatch() {
        return maxConcurrentUploadsPerBatch;
    }

    public void setMaxConcurrentUploadsPerBatch(@Nullable Integer maxConcurrentUploadsPerBatch) {
        this.maxConcurrentUploadsPerBatch = maxConcurrentUploadsPerBatch;
    }

    public int getMaxQueuedUploads() {
        return maxQueuedUploads;
    }

    public void setMaxQueuedUploads(int maxQueuedUploads) {
        this.maxQueuedUploads = maxQueuedUploads;
    }

    public DataSize getMaxBytesInFlight() {
        return maxBytesInFlight;
    }

    public void setMaxBytesInFlight(DataSize maxBytesInFlight) {
        this.maxBytesInFlight = maxBytesInFlight;
    }

    public DataSize getMaxAttachmentSize() {
        return maxAttachmentSize;
    }

    public void setMaxAttachmentSize(DataSize maxAttachmentSize) {
        this.maxAttachmentSize = maxAttachmentSize;
    }

    public int getMaxAttachmentsPerBatch() {
        return maxAttachmentsPerBatch;
    }

    public void setMaxAttachmentsPerBatch(int maxAttachmentsPerBatch) {
        this.maxAttachmentsPerBatch = maxAttachmentsPerBatch;
    }

    public RejectionPolicy getRejectionPolicy() {
        return rejectionPolicy;
    }

    public void setRejectionPolicy(RejectionPolicy rejectionPolicy) {
        this.rejectionPolicy = rejectionPolicy;
    }

    public Duration getBlockTimeout() {
        return blockTimeout;
    }

    public void setBlockTimeout(Duration blockTimeout) {
        this.blockTimeout = blockTimeout;
    }

    public Duration getUploadTimeout() {
        return uploadTimeout;
    }

    public void setUploadTimeout(Duration uploadTimeout) {
        this.uploadTimeout = uploadTimeout;
    }

    public Duration getBatchTimeout() {
        return batchTimeout;
    }

    public void setBatchTimeout(Duration batchTimeout) {
        this.batchTimeout = batchTimeout;
    }

    public Duration getShutdownGracePeriod() {
        return shutdownGracePeriod;
    }

    public void setShutdownGracePeriod(Duration shutdownGracePeriod) {
        this.shutdownGracePeriod = shutdownGracePeriod;
    }

    public Duration getStopTimeout() {
        return stopTimeout;
    }

    public void setStopTimeout(Duration stopTimeout) {
        this.stopTimeout = stopTimeout;
    }

    public Duration getRollbackDeadline() {
        return rollbackDeadline;
    }

    public void setRollbackDeadline(Duration rollbackDeadline) {
        this.rollbackDeadline = rollbackDeadline;
    }

    public FailurePolicy getFailurePolicy() {
        return failurePolicy;
    }

    public void setFailurePolicy(FailurePolicy failurePolicy) {
        this.failurePolicy = failurePolicy;
    }

    public boolean isKeepUnknownOutcomes() {
        return keepUnknownOutcomes;
    }

    public void setKeepUnknownOutcomes(boolean keepUnknownOutcomes) {
        this.keepUnknownOutcomes = keepUnknownOutcomes;
    }

    public boolean isKeepWorkOnUploaderThreads() {
        return keepWorkOnUploaderThreads;
    }

    public void setKeepWorkOnUploaderThreads(boolean keepWorkOnUploaderThreads) {
        this.keepWorkOnUploaderThreads = keepWorkOnUploaderThreads;
    }

    public String getKeyPrefix() {
        return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public ExecutorProperties getExecutor() {
        return executor;
    }

    public AdaptiveConcurrencyProperties getAdaptiveConcurrency() {
        return adaptiveConcurrency;
    }

    public MdcProperties getMdc() {
        return mdc;
    }

    public LocalProperties getLocal() {
        return local;
    }

    public HealthProperties getHealth() {
        return health;
    }

    public S3Properties getS3() {
        return s3;
    }

    public JournalProperties getJournal() {
        return journal;
    }

    public DirectProperties getDirect() {
        return direct;
    }

    @Override
    public boolean supports(Class<?> type) {
        return BoundedUploadProperties.class.isAssignableFrom(type);
    }

    /** Spring Boot calls this when it binds the properties; the rules live in {@link PropertiesValidator}. */
    @Override
    public void validate(Object target, Errors errors) {
        PropertiesValidator.validate((BoundedUploadProperties) target, errors);
    }
}
