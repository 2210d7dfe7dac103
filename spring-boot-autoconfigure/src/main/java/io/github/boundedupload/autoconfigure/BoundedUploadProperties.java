package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ExecutorType;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.RejectionPolicy;
import io.github.boundedupload.UploaderConfig;
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
            "maxAttachmentSize", "blockTimeout", "uploadTimeout", "batchTimeout", "shutdownGracePeriod");
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
         * Whether to contribute the 'boundedUpload' health indicator: DOWN when the uploader is closed or its local
         * storage directory is not writable, with its load and limits as details.
         */
        private boolean enabled = true;

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
    }
}
