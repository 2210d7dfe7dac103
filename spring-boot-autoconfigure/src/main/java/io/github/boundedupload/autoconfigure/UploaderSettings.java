package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.UploaderConfig;

/** The {@code bounded-upload.*} values that map onto {@link UploaderConfig}, copied to its builder. */
final class UploaderSettings {

    private UploaderSettings() {
    }

    static UploaderConfig.Builder applyTo(BoundedUploadProperties properties, UploaderConfig.Builder builder) {
        return builder.name(properties.getName())
                .maxConcurrentUploads(properties.getMaxConcurrentUploads())
                .maxConcurrentUploadsPerBatch(properties.getMaxConcurrentUploadsPerBatch())
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
                .failurePolicy(properties.getFailurePolicy());
    }
}
