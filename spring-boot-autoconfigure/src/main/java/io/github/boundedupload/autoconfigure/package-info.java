/**
 * Spring Boot auto-configuration of a {@link io.github.boundedupload.ConcurrentAttachmentUploader}.
 *
 * <p>{@link io.github.boundedupload.autoconfigure.BoundedUploadAutoConfiguration} creates the uploader from
 * {@link io.github.boundedupload.autoconfigure.BoundedUploadProperties} ({@code bounded-upload.*}) and the
 * application's {@link io.github.boundedupload.autoconfigure.UploaderConfigCustomizer} beans, on the local disk or, with
 * {@code bounded-upload.s3.bucket}, on S3 (customized by
 * {@link io.github.boundedupload.autoconfigure.S3UploadOptionsCustomizer} beans);
 * {@link io.github.boundedupload.autoconfigure.BoundedUploadMetricsAutoConfiguration} publishes its meters and
 * {@link io.github.boundedupload.autoconfigure.BoundedUploadHealthAutoConfiguration} its health. Everything else here
 * is package-private.
 */
@NullMarked
package io.github.boundedupload.autoconfigure;

import org.jspecify.annotations.NullMarked;
