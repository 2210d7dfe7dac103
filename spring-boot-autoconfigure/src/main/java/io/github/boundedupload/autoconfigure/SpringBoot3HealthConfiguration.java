package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.FileUploader;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.health.CompositeHealthContributor;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthContributor;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The health indicator for Spring Boot 3 ({@code org.springframework.boot.actuate.health}), twin of
 * {@link SpringBoot4HealthConfiguration}: the two APIs share no type. Delete it when Spring Boot 3 support ends.
 * Changes when Spring Boot 3's health API changes.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
@Conditional(EnabledHealthIndicatorCondition.class)
class SpringBoot3HealthConfiguration {

    @Bean(BoundedUploadHealthAutoConfiguration.INDICATOR_BEAN_NAME)
    @ConditionalOnMissingBean(name = BoundedUploadHealthAutoConfiguration.INDICATOR_BEAN_NAME)
    HealthContributor boundedUploadHealthIndicator(Map<String, ConcurrentAttachmentUploader> uploaders,
            ObjectProvider<FileUploader> storage, ObjectProvider<AsyncFileUploader> asyncStorage,
            ObjectProvider<StorageCheck> storageCheck, ObjectProvider<JournalCheck> journalCheck) {
        if (uploaders.size() == 1) {
            return indicator(new UploaderHealth(uploaders.values().iterator().next(),
                    StorageInUse.storageBean(storage, asyncStorage), storageCheck.getIfUnique(),
                    journalCheck.getIfUnique()));
        }
        return CompositeHealthContributor.fromMap(uploaders, uploader -> indicator(UploaderHealth.alone(uploader)));
    }

    private static HealthIndicator indicator(UploaderHealth health) {
        return () -> {
            UploaderHealth.Report report = health.check();
            return (report.up() ? Health.up() : Health.down()).withDetails(report.details()).build();
        };
    }
}
