package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.limits.AdaptiveConcurrency;
import org.springframework.util.ClassUtils;

/**
 * The {@code bounded-upload.*} values that map onto {@link UploaderConfig}, copied to its builder. Changes when the
 * mapping of properties onto the uploader's configuration changes.
 */
final class UploaderSettings {

    private UploaderSettings() {
    }

    /** Whether Netflix's concurrency-limits, which the adaptive limit is made of, is on the classpath. */
    static boolean adaptiveConcurrencyAvailable() {
        return ClassUtils.isPresent("com.netflix.concurrency.limits.Limit", null); // the context's class loader
    }

    static UploaderConfig.Builder applyTo(BoundedUploadProperties properties, UploaderConfig.Builder builder) {
        AdaptiveConcurrencyProperties adaptive = properties.getAdaptiveConcurrency();
        if (adaptive.isEnabled() && adaptiveConcurrencyAvailable()) {
            int max = properties.getMaxConcurrentUploads();
            if (max >= 1 && adaptive.getInitialLimit() >= 1) { // else the validator names the property
                builder.concurrencyLimit(AdaptiveConcurrency.create(Math.min(adaptive.getInitialLimit(), max), max));
            }
        }
        Integer perBatch = properties.getMaxConcurrentUploadsPerBatch();
        if (perBatch != null) { // unset: the core's default, which follows a smaller max-concurrent-uploads
            builder.maxConcurrentUploadsPerBatch(perBatch);
        }
        return builder.name(properties.getName())
                .maxConcurrentUploads(properties.getMaxConcurrentUploads())
                .maxQueuedUploads(properties.getMaxQueuedUploads())
                .maxBytesInFlight(properties.getMaxBytesInFlight().toBytes())
                .maxAttachmentSize(properties.getMaxAttachmentSize().toBytes())
                .maxAttachmentsPerBatch(properties.getMaxAttachmentsPerBatch())
                .rejectionPolicy(properties.getRejectionPolicy())
                .blockTimeout(properties.getBlockTimeout())
                .uploadTimeout(properties.getUploadTimeout())
                .batchTimeout(properties.getBatchTimeout())
                .shutdownGracePeriod(properties.getShutdownGracePeriod())
                .stopTimeout(properties.getStopTimeout())
                .rollbackDeadline(properties.getRollbackDeadline())
                .failurePolicy(properties.getFailurePolicy())
                .keepUnknownOutcomes(properties.isKeepUnknownOutcomes())
                .keepWorkOnUploaderThreads(properties.isKeepWorkOnUploaderThreads());
    }
}
