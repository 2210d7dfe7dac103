package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploaderConfig;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The drain of the auto-configured uploader in Spring Boot's shutdown ({@link UploaderDrain}), and the check that it
 * fits in {@code spring.lifecycle.timeout-per-shutdown-phase}: if it did not, Spring Boot would stop waiting for it
 * and close the storage (and its S3 client) under running uploads. Changes when the way the shutdown drain is set up
 * changes.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBean(name = UploaderConfiguration.UPLOADER_BEAN_NAME)
class DrainConfiguration {

    static final String DRAIN_BEAN_NAME = "boundedUploadDrain";

    /** Spring Boot's {@code spring.lifecycle.timeout-per-shutdown-phase}, and its default. */
    static final String PHASE_TIMEOUT = "spring.lifecycle.timeout-per-shutdown-phase";
    static final Duration DEFAULT_PHASE_TIMEOUT = Duration.ofSeconds(30);

    @Bean(DRAIN_BEAN_NAME)
    @ConditionalOnMissingBean(name = DRAIN_BEAN_NAME)
    UploaderDrain boundedUploadDrain(
            @Qualifier(UploaderConfiguration.UPLOADER_BEAN_NAME) ConcurrentAttachmentUploader uploader,
            BoundedUploadProperties properties, Environment environment,
            ObjectProvider<UploaderDrain.Follower> followers) {
        Duration phase = Binder.get(environment).bind(PHASE_TIMEOUT, Duration.class).orElse(DEFAULT_PHASE_TIMEOUT);
        UploaderConfig config = uploader.config();
        List<UploaderDrain.Follower> after = followers.orderedStream().toList();
        Duration drain = UploaderDrain.budget(config, after);
        if (drain.compareTo(phase) >= 0) {
            // Name what set the values: the properties, or an UploaderConfig bean or customizer of the application.
            boolean fromProperties = config.shutdownGracePeriod().equals(properties.getShutdownGracePeriod())
                    && config.stopTimeout().equals(properties.getStopTimeout());
            String grace = fromProperties ? "bounded-upload.shutdown-grace-period" : "shutdownGracePeriod";
            String stop = fromProperties ? "bounded-upload.stop-timeout" : "stopTimeout";
            throw new UploaderSetupException("The bounded-upload drain takes up to " + UploaderDrain.format(drain)
                    + " (" + grace + " " + UploaderDrain.format(config.shutdownGracePeriod()) + " + 2 x " + stop + " "
                    + UploaderDrain.format(config.stopTimeout()) + (fromProperties ? "" : " of the UploaderConfig in use")
                    + after.stream().map(follower -> " + " + follower.name() + " " + UploaderDrain.format(
                            follower.closeTime())).collect(Collectors.joining()) + "), which does not fit in " + PHASE_TIMEOUT + " (" + UploaderDrain.format(phase) + "): Spring "
                    + "Boot would stop waiting and close the storage under running uploads.",
                    "Lower " + grace + " or " + stop + (fromProperties ? "" : " (your UploaderConfig bean or "
                            + "UploaderConfigCustomizer sets them)") + ", or raise " + PHASE_TIMEOUT
                            + " (and your platform's termination grace period with it); see "
                            + "docs/spring-boot.md#shutdown.");
        }
        return new UploaderDrain(uploader, after);
    }
}
