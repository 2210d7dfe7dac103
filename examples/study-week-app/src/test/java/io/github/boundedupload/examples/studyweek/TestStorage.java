package io.github.boundedupload.examples.studyweek;

import io.github.boundedupload.local.LocalFileUploader;
import java.io.IOException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * The local storage the application uses by default, under the test's data directory, behind a {@link GatedStorage}
 * that the uploader uses (it is {@code @Primary}). The application reads and deletes through the plain
 * {@link LocalFileUploader}, as it does without the tests.
 */
@TestConfiguration(proxyBeanMethods = false)
class TestStorage {

    @Bean
    LocalFileUploader localStorage(@Value("${bounded-upload.local.root}") String root) throws IOException {
        return new LocalFileUploader(java.nio.file.Path.of(root));
    }

    @Bean
    @Primary
    GatedStorage gatedStorage(LocalFileUploader localStorage) {
        return new GatedStorage(localStorage);
    }
}
