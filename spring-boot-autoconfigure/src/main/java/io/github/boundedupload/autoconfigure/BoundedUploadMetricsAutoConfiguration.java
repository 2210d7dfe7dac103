package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.micrometer.MicrometerUploadListener;
import io.github.boundedupload.micrometer.ObservationUploadListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
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
 * pool) to the application's {@link MeterRegistry}, through a {@link MicrometerUploadListener} bean that the uploader
 * picks up like any other {@code UploadListener} bean. Needs Micrometer and a {@code MeterRegistry} bean (Spring
 * Boot's metrics auto-configuration provides one with Actuator); {@code bounded-upload.metrics.enabled=false} turns
 * it off. Changes when the way the uploader's meters and observations are wired changes.
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
    @ConditionalOnProperty(prefix = BoundedUploadProperties.PREFIX + ".metrics", name = "enabled",
            matchIfMissing = true)
    static class MetricsListenerConfiguration {

        @Bean
        @ConditionalOnMissingBean
        MicrometerUploadListener boundedUploadMetricsListener(MeterRegistry registry) {
            return new MicrometerUploadListener(registry);
        }
    }

    /**
     * An observation per batch and per upload, with the application's {@code ObservationRegistry} (Spring Boot's
     * observation auto-configuration provides one with Actuator); {@code bounded-upload.metrics.observations=false}
     * turns it off.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ObservationRegistry.class)
    @ConditionalOnBean(ObservationRegistry.class)
    @ConditionalOnProperty(prefix = BoundedUploadProperties.PREFIX + ".metrics", name = "observations",
            matchIfMissing = true)
    static class ObservationListenerConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ObservationUploadListener boundedUploadObservationListener(ObservationRegistry registry) {
            return new ObservationUploadListener(registry);
        }

        /**
         * One timer per upload and per batch: the observation handler's timers of ours (which the observations would
         * add to bounded.upload and bounded.upload.batch) are denied, unless
         * {@code bounded-upload.metrics.observation-timers=true}. The observations, and their spans, stay.
         */
        @Bean
        @ConditionalOnProperty(prefix = BoundedUploadProperties.PREFIX + ".metrics", name = "observation-timers",
                havingValue = "false", matchIfMissing = true)
        static MeterFilter boundedUploadObservationTimersFilter() {
            List<String> denied = List.of(ObservationUploadListener.UPLOAD, ObservationUploadListener.UPLOAD + ".active",
                    ObservationUploadListener.BATCH, ObservationUploadListener.BATCH + ".active");
            return MeterFilter.deny(id -> denied.contains(id.getName()));
        }
    }
}
