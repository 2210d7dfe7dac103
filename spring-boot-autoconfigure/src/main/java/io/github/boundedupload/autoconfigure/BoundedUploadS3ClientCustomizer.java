package io.github.boundedupload.autoconfigure;

import software.amazon.awssdk.services.s3.S3BaseClientBuilder;

/**
 * Changes the S3 client the starter builds from {@code bounded-upload.s3.*} (blocking or not) beyond what the
 * properties cover: an HTTP client's settings, interceptors, a credentials provider, timeouts. Customizer beans are
 * applied in {@link org.springframework.core.annotation.Order @Order} order, after the properties. Not applied to a
 * client bean of the application's, which the starter uses as it is. Changes when the way applications adjust the S3
 * client built here changes.
 *
 * <p>Named apart from Spring Cloud AWS's {@code io.awspring.cloud.autoconfigure.s3.S3ClientCustomizer}, which
 * customizes Spring Cloud AWS's own {@code S3Client} (and which the starter then uses as it is): an application with
 * both imports each under its own name, and a bean of one is never taken for the other.
 *
 * <pre>{@code
 * @Bean
 * BoundedUploadS3ClientCustomizer callTimeouts() {
 *     return builder -> builder.overrideConfiguration(o -> o.apiCallAttemptTimeout(Duration.ofSeconds(30)));
 * }
 * }</pre>
 */
@FunctionalInterface
public interface BoundedUploadS3ClientCustomizer {

    /**
     * Changes the builder before the client is built.
     *
     * @param builder an {@code S3ClientBuilder} or {@code S3AsyncClientBuilder}, already holding the properties'
     *        settings
     */
    void customize(S3BaseClientBuilder<?, ?> builder);
}
