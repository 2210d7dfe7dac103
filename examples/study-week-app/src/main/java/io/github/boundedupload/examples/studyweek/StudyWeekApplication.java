package io.github.boundedupload.examples.studyweek;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * A study service that creates a study week with N attachments in one request: the attachments go to the storage
 * concurrently through the auto-configured {@link io.github.boundedupload.ConcurrentAttachmentUploader}, outside the
 * database transaction, and the week is saved afterwards. Changes when how Spring Boot starts the study service
 * changes.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class StudyWeekApplication {

    /**
     * Starts the application.
     *
     * @param args command-line arguments, passed to Spring Boot
     */
    public static void main(String[] args) {
        SpringApplication.run(StudyWeekApplication.class, args);
    }
}
