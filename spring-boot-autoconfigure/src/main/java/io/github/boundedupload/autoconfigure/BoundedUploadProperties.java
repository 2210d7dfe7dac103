package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ExecutorType;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.RejectionPolicy;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.S3UploadOptions;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * Settings of the auto-configured {@link io.github.boundedupload.ConcurrentAttachmentUploader}, under
 * {@code bounded-upload.*}. Every bound and policy of {@link UploaderConfig} has a property here, with the same
 * default; what properties cannot express is set by an {@link UploaderConfigCustomizer}.
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

    /** The settings the core's rules may mention. */
    private static final List<String> SETTINGS = List.of("name", "maxConcurrentUploads",
            "maxConcurrentUploadsPerBatch", "maxAttachmentsPerBatch", "maxQueuedUploads", "maxBytesInFlight",
            "maxAttachmentSize", "blockTimeout", "uploadTimeout", "batchTimeout", "shutdownGracePeriod", "stopTimeout",
            "rollbackDeadline");
    private static final Pattern SETTING = Pattern.compile("\\b(" + String.join("|", SETTINGS) + ")\\b");

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
     * Maximum number of uploads of one batch in flight at once, so that one large batch cannot hold every permit
     * while a small batch from another request waits. At most max-concurrent-uploads.
     */
    private int maxConcurrentUploadsPerBatch = UploaderConfig.DEFAULT_MAX_CONCURRENT_UPLOADS_PER_BATCH;

    /**
     * Maximum number of uploads accepted and not yet started, over all batches. A batch is admitted whole or not at
     * all; when it does not fit, the rejection policy decides. At least max-attachments-per-batch.
     */
    private int maxQueuedUploads = UploaderConfig.DEFAULT_MAX_QUEUED_UPLOADS;

    /**
     * Maximum number of bytes of content in flight at once, over all uploads, so that large files go one or a few at
     * a time instead of competing for bandwidth. An attachment larger than this runs when nothing else is in flight.
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
     * How long running batches may go on when the application stops, before they are cancelled.
     */
    private Duration shutdownGracePeriod = UploaderConfig.DEFAULT_SHUTDOWN_GRACE_PERIOD;

    /**
     * How long a call to the storage may take to stop once cancelled (timeout, failed batch, shutdown), and how long
     * one delete that undoes a failed batch may take. A call that has not stopped by then is given up: its
     * attachment fails, its permit goes to other uploads, and what it stores later is deleted.
     */
    private Duration stopTimeout = UploaderConfig.DEFAULT_STOP_TIMEOUT;

    /**
     * How long the deletes that undo a failed batch are retried, with growing pauses, while the storage does not
     * confirm them (an outage, throttling). What still cannot be deleted then is logged as an error and counted.
     */
    private Duration rollbackDeadline = UploaderConfig.DEFAULT_ROLLBACK_DEADLINE;

    /**
     * What a batch does when one of its attachments fails: 'all-or-nothing' stops it and deletes what it stored,
     * 'collect' lets every attachment run to its own end and reports each one.
     */
    private FailurePolicy failurePolicy = UploaderConfig.DEFAULT_FAILURE_POLICY;

    /**
     * Prefix of the storage keys chosen for attachments without an explicit key, which look like
     * 'prefix/yyyy/MM/dd/uuid-file-name'. Empty for no prefix.
     */
    private String keyPrefix = "";

    private final Executor executor = new Executor();

    private final Mdc mdc = new Mdc();

    private final Local local = new Local();

    private final Metrics metrics = new Metrics();

    private final Health health = new Health();

    private final S3 s3 = new S3();

    /**
     * Whether to auto-configure the uploader at all.
     *
     * @return {@code true} by default
     */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * Sets whether to auto-configure the uploader at all.
     *
     * @param enabled whether to
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * The uploader's name.
     *
     * @return the name
     * @see UploaderConfig#name()
     */
    public String getName() {
        return name;
    }

    /**
     * Sets the uploader's name.
     *
     * @param name the name
     */
    public void setName(String name) {
        this.name = name;
    }

    /**
     * The most uploads in flight at once.
     *
     * @return the limit
     * @see UploaderConfig#maxConcurrentUploads()
     */
    public int getMaxConcurrentUploads() {
        return maxConcurrentUploads;
    }

    /**
     * Sets the most uploads in flight at once.
     *
     * @param maxConcurrentUploads the limit
     */
    public void setMaxConcurrentUploads(int maxConcurrentUploads) {
        this.maxConcurrentUploads = maxConcurrentUploads;
    }

    /**
     * The most uploads of one batch in flight at once.
     *
     * @return the limit
     * @see UploaderConfig#maxConcurrentUploadsPerBatch()
     */
    public int getMaxConcurrentUploadsPerBatch() {
        return maxConcurrentUploadsPerBatch;
    }

    /**
     * Sets the most uploads of one batch in flight at once.
     *
     * @param maxConcurrentUploadsPerBatch the limit
     */
    public void setMaxConcurrentUploadsPerBatch(int maxConcurrentUploadsPerBatch) {
        this.maxConcurrentUploadsPerBatch = maxConcurrentUploadsPerBatch;
    }

    /**
     * The most uploads accepted and not yet started.
     *
     * @return the limit
     * @see UploaderConfig#maxQueuedUploads()
     */
    public int getMaxQueuedUploads() {
        return maxQueuedUploads;
    }

    /**
     * Sets the most uploads accepted and not yet started.
     *
     * @param maxQueuedUploads the limit
     */
    public void setMaxQueuedUploads(int maxQueuedUploads) {
        this.maxQueuedUploads = maxQueuedUploads;
    }

    /**
     * The most bytes in flight at once.
     *
     * @return the limit
     * @see UploaderConfig#maxBytesInFlight()
     */
    public DataSize getMaxBytesInFlight() {
        return maxBytesInFlight;
    }

    /**
     * Sets the most bytes in flight at once.
     *
     * @param maxBytesInFlight the limit
     */
    public void setMaxBytesInFlight(DataSize maxBytesInFlight) {
        this.maxBytesInFlight = maxBytesInFlight;
    }

    /**
     * The largest attachment accepted.
     *
     * @return the limit
     * @see UploaderConfig#maxAttachmentSize()
     */
    public DataSize getMaxAttachmentSize() {
        return maxAttachmentSize;
    }

    /**
     * Sets the largest attachment accepted.
     *
     * @param maxAttachmentSize the limit
     */
    public void setMaxAttachmentSize(DataSize maxAttachmentSize) {
        this.maxAttachmentSize = maxAttachmentSize;
    }

    /**
     * The most attachments in one batch.
     *
     * @return the limit
     * @see UploaderConfig#maxAttachmentsPerBatch()
     */
    public int getMaxAttachmentsPerBatch() {
        return maxAttachmentsPerBatch;
    }

    /**
     * Sets the most attachments in one batch.
     *
     * @param maxAttachmentsPerBatch the limit
     */
    public void setMaxAttachmentsPerBatch(int maxAttachmentsPerBatch) {
        this.maxAttachmentsPerBatch = maxAttachmentsPerBatch;
    }

    /**
     * What happens to a batch that does not fit in the queue.
     *
     * @return the policy
     * @see UploaderConfig#rejectionPolicy()
     */
    public RejectionPolicy getRejectionPolicy() {
        return rejectionPolicy;
    }

    /**
     * Sets what happens to a batch that does not fit in the queue.
     *
     * @param rejectionPolicy the policy
     */
    public void setRejectionPolicy(RejectionPolicy rejectionPolicy) {
        this.rejectionPolicy = rejectionPolicy;
    }

    /**
     * How long the block rejection policy waits.
     *
     * @return the timeout
     * @see UploaderConfig#blockTimeout()
     */
    public Duration getBlockTimeout() {
        return blockTimeout;
    }

    /**
     * Sets how long the block rejection policy waits.
     *
     * @param blockTimeout the timeout
     */
    public void setBlockTimeout(Duration blockTimeout) {
        this.blockTimeout = blockTimeout;
    }

    /**
     * How long one upload may run.
     *
     * @return the timeout
     * @see UploaderConfig#uploadTimeout()
     */
    public Duration getUploadTimeout() {
        return uploadTimeout;
    }

    /**
     * Sets how long one upload may run.
     *
     * @param uploadTimeout the timeout
     */
    public void setUploadTimeout(Duration uploadTimeout) {
        this.uploadTimeout = uploadTimeout;
    }

    /**
     * How long a batch may take.
     *
     * @return the timeout
     * @see UploaderConfig#batchTimeout()
     */
    public Duration getBatchTimeout() {
        return batchTimeout;
    }

    /**
     * Sets how long a batch may take.
     *
     * @param batchTimeout the timeout
     */
    public void setBatchTimeout(Duration batchTimeout) {
        this.batchTimeout = batchTimeout;
    }

    /**
     * How long running batches may go on when the application stops.
     *
     * @return the grace period
     * @see UploaderConfig#shutdownGracePeriod()
     */
    public Duration getShutdownGracePeriod() {
        return shutdownGracePeriod;
    }

    /**
     * Sets how long running batches may go on when the application stops.
     *
     * @param shutdownGracePeriod the grace period
     */
    public void setShutdownGracePeriod(Duration shutdownGracePeriod) {
        this.shutdownGracePeriod = shutdownGracePeriod;
    }

    /**
     * How long a cancelled call to the storage may take to stop.
     *
     * @return the timeout
     * @see UploaderConfig#stopTimeout()
     */
    public Duration getStopTimeout() {
        return stopTimeout;
    }

    /**
     * Sets how long a cancelled call to the storage may take to stop.
     *
     * @param stopTimeout the timeout
     */
    public void setStopTimeout(Duration stopTimeout) {
        this.stopTimeout = stopTimeout;
    }

    /**
     * How long the deletes that undo a failed batch are retried.
     *
     * @return the deadline
     * @see UploaderConfig#rollbackDeadline()
     */
    public Duration getRollbackDeadline() {
        return rollbackDeadline;
    }

    /**
     * Sets how long the deletes that undo a failed batch are retried.
     *
     * @param rollbackDeadline the deadline
     */
    public void setRollbackDeadline(Duration rollbackDeadline) {
        this.rollbackDeadline = rollbackDeadline;
    }

    /**
     * What a batch does when one of its attachments fails.
     *
     * @return the policy
     * @see UploaderConfig#failurePolicy()
     */
    public FailurePolicy getFailurePolicy() {
        return failurePolicy;
    }

    /**
     * Sets what a batch does when one of its attachments fails.
     *
     * @param failurePolicy the policy
     */
    public void setFailurePolicy(FailurePolicy failurePolicy) {
        this.failurePolicy = failurePolicy;
    }

    /**
     * The prefix of generated storage keys.
     *
     * @return the prefix, empty for none
     * @see KeyStrategy#datedUuid(String)
     */
    public String getKeyPrefix() {
        return keyPrefix;
    }

    /**
     * Sets the prefix of generated storage keys.
     *
     * @param keyPrefix the prefix, empty for none
     */
    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    /**
     * The uploader's threads.
     *
     * @return the executor settings
     */
    public Executor getExecutor() {
        return executor;
    }

    /**
     * Propagation of the logging MDC.
     *
     * @return the MDC settings
     */
    public Mdc getMdc() {
        return mdc;
    }

    /**
     * The local-filesystem storage.
     *
     * @return the local storage settings
     */
    public Local getLocal() {
        return local;
    }

    /**
     * Micrometer metrics.
     *
     * @return the metrics settings
     */
    public Metrics getMetrics() {
        return metrics;
    }

    /**
     * The Actuator health indicator.
     *
     * @return the health settings
     */
    public Health getHealth() {
        return health;
    }

    /**
     * The S3 storage, used when {@code bounded-upload.s3.bucket} is set.
     *
     * @return the S3 settings
     */
    public S3 getS3() {
        return s3;
    }

    /**
     * Supports {@link BoundedUploadProperties} only.
     *
     * @param type the type to validate
     * @return whether it is this class
     */
    @Override
    public boolean supports(Class<?> type) {
        return BoundedUploadProperties.class.isAssignableFrom(type);
    }

    /**
     * Checks the bound values with the rules of {@link UploaderConfig.Builder#build()}, rejecting the property that
     * breaks one. Spring Boot calls this when it binds the properties.
     *
     * @param target these properties
     * @param errors where rejected values are reported
     */
    @Override
    public void validate(Object target, Errors errors) {
        BoundedUploadProperties properties = (BoundedUploadProperties) target;
        try {
            KeyStrategy.datedUuid(properties.keyPrefix);
        } catch (IllegalArgumentException e) {
            errors.rejectValue("keyPrefix", "invalid", String.valueOf(e.getMessage()));
        }
        UploaderConfig.Builder builder = properties.applyTo(UploaderConfig.builder());
        if (properties.executor.type != null) {
            builder.executorType(properties.executor.type);
        }
        try {
            builder.build();
        } catch (UploaderConfig.InvalidSettingException e) {
            reject(errors, e);
        }
        if (properties.health.timeout.isNegative() || properties.health.timeout.isZero()) {
            errors.rejectValue("health.timeout", "invalid", "must be a positive duration, was "
                    + properties.health.timeout);
        }
        if (properties.s3.bucket != null) {
            properties.s3.validate(errors);
        }
    }

    /**
     * Rejects the property behind the setting the core refused, with the settings its rule mentions spelled as
     * properties.
     */
    private static void reject(Errors errors, UploaderConfig.InvalidSettingException e) {
        Matcher names = SETTING.matcher(e.allowed());
        StringBuilder rule = new StringBuilder();
        while (names.find()) {
            names.appendReplacement(rule, Matcher.quoteReplacement(propertyName(names.group(1))));
        }
        names.appendTail(rule);
        // Rejected under its field name, as Spring Boot's own validation does: its start-up report then shows the
        // property's origin (file and line) too.
        String field = e.setting().equals("executorType") ? "executor.type" : e.setting();
        errors.rejectValue(field, "invalid", "must be " + rule + ", was " + e.value());
    }

    /** {@code maxConcurrentUploads} as {@code bounded-upload.max-concurrent-uploads}. */
    static String propertyName(String setting) {
        return PREFIX + "." + setting.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
    }

    /**
     * Copies every value that maps onto {@link UploaderConfig} to a builder.
     *
     * @param builder the builder
     * @return the builder
     */
    UploaderConfig.Builder applyTo(UploaderConfig.Builder builder) {
        return builder.name(name)
                .maxConcurrentUploads(maxConcurrentUploads)
                .maxConcurrentUploadsPerBatch(maxConcurrentUploadsPerBatch)
                .maxQueuedUploads(maxQueuedUploads)
                .maxBytesInFlight(maxBytesInFlight.toBytes())
                .maxAttachmentSize(maxAttachmentSize.toBytes())
                .maxAttachmentsPerBatch(maxAttachmentsPerBatch)
                .rejectionPolicy(rejectionPolicy)
                .blockTimeout(blockTimeout)
                .uploadTimeout(uploadTimeout)
                .batchTimeout(batchTimeout)
                .shutdownGracePeriod(shutdownGracePeriod)
                .stopTimeout(stopTimeout)
                .rollbackDeadline(rollbackDeadline)
                .failurePolicy(failurePolicy);
    }

    /** Settings of the uploader's own threads. */
    public static class Executor {

        /**
         * Which threads the uploader creates for itself when the application defines no 'boundedUploadExecutor'
         * bean: 'platform' (a bounded pool of named platform threads), 'virtual' (Java 21 or later) or 'auto'
         * (virtual threads from Java 24 on, platform threads before). When not set: 'virtual' if
         * spring.threads.virtual.enabled is true and the JVM has virtual threads, 'auto' otherwise.
         */
        private @Nullable ExecutorType type;

        /**
         * Which threads the uploader creates for itself.
         *
         * @return the type, or {@code null} to follow {@code spring.threads.virtual.enabled}
         */
        public @Nullable ExecutorType getType() {
            return type;
        }

        /**
         * Sets which threads the uploader creates for itself.
         *
         * @param type the type, or {@code null} to follow {@code spring.threads.virtual.enabled}
         */
        public void setType(@Nullable ExecutorType type) {
            this.type = type;
        }
    }

    /** Settings of the logging MDC propagation. */
    public static class Mdc {

        /**
         * Whether the upload threads see the SLF4J MDC of the thread that submitted the batch, so that what storage
         * clients and listeners log carries the request's context. Ignored when the application defines a
         * ContextPropagator bean.
         */
        private boolean enabled = true;

        /**
         * Whether the MDC is propagated.
         *
         * @return {@code true} by default
         */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether the MDC is propagated.
         *
         * @param enabled whether to
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** Settings of the local-filesystem storage, used when the application defines no storage bean. */
    public static class Local {

        /**
         * Directory that holds every stored object, created if missing. When not set, a 'bounded-upload' directory
         * in the JVM's temporary directory (java.io.tmpdir), which suits development and tests only.
         */
        private @Nullable Path root;

        /**
         * The directory that holds every stored object.
         *
         * @return the directory, or {@code null} for the default under {@code java.io.tmpdir}
         */
        public @Nullable Path getRoot() {
            return root;
        }

        /**
         * Sets the directory that holds every stored object.
         *
         * @param root the directory, or {@code null} for the default under {@code java.io.tmpdir}
         */
        public void setRoot(@Nullable Path root) {
            this.root = root;
        }
    }

    /** Settings of the Micrometer metrics. */
    public static class Metrics {

        /**
         * Whether to publish the uploader's meters (bounded.upload.*, and executor.* for its own thread pool) to the
         * application's MeterRegistry.
         */
        private boolean enabled = true;

        /**
         * Whether metrics are published.
         *
         * @return {@code true} by default
         */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether metrics are published.
         *
         * @param enabled whether to
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** Settings of the Actuator health indicator. */
    public static class Health {

        /**
         * Whether to contribute the 'boundedUpload' health indicator: DOWN when the uploader is closed, its local
         * storage directory is not writable, or its S3 bucket cannot be found or reached (HeadBucket), with its load
         * and limits as details.
         */
        private boolean enabled = true;

        /**
         * How long the health check waits for the storage to answer (S3's HeadBucket, retries included) before it
         * reports the storage DOWN.
         */
        private Duration timeout = Duration.ofSeconds(5);

        /**
         * Whether the health indicator is contributed.
         *
         * @return {@code true} by default
         */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether the health indicator is contributed.
         *
         * @param enabled whether to
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /**
         * How long the health check waits for the storage.
         *
         * @return the timeout
         */
        public Duration getTimeout() {
            return timeout;
        }

        /**
         * Sets how long the health check waits for the storage.
         *
         * @param timeout the timeout, positive
         */
        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }
    }

    /**
     * Settings of the S3 storage, used when {@code bucket} is set and the application defines no storage bean.
     *
     * <p>The client is the application's {@code S3AsyncClient} bean (non-blocking storage) or {@code S3Client} bean
     * (blocking storage), if it has one; otherwise one built from {@code endpoint}, {@code region},
     * {@code path-style-access} and the AWS SDK's default credentials chain, and closed with the context. The
     * defaults of the upload settings are the S3 adapter's ({@code S3UploadOptions.DEFAULT_*}). Nothing here refers
     * to a type of the AWS SDK or the adapter, so that these properties bind, and explain a missing adapter, without
     * them; the numeric defaults are compile-time constants, which the compiler copies here.
     */
    public static class S3 {

        /** The longest a presigned URL may work: SigV4's limit. */
        static final Duration MAX_PRESIGNED_URL_TTL = Duration.ofDays(7);

        /**
         * Bucket to store uploads in. Setting it turns the S3 storage on (it needs the bounded-upload-s3 adapter and
         * the AWS SDK's s3 client on the class path, which the starter brings).
         */
        private @Nullable String bucket;

        /**
         * Endpoint of the S3 service for the client built here, such as http://127.0.0.1:4566 for LocalStack. When not
         * set, the AWS endpoint of the region. Ignored when the application defines an S3AsyncClient or S3Client
         * bean.
         */
        private @Nullable URI endpoint;

        /**
         * Region of the client built here, such as eu-west-1. When not set, the AWS SDK's default region chain
         * (aws.region, AWS_REGION, the profile, the instance metadata). Ignored when the application defines an
         * S3AsyncClient or S3Client bean.
         */
        private @Nullable String region;

        /**
         * Whether the client built here addresses buckets in the path (https://endpoint/bucket/key) instead of the
         * host name (https://bucket.endpoint/key), as LocalStack and many S3-compatible services need. Ignored when
         * the application defines an S3AsyncClient or S3Client bean.
         */
        private boolean pathStyleAccess = false;

        /**
         * Which storage to build when the application defines no S3AsyncClient or S3Client bean: the non-blocking one
         * (an upload holds no thread while it waits for S3) or the blocking one (each upload holds one of the
         * uploader's threads). A client bean decides by its type.
         */
        private boolean nonBlocking = true;

        /**
         * Maximum number of requests to S3 in flight at once; the others wait, without failing, until one finishes.
         * The client built here gets a connection pool of exactly this size; with a client bean of the application,
         * set it to that client's pool size.
         */
        private int maxConcurrency = S3UploadOptions.DEFAULT_MAX_CONCURRENCY;

        /**
         * Size above which content goes up in parts (multipart upload) instead of one PutObject. From 5MB to 5GB.
         */
        private DataSize multipartThreshold = DataSize.ofBytes(S3UploadOptions.DEFAULT_MULTIPART_THRESHOLD);

        /**
         * Size of each part of a multipart upload. From 5MB to 5GB. Parts of streams are buffered in memory, so a
         * stream's upload holds at most part-size x (parts-in-flight + 1) bytes.
         */
        private DataSize partSize = DataSize.ofBytes(S3UploadOptions.DEFAULT_PART_SIZE);

        /**
         * Maximum number of parts of one multipart upload in flight at once (non-blocking storage; the blocking one
         * sends the parts one after another).
         */
        private int partsInFlight = S3UploadOptions.DEFAULT_PARTS_IN_FLIGHT;

        /**
         * Checksum the SDK computes while sending and S3 verifies before it stores anything: 'crc32', 'crc32c',
         * 'sha1' or 'sha256'.
         */
        private ChecksumAlgorithm checksumAlgorithm = ChecksumAlgorithm.CRC32;

        /**
         * Storage class of new objects, as S3 names it (STANDARD, STANDARD_IA, INTELLIGENT_TIERING, GLACIER_IR, ...).
         * When not set, the bucket's default.
         */
        private @Nullable String storageClass;

        /**
         * Server-side encryption requested for new objects: 'aes256' (SSE-S3), 'aws-kms' or 'aws-kms-dsse' (SSE-KMS).
         * When not set, the bucket's default encryption.
         */
        private @Nullable ServerSideEncryption serverSideEncryption;

        /**
         * KMS key (id, ARN or alias) for server-side-encryption 'aws-kms' or 'aws-kms-dsse'. When not set, the
         * account's AWS managed key.
         */
        private @Nullable String kmsKeyId;

        /**
         * Content-Disposition stored with each object: 'attachment' (browsers save the object under its file name
         * instead of showing it, so an uploaded HTML or SVG file never runs as a page of the bucket's origin),
         * 'inline' (browsers show what they can) or 'none'.
         */
        private ContentDisposition contentDisposition = ContentDisposition.ATTACHMENT;

        /**
         * What each stored object reports as its location: 'object-url' (the URL as the client addresses the
         * bucket), 'path-style', 'virtual-host', or 'presigned' (a GET URL that anyone holding it can read until it
         * expires, after presigned-url-ttl). None of them costs a request.
         */
        private Location location = Location.OBJECT_URL;

        /**
         * How long a presigned location works, with location 'presigned'. At most 7 days.
         */
        private Duration presignedUrlTtl = Duration.ofMinutes(15);

        /**
         * The bucket; setting it turns the S3 storage on.
         *
         * @return the bucket, or {@code null} for no S3 storage
         */
        public @Nullable String getBucket() {
            return bucket;
        }

        /**
         * Sets the bucket, which turns the S3 storage on.
         *
         * @param bucket the bucket
         */
        public void setBucket(@Nullable String bucket) {
            this.bucket = bucket;
        }

        /**
         * The endpoint of the client built here.
         *
         * @return the endpoint, or {@code null} for the region's AWS endpoint
         */
        public @Nullable URI getEndpoint() {
            return endpoint;
        }

        /**
         * Sets the endpoint of the client built here.
         *
         * @param endpoint the endpoint, or {@code null} for the region's AWS endpoint
         */
        public void setEndpoint(@Nullable URI endpoint) {
            this.endpoint = endpoint;
        }

        /**
         * The region of the client built here.
         *
         * @return the region, or {@code null} for the SDK's default region chain
         */
        public @Nullable String getRegion() {
            return region;
        }

        /**
         * Sets the region of the client built here.
         *
         * @param region the region, or {@code null} for the SDK's default region chain
         */
        public void setRegion(@Nullable String region) {
            this.region = region;
        }

        /**
         * Whether the client built here uses path-style addressing.
         *
         * @return {@code false} by default
         */
        public boolean isPathStyleAccess() {
            return pathStyleAccess;
        }

        /**
         * Sets whether the client built here uses path-style addressing.
         *
         * @param pathStyleAccess whether to
         */
        public void setPathStyleAccess(boolean pathStyleAccess) {
            this.pathStyleAccess = pathStyleAccess;
        }

        /**
         * Whether to build the non-blocking storage when the application has no client bean.
         *
         * @return {@code true} by default
         */
        public boolean isNonBlocking() {
            return nonBlocking;
        }

        /**
         * Sets whether to build the non-blocking storage when the application has no client bean.
         *
         * @param nonBlocking whether to
         */
        public void setNonBlocking(boolean nonBlocking) {
            this.nonBlocking = nonBlocking;
        }

        /**
         * The most requests to S3 in flight at once.
         *
         * @return the limit
         */
        public int getMaxConcurrency() {
            return maxConcurrency;
        }

        /**
         * Sets the most requests to S3 in flight at once.
         *
         * @param maxConcurrency the limit
         */
        public void setMaxConcurrency(int maxConcurrency) {
            this.maxConcurrency = maxConcurrency;
        }

        /**
         * The size above which content goes up in parts.
         *
         * @return the threshold
         */
        public DataSize getMultipartThreshold() {
            return multipartThreshold;
        }

        /**
         * Sets the size above which content goes up in parts.
         *
         * @param multipartThreshold the threshold
         */
        public void setMultipartThreshold(DataSize multipartThreshold) {
            this.multipartThreshold = multipartThreshold;
        }

        /**
         * The size of each part.
         *
         * @return the part size
         */
        public DataSize getPartSize() {
            return partSize;
        }

        /**
         * Sets the size of each part.
         *
         * @param partSize the part size
         */
        public void setPartSize(DataSize partSize) {
            this.partSize = partSize;
        }

        /**
         * The most parts of one upload in flight at once.
         *
         * @return the limit
         */
        public int getPartsInFlight() {
            return partsInFlight;
        }

        /**
         * Sets the most parts of one upload in flight at once.
         *
         * @param partsInFlight the limit
         */
        public void setPartsInFlight(int partsInFlight) {
            this.partsInFlight = partsInFlight;
        }

        /**
         * The checksum S3 verifies.
         *
         * @return the algorithm
         */
        public ChecksumAlgorithm getChecksumAlgorithm() {
            return checksumAlgorithm;
        }

        /**
         * Sets the checksum S3 verifies.
         *
         * @param checksumAlgorithm the algorithm
         */
        public void setChecksumAlgorithm(ChecksumAlgorithm checksumAlgorithm) {
            this.checksumAlgorithm = checksumAlgorithm;
        }

        /**
         * The storage class of new objects.
         *
         * @return the storage class, or {@code null} for the bucket's default
         */
        public @Nullable String getStorageClass() {
            return storageClass;
        }

        /**
         * Sets the storage class of new objects.
         *
         * @param storageClass the storage class, or {@code null} for the bucket's default
         */
        public void setStorageClass(@Nullable String storageClass) {
            this.storageClass = storageClass;
        }

        /**
         * The server-side encryption of new objects.
         *
         * @return the encryption, or {@code null} for the bucket's default
         */
        public @Nullable ServerSideEncryption getServerSideEncryption() {
            return serverSideEncryption;
        }

        /**
         * Sets the server-side encryption of new objects.
         *
         * @param serverSideEncryption the encryption, or {@code null} for the bucket's default
         */
        public void setServerSideEncryption(@Nullable ServerSideEncryption serverSideEncryption) {
            this.serverSideEncryption = serverSideEncryption;
        }

        /**
         * The KMS key for SSE-KMS.
         *
         * @return the key, or {@code null} for the account's AWS managed key
         */
        public @Nullable String getKmsKeyId() {
            return kmsKeyId;
        }

        /**
         * Sets the KMS key for SSE-KMS.
         *
         * @param kmsKeyId the key, or {@code null} for the account's AWS managed key
         */
        public void setKmsKeyId(@Nullable String kmsKeyId) {
            this.kmsKeyId = kmsKeyId;
        }

        /**
         * The Content-Disposition stored with each object.
         *
         * @return the disposition
         */
        public ContentDisposition getContentDisposition() {
            return contentDisposition;
        }

        /**
         * Sets the Content-Disposition stored with each object.
         *
         * @param contentDisposition the disposition
         */
        public void setContentDisposition(ContentDisposition contentDisposition) {
            this.contentDisposition = contentDisposition;
        }

        /**
         * What each stored object reports as its location.
         *
         * @return the kind of location
         */
        public Location getLocation() {
            return location;
        }

        /**
         * Sets what each stored object reports as its location.
         *
         * @param location the kind of location
         */
        public void setLocation(Location location) {
            this.location = location;
        }

        /**
         * How long a presigned location works.
         *
         * @return the time to live
         */
        public Duration getPresignedUrlTtl() {
            return presignedUrlTtl;
        }

        /**
         * Sets how long a presigned location works.
         *
         * @param presignedUrlTtl the time to live
         */
        public void setPresignedUrlTtl(Duration presignedUrlTtl) {
            this.presignedUrlTtl = presignedUrlTtl;
        }

        /**
         * Checks what needs neither the SDK nor the adapter here; the upload settings are checked by the adapter's own
         * rules when it is on the class path.
         */
        void validate(Errors errors) {
            if (bucket != null && bucket.isBlank()) {
                errors.rejectValue("s3.bucket", "invalid", "must not be blank (leave it unset for no S3 storage)");
            }
            if (endpoint != null && (endpoint.getHost() == null
                    || !("http".equals(endpoint.getScheme()) || "https".equals(endpoint.getScheme())))) {
                errors.rejectValue("s3.endpoint", "invalid",
                        "must be an http or https URL such as http://127.0.0.1:4566, was " + endpoint);
            }
            if (region != null && region.isBlank()) {
                errors.rejectValue("s3.region", "invalid", "must not be blank (leave it unset for the SDK's default)");
            }
            if (location == Location.PRESIGNED && (presignedUrlTtl.isNegative() || presignedUrlTtl.isZero()
                    || presignedUrlTtl.compareTo(MAX_PRESIGNED_URL_TTL) > 0)) {
                errors.rejectValue("s3.presignedUrlTtl", "invalid",
                        "must be positive and at most 7d (SigV4's limit), was " + presignedUrlTtl);
            }
            if (S3StorageConfiguration.isOnClassPath(BoundedUploadProperties.class.getClassLoader())) {
                S3Options.validate(this, errors);
            }
        }

        /** The checksums the S3 adapter supports. */
        public enum ChecksumAlgorithm {
            /** CRC32, the default. */
            CRC32,
            /** CRC32C. */
            CRC32C,
            /** SHA-1. */
            SHA1,
            /** SHA-256. */
            SHA256
        }

        /** Server-side encryption of new objects. */
        public enum ServerSideEncryption {
            /** SSE-S3 ({@code AES256}). */
            AES256,
            /** SSE-KMS ({@code aws:kms}). */
            AWS_KMS,
            /** Dual-layer SSE-KMS ({@code aws:kms:dsse}). */
            AWS_KMS_DSSE
        }

        /** The Content-Disposition stored with each object. */
        public enum ContentDisposition {
            /** None: browsers decide by the content type. */
            NONE,
            /** {@code inline}, with the attachment's file name. */
            INLINE,
            /** {@code attachment}, with the attachment's file name. The default. */
            ATTACHMENT
        }

        /** What each stored object reports as its location. */
        public enum Location {
            /** The object's URL as the client addresses the bucket. The default. */
            OBJECT_URL,
            /** The path-style URL ({@code https://endpoint/bucket/key}). */
            PATH_STYLE,
            /** The virtual-host style URL ({@code https://bucket.endpoint/key}). */
            VIRTUAL_HOST,
            /** A presigned GET URL, working for {@code presigned-url-ttl}. */
            PRESIGNED
        }
    }
}
