package io.github.boundedupload.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.local.LocalFileUploader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.util.ClassUtils;

/**
 * {@code /actuator/info} says which storage the uploader writes to. Actuator's info API is the same type in Spring
 * Boot 3 and 4; these tests run where it is on the class path (the Spring Boot 3 run here, both in the starter's
 * tests).
 */
class BoundedUploadInfoAutoConfigurationTests {

    @TempDir
    Path root;

    @BeforeEach
    void actuator() {
        assumeTrue(ClassUtils.isPresent("org.springframework.boot.actuate.info.InfoContributor", null),
                "Actuator's info API is on the class path");
    }

    private ApplicationContextRunner runner() {
        return TestSupport.runner(root).withConfiguration(AutoConfigurations.of(
                BoundedUploadInfoAutoConfiguration.class));
    }

    static Map<String, Object> info(ApplicationContext context) {
        return Actuator.info(context);
    }

    /** Names Actuator's types, which this class must load without: they are absent from the Boot 4 run here. */
    static final class Actuator {
        @SuppressWarnings("unchecked")
        static Map<String, Object> info(ApplicationContext context) {
            org.springframework.boot.actuate.info.Info.Builder builder =
                    new org.springframework.boot.actuate.info.Info.Builder();
            context.getBeansOfType(org.springframework.boot.actuate.info.InfoContributor.class).values()
                    .forEach(contributor -> contributor.contribute(builder));
            return (Map<String, Object>) builder.build().getDetails().get("boundedUpload");
        }
    }

    @Test
    void theLocalDiskAndItsDirectory() {
        runner().run(context -> assertThat(info(context)).isEqualTo(Map.of("name", "default",
                "storage", Map.of("type", "local", "location", root.toRealPath().toString()))));
    }

    @Test
    void s3ItsBucketAndWhichClient() {
        TestSupport.s3Runner("attachments", "http://127.0.0.1:1")
                .withConfiguration(AutoConfigurations.of(BoundedUploadInfoAutoConfiguration.class))
                .run(context -> assertThat(info(context)).isEqualTo(Map.of("name", "default", "storage", Map.of(
                        "type", "s3", "location", "s3://attachments",
                        "client", "an S3AsyncClient built by bounded-upload"))));
    }

    @Test
    void severalUploadersEachByName() throws IOException {
        LocalFileUploader storage = new LocalFileUploader(root);
        runner().withBean("images", ConcurrentAttachmentUploader.class, () -> ConcurrentAttachmentUploader.create(
                storage, UploaderConfig.builder().name("images").build()))
                .withBean("reports", ConcurrentAttachmentUploader.class, () -> ConcurrentAttachmentUploader.create(
                        storage, UploaderConfig.builder().name("reports").build()))
                .run(context -> assertThat(info(context)).isEqualTo(Map.of("images", Map.of("name", "images"),
                        "reports", Map.of("name", "reports"))));
    }

    @Test
    void offBySpringBootsSwitchOrWithoutActuator() {
        runner().withPropertyValues("management.info.bounded-upload.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(
                        BoundedUploadInfoAutoConfiguration.CONTRIBUTOR_BEAN_NAME));
        runner().withPropertyValues("management.info.defaults.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(
                        BoundedUploadInfoAutoConfiguration.CONTRIBUTOR_BEAN_NAME));
        runner().withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate.info"))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(
                        BoundedUploadInfoAutoConfiguration.CONTRIBUTOR_BEAN_NAME));
    }
}
