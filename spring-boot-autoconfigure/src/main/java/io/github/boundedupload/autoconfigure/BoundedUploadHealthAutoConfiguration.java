package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Import;

/**
 * Contributes a {@code boundedUpload} health indicator when Actuator's health support is on the class path (Spring
 * Boot 4's {@code spring-boot-health}, or Spring Boot 3's {@code spring-boot-actuator}): DOWN when the uploader is
 * closed, its local storage directory cannot be written to, or its S3 bucket cannot be found or reached (HeadBucket
 * through the storage's client, within {@code bounded-upload.health.timeout}); its load and limits as details.
 * With several uploader beans, {@code boundedUpload} is a composite with one indicator per uploader, named after its
 * bean, reporting its state, load and limits (no storage check: an uploader does not reveal its storage).
 * Spring Boot's switch turns it off: {@code management.health.bounded-upload.enabled=false} (or
 * {@code management.health.defaults.enabled=false}). Changes when the way health indicators are contributed changes.
 */
@AutoConfiguration(after = BoundedUploadAutoConfiguration.class)
@ConditionalOnClass(ConcurrentAttachmentUploader.class)
@ConditionalOnProperty(prefix = BoundedUploadProperties.PREFIX, name = "enabled", matchIfMissing = true)
@ConditionalOnBean(ConcurrentAttachmentUploader.class)
@Import({ SpringBoot4HealthConfiguration.class, SpringBoot3HealthConfiguration.class })
public final class BoundedUploadHealthAutoConfiguration {

    /** The bean name of the health indicator; Actuator shows it as {@code boundedUpload}. */
    static final String INDICATOR_BEAN_NAME = "boundedUploadHealthIndicator";

    BoundedUploadHealthAutoConfiguration() {
    }
}
