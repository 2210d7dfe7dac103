/**
 * Storage on Amazon S3 (and S3-compatible services) with the AWS SDK for Java 2.x:
 * {@link io.github.boundedupload.s3.S3FileUploader} on the blocking {@code S3Client},
 * {@link io.github.boundedupload.s3.S3AsyncFileUploader} on the non-blocking {@code S3AsyncClient}, both configured by
 * one {@link io.github.boundedupload.s3.S3UploadOptions}.
 *
 * <p>Keys are chosen by the core's {@link io.github.boundedupload.KeyStrategy}, not here: for a prefix, configure the
 * uploader with {@code UploaderConfig.builder().keyStrategy(KeyStrategy.datedUuid("attachments"))}.
 */
@NullMarked
package io.github.boundedupload.s3;

import org.jspecify.annotations.NullMarked;
