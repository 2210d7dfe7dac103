package io.github.boundedupload.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.GeneratedFiles.Kind;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;

/**
 * What a native image build does first: Spring's ahead-of-time processing of the application context, here with each
 * storage the starter configures and with the journal. It must succeed (no bean that only a running context can
 * make), generate the uploader's bean definitions, and carry the starter's runtime hints. (A native image itself needs
 * GraalVM, which this project's CI machine does not have.)
 */
class AotProcessingTests {

    @TempDir
    Path root;

    @Test
    void theLocalStorageConfigurationIsProcessedAheadOfTime() {
        assertProcessed(TestSupport.runner(root), List.of());
    }

    @Test
    void theS3StorageConfigurationIsProcessedAheadOfTime() {
        assertProcessed(TestSupport.s3Runner("bucket", "http://127.0.0.1:9"), List.of());
    }

    @Test
    void theJournalConfigurationIsProcessedAheadOfTimeWithItsMigrations() {
        DefaultGenerationContext generated = assertProcessed(TestSupport.runner(root)
                .withUserConfiguration(JournalAutoConfigurationTests.Database.class)
                .withPropertyValues("bounded-upload.journal.enabled=true"), List.of("boundedUploadJournal"));
        assertThat(RuntimeHintsPredicates.resource().forResource("io/github/boundedupload/jdbc/flyway/h2/V1__bounded_upload_journal.sql"))
                .accepts(generated.getRuntimeHints());
    }

    private DefaultGenerationContext assertProcessed(ApplicationContextRunner runner, List<String> moreBeans) {
        InMemoryGeneratedFiles files = new InMemoryGeneratedFiles();
        DefaultGenerationContext generation = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get("com.example", "App")), files);
        runner.prepare(context -> {
            GenericApplicationContext application = (GenericApplicationContext) context.getSourceApplicationContext();
            new ApplicationContextAotGenerator().processAheadOfTime(application, generation);
            generation.writeGeneratedContent();
        });
        String sources = files.getGeneratedFiles(Kind.SOURCE).values().stream().map(source -> {
            try (java.io.InputStream in = source.getInputStream()) {
                return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).collect(Collectors.joining("\n"));
        assertThat(sources).contains("\"" + UploaderConfiguration.UPLOADER_BEAN_NAME + "\"");
        moreBeans.forEach(bean -> assertThat(sources).contains("\"" + bean + "\""));
        return generation;
    }
}
