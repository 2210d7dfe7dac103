package io.github.boundedupload.starter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.local.LocalFileUploader;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An application on exactly what the starter brings (and Actuator's info API): its storage is never chosen by
 * accident, a misspelt key is named, and with the local disk chosen explicitly it starts and says so in
 * {@code /actuator/info}. What a user reads is Spring Boot's own start-up report.
 */
@ExtendWith(OutputCaptureExtension.class)
class StarterApplicationTests {

    @TempDir
    Path root;

    private ConfigurableApplicationContext start(String... args) {
        return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off", DrainOnSigtermIT.WITHOUT_SPRING_CLOUD_AWS.substring(2))
                .run(args);
    }

    @Test
    void withoutAnyStorageStartUpFailsWithOneLineNamingWhatToSet(CapturedOutput output) {
        assertThatThrownBy(this::start).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START").contains("\nDescription:\n\nbounded-upload has no "
                + "storage: set bounded-upload.s3.bucket (S3) or bounded-upload.local.root (a directory on the local "
                + "disk), or define a FileUploader or AsyncFileUploader bean.\n\nAction:\n");
    }

    @Test
    void aMisspeltKeyFailsStartUpWithOneLineNamingTheKeyMeant(CapturedOutput output) {
        assertThatThrownBy(() -> start("--bounded-upload.local.rot=" + root)).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START").contains("\nDescription:\n\nUnknown bounded-upload "
                + "property bounded-upload.local.rot (\"bounded-upload.local.rot\" from property source "
                + "\"commandLineArgs\"): did you mean bounded-upload.local.root?\n\nAction:\n");
    }

    @Test
    void withTheLocalDiskChosenItStartsAndInfoSaysWhere() throws Exception {
        try (ConfigurableApplicationContext context = start("--bounded-upload.local.root=" + root)) {
            assertThat(context.getBean(LocalFileUploader.class).root()).isEqualTo(root.toRealPath());
            assertThat(context.getBean(ConcurrentAttachmentUploader.class).name()).isEqualTo("default");
            Info.Builder info = new Info.Builder();
            context.getBeansOfType(InfoContributor.class).values().forEach(contributor -> contributor.contribute(info));
            assertThat(info.build().getDetails()).containsEntry("boundedUpload", Map.of("name", "default",
                    "storage", Map.of("type", "local", "location", root.toRealPath().toString())));
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }
}
