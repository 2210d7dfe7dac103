package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.s3.S3UploadOptions;

/**
 * Changes the auto-configured S3 storage's {@link S3UploadOptions} beyond what the {@code bounded-upload.s3.*}
 * properties cover. Customizer beans are applied in {@link org.springframework.core.annotation.Order @Order} (or
 * {@link org.springframework.core.Ordered}) order, after the properties, so a customizer can override any of them.
 * The result is checked by {@link S3UploadOptions.Builder#build()}. Not applied to an {@code S3UploadOptions} bean of
 * the application, which replaces the auto-configured options whole. Changes when the way applications adjust the S3
 * options changes.
 *
 * <pre>{@code
 * @Bean
 * S3UploadOptionsCustomizer archiveLargeUploads() {
 *     return options -> options
 *             .storageClass(StorageClass.INTELLIGENT_TIERING)
 *             .contentDisposition(S3UploadOptions.ContentDisposition.INLINE);
 * }
 * }</pre>
 */
@FunctionalInterface
public interface S3UploadOptionsCustomizer {

    /**
     * Changes the options before they are built.
     *
     * @param builder the builder, already holding the properties' values
     */
    void customize(S3UploadOptions.Builder builder);
}
