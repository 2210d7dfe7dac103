package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.UploaderConfig;

/**
 * Changes the auto-configured uploader's {@link UploaderConfig} beyond what {@link BoundedUploadProperties} cover.
 * Customizer beans are applied in {@link org.springframework.core.annotation.Order @Order} (or
 * {@link org.springframework.core.Ordered}) order, after the properties, the context propagator, the key strategy, the
 * listeners and the executor have been set, so a customizer can override any of them. The result is checked by
 * {@link UploaderConfig.Builder#build()}. Changes when the way applications adjust the uploader's configuration
 * changes.
 *
 * <pre>{@code
 * @Bean
 * UploaderConfigCustomizer studyAttachments(TenantPropagator tenants) {
 *     return builder -> builder
 *             .keyStrategy(attachment -> "studies/" + KeyStrategy.sanitize(attachment.fileName()))
 *             .contextPropagator(tenants);
 * }
 * }</pre>
 */
@FunctionalInterface
public interface UploaderConfigCustomizer {

    /**
     * Changes the configuration before it is built.
     *
     * @param builder the builder, already holding the properties' values
     */
    void customize(UploaderConfig.Builder builder);
}
