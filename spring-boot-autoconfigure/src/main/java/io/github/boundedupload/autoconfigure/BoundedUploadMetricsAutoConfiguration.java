package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.micrometer.BatchObservationConvention;
import io.github.boundedupload.micrometer.MicrometerUploadListener;
import io.github.boundedupload.micrometer.ObservationUploadListener;
import io.github.boundedupload.micrometer.UploadObservationConvention;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Publishes the auto-configured uploader's meters ({@code bounded.upload.*}, and {@code executor.*} for its own thread
 * pool) to the application's {@link MeterRegistry}, through a {@link MicrometerUploadListener} bean, and observes each
 * batch and each upload with the application's {@link ObservationRegistry}, through an
 * {@link ObservationUploadListener} bean: from each observation Spring Boot's handlers make the timer
 * ({@code bounded.upload}, {@code bounded.upload.batch}) and, with tracing, the span. The uploader picks both up like
 * any other {@code UploadListener} bean. The names and key values are an {@link UploadObservationConvention} and a
 * {@link BatchObservationConvention}: the defaults, or the application's beans. Spring Boot's own switches turn them
 * off: {@code management.metrics.enable.bounded.upload=false}, {@code management.observations.enable.bounded.upload=false}.
 * Changes when the way the uploader's meters and observations are wired changes.
 */
@AutoConfiguration(before = BoundedUploadAutoConfiguration.class, afterName = {
        // Spring Boot 4
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        // Spring Boot 3
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration" })
@ConditionalOnClass({ ConcurrentAttachmentUploader.class, MeterRegistry.class })
@ConditionalOnProperty(prefix = BoundedUploadProperties.PREFIX, name = "enabled", matchIfMissing = true)
@Import({ BoundedUploadMetricsAutoConfiguration.MetricsListenerConfiguration.class,
    BoundedUploadMetricsAutoConfiguration.ObservationListenerConfiguration.class })
public final class BoundedUploadMetricsAutoConfiguration {

    BoundedUploadMetricsAutoConfiguration() {
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBean(MeterRegistry.class)
    static class MetricsListenerConfiguration {

        @Bean
        @ConditionalOnMissingBean
        MicrometerUploadListener boundedUploadMetricsListener(MeterRegistry registry) {
            return new MicrometerUploadListener(registry);
        }
    }

    /**
     * An observation per batch and per upload, with the application's {@code ObservationRegistry} (Spring Boot's
     * observation auto-configuration provides one with Actuator, with the handler that makes the timers).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ObservationRegistry.class)
    @ConditionalOnBean(ObservationRegistry.class)
    static class ObservationListenerConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ObservationUploadListener boundedUploadObservationListener(ObservationRegistry registry,
                ObjectProvider<UploadObservationConvention> uploads, ObjectProvider<BatchObservationConvention> batches) {
            return new ObservationUploadListener(registry, uploads.getIfUnique(), batches.getIfUnique());
        }
    }
}
