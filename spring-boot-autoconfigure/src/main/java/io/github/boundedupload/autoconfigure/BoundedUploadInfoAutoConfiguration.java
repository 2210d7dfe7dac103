package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.FileUploader;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Contributes {@code boundedUpload} to {@code /actuator/info} when Actuator is on the class path (its
 * {@code InfoContributor}, the same type in Spring Boot 3 and 4): the uploader's name and the storage it writes to, so
 * that which storage a running instance uses is one request away. Changes when what the info endpoint shows of the
 * uploaders changes.
 *
 * <pre>{@code
 * "boundedUpload": {
 *   "name": "attachments",
 *   "storage": { "type": "s3", "location": "s3://my-app-attachments",
 *                "client": "an S3AsyncClient built by bounded-upload" }
 * }
 * }</pre>
 *
 * With several uploader beans, one entry per bean, with its name only. Spring Boot's switch turns it off:
 * {@code management.info.bounded-upload.enabled=false} (or {@code management.info.defaults.enabled=false}).
 */
@AutoConfiguration(after = BoundedUploadAutoConfiguration.class)
@ConditionalOnClass(ConcurrentAttachmentUploader.class)
@ConditionalOnProperty(prefix = BoundedUploadProperties.PREFIX, name = "enabled", matchIfMissing = true)
@ConditionalOnBean(ConcurrentAttachmentUploader.class)
@Import(BoundedUploadInfoAutoConfiguration.InfoConfiguration.class)
public final class BoundedUploadInfoAutoConfiguration {

    /** The bean name of the info contributor. */
    static final String CONTRIBUTOR_BEAN_NAME = "boundedUploadInfoContributor";

    BoundedUploadInfoAutoConfiguration() {
    }

    /** Names Actuator's types only when they are on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.info.InfoContributor")
    @Conditional(EnabledHealthIndicatorCondition.Info.class)
    static class InfoConfiguration {

        @Bean(CONTRIBUTOR_BEAN_NAME)
        @ConditionalOnMissingBean(name = CONTRIBUTOR_BEAN_NAME)
        InfoContributor boundedUploadInfoContributor(Map<String, ConcurrentAttachmentUploader> uploaders,
                ObjectProvider<FileUploader> storage, ObjectProvider<AsyncFileUploader> asyncStorage,
                ObjectProvider<StorageCheck> storageCheck) {
            return builder -> builder.withDetail("boundedUpload", details(uploaders, storage, asyncStorage,
                    storageCheck));
        }

        static Map<String, Object> details(Map<String, ConcurrentAttachmentUploader> uploaders,
                ObjectProvider<FileUploader> storage, ObjectProvider<AsyncFileUploader> asyncStorage,
                ObjectProvider<StorageCheck> storageCheck) {
            Map<String, Object> details = new LinkedHashMap<>();
            if (uploaders.size() == 1) {
                details.put("name", uploaders.values().iterator().next().name());
                StorageInUse inUse = StorageInUse.of(StorageInUse.storageBean(storage, asyncStorage),
                        storageCheck.getIfUnique());
                if (inUse != null) {
                    details.put("storage", inUse.asMap());
                }
            } else {
                uploaders.forEach((bean, uploader) -> details.put(bean, Map.of("name", uploader.name())));
            }
            return details;
        }
    }
}
