package io.github.boundedupload.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.jdbc.DeferredAttachment;
import io.github.boundedupload.jdbc.DeferredBatch;
import io.github.boundedupload.jdbc.DeferredUploads;
import io.github.boundedupload.jdbc.JdbcUploadJournal;
import io.github.boundedupload.jdbc.JournalMeters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import liquibase.integration.spring.SpringLiquibase;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.ClassUtils;

/**
 * {@code bounded-upload.journal.enabled=true} with a DataSource: the journal is on, and "keep" joins the Spring
 * transaction that calls {@code uploadAll}: a commit keeps the objects, a rollback removes them at once.
 */
@ExtendWith(OutputCaptureExtension.class)
class JournalAutoConfigurationTests {

    @TempDir
    Path root;

    private ApplicationContextRunner runner() {
        return TestSupport.runner(root).withUserConfiguration(Database.class)
                .withPropertyValues("bounded-upload.journal.enabled=true",
                        "bounded-upload.journal.polling-interval=200ms");
    }

    @Configuration(proxyBeanMethods = false)
    static class Database {

        @Bean
        DataSource dataSource() {
            JdbcDataSource dataSource = new JdbcDataSource();
            dataSource.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
            return dataSource;
        }

        @Bean
        PlatformTransactionManager transactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }
    }

    private static List<Attachment> files() {
        return List.of(Attachment.of("a.txt", "a".getBytes(StandardCharsets.UTF_8)),
                Attachment.of("b.txt", "b".getBytes(StandardCharsets.UTF_8)));
    }

    private long storedFiles() throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().startsWith("."))
                    .count();
        }
    }

    @Test
    void offByDefault() {
        TestSupport.runner(root).withUserConfiguration(Database.class).run(context -> {
            assertThat(context).doesNotHaveBean(JdbcUploadJournal.class);
            assertThat(context.getBean(ConcurrentAttachmentUploader.class).config().journal()).isEmpty();
        });
    }

    @Test
    void aCommittedTransactionKeepsTheObjectsAndARolledBackOneRemovesThem() {
        runner().run(context -> {
            JdbcUploadJournal journal = context.getBean(JdbcUploadJournal.class);
            ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
            assertThat(uploader.config().journal()).containsSame(journal);
            assertThat(context).hasSingleBean(JournalMeters.class);
            TransactionTemplate tx = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));

            BatchResult kept = tx.execute(status -> uploader.uploadAll(files()));
            assertThat(kept.allStored()).isTrue();
            assertThat(storedFiles()).isEqualTo(2);
            assertThat(journal.status().unsettledBatches()).isZero();

            tx.executeWithoutResult(status -> {
                uploader.uploadAll(files());
                status.setRollbackOnly();
            });
            // Removed at once after the rollback, not when the lease (30 minutes and more) ends.
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                assertThat(storedFiles()).isEqualTo(2);
                assertThat(journal.status().unsettledBatches()).isZero();
            });
            assertThat(journal.status().compensationsCompleted()).isEqualTo(1);

            TestSupport.HealthView health = TestSupport.health(context.getBean(
                    BoundedUploadHealthAutoConfiguration.INDICATOR_BEAN_NAME));
            assertThat(health.status()).isEqualTo("UP");
            assertThat(health.details()).extractingByKey("journal").asInstanceOf(InstanceOfAssertFactories.MAP)
                    .containsEntry("unsettledBatches", 0L).containsEntry("compensationsFailing", 0L);
        });
    }

    @Test
    void deferredUploadsAreStoredAfterTheCommitAndPublishedAsEvents() {
        runner().withUserConfiguration(Events.class).run(context -> {
            DeferredUploads deferred = context.getBean(DeferredUploads.class);
            TransactionTemplate tx = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
            DeferredBatch batch = tx.execute(status -> deferred.submit(files()));
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(deferred.attachments(batch.id()))
                    .extracting(DeferredAttachment::state).containsOnly(DeferredAttachment.State.STORED));
            assertThat(context.getBean(Events.class).heard).extracting(event -> event.attachment().key())
                    .containsExactlyInAnyOrderElementsOf(batch.keys());
            for (String key : batch.keys()) {
                assertThat(root.resolve(key)).exists();
            }
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class Events {
        final List<DeferredUploadEvent> heard = new CopyOnWriteArrayList<>();

        @EventListener
        void on(DeferredUploadEvent event) {
            heard.add(event);
        }
    }

    /**
     * The journal stops in the drain, after the uploader (whose last batches write to it), and its stop counts in the
     * drain's budget: {@code bounded-upload.stop-timeout} plus db-scheduler's 2 s.
     */
    @Test
    void theJournalStopsInTheDrainAfterTheUploaderAndCountsInItsBudget(CapturedOutput output) {
        Logger drainLog = (Logger) LoggerFactory.getLogger(UploaderDrain.class);
        Level level = drainLog.getLevel();
        drainLog.setLevel(Level.INFO);
        try {
            runner().run(context -> {
                ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
                JdbcUploadJournal journal = context.getBean(JdbcUploadJournal.class);
                assertThat(uploader.uploadAll(files()).allStored()).isTrue();
                context.close();
                assertThat(uploader.stats().closed()).isTrue();
                assertThat(output).containsPattern("bounded-upload 'default': the upload journal stopped in \\d+ ms "
                        + "\\(at most 2s\\)");
                assertThat(journal.status().unsettledBatches()).as("nothing left behind").isZero();
            });
        } finally {
            drainLog.setLevel(level);
        }
        runner().withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=22s").run(context -> {
            assertThat(context).hasFailed();
            assertThat(new BoundedUploadFailureAnalyzer().analyze(context.getStartupFailure()).getDescription())
                    .startsWith("The bounded-upload drain takes up to 22s (bounded-upload.shutdown-grace-period 10s"
                            + " + 2 x bounded-upload.stop-timeout 5s + the upload journal 2s), which does not fit in"
                            + " spring.lifecycle.timeout-per-shutdown-phase (22s)");
        });
    }

    @Test
    void aNativeImageGetsTheMigrationsTheJournalReads() {
        org.springframework.aot.hint.RuntimeHints hints = new org.springframework.aot.hint.RuntimeHints();
        new BoundedUploadRuntimeHints().registerHints(hints, getClass().getClassLoader());
        for (String script : List.of("flyway/postgresql/V1__bounded_upload_journal.sql",
                "flyway/mysql/V1__bounded_upload_journal.sql", "flyway/h2/V1__bounded_upload_journal.sql",
                "flyway/postgresql/V2__bounded_upload_liveness.sql", "flyway/mysql/V2__bounded_upload_liveness.sql",
                "flyway/h2/V2__bounded_upload_liveness.sql", "flyway/postgresql/V3__bounded_upload_grant.sql",
                "flyway/mysql/V3__bounded_upload_grant.sql", "flyway/h2/V3__bounded_upload_grant.sql",
                "flyway/postgresql/V4__bounded_upload_grant_kinds.sql",
                "flyway/mysql/V4__bounded_upload_grant_kinds.sql", "flyway/h2/V4__bounded_upload_grant_kinds.sql",
                "liquibase/bounded-upload-journal.xml")) {
            String resource = "io/github/boundedupload/jdbc/" + script;
            assertThat(JdbcUploadJournal.class.getClassLoader().getResource(resource)).as(resource).isNotNull();
            assertThat(org.springframework.aot.hint.predicate.RuntimeHintsPredicates.resource().forResource(resource)
                    .test(hints)).as(resource).isTrue();
        }
    }

    /** Spring Boot's Flyway auto-configuration, of whichever Spring Boot runs the tests (it moved in Spring Boot 4). */
    static AutoConfigurations springBootFlyway() {
        for (String name : List.of("org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
                "org.springframework.boot.autoconfigure.flyway.FlywayAutoConfiguration")) {
            if (ClassUtils.isPresent(name, JournalAutoConfigurationTests.class.getClassLoader())) {
                return AutoConfigurations.of(ClassUtils.resolveClassName(name,
                        JournalAutoConfigurationTests.class.getClassLoader()));
            }
        }
        throw new IllegalStateException("no Flyway auto-configuration on the class path");
    }

    @Test
    void theApplicationsFlywayAppliesTheJournalsMigrationsInAHistoryOfTheirOwn() {
        runner().withConfiguration(springBootFlyway()).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(JdbcUploadJournal.class);
            DataSource database = context.getBean(DataSource.class);
            assertThat(rows(database, "SELECT \"version\" || ':' || \"success\" FROM \"bounded_upload_schema_history\""
                    + " WHERE \"version\" IN ('1', '4') ORDER BY \"installed_rank\""))
                    .containsExactly("1:TRUE", "4:TRUE");
            assertThat(tables(database)).contains("BOUNDED_UPLOAD_BATCH", "BOUNDED_UPLOAD_DEFERRED",
                    "BOUNDED_UPLOAD_GRANT").doesNotContain("DATABASECHANGELOG");
        });
    }

    /** Behind spring.flyway.enabled=false nothing runs Flyway: on an embedded database the journal makes its tables. */
    @Test
    void withSpringBootsFlywayOffTheJournalRunsNoMigration() {
        runner().withConfiguration(springBootFlyway()).withPropertyValues("spring.flyway.enabled=false")
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(org.flywaydb.core.Flyway.class);
                    assertThat(tables(context.getBean(DataSource.class))).contains("BOUNDED_UPLOAD_BATCH")
                            .doesNotContain("BOUNDED_UPLOAD_SCHEMA_HISTORY", "DATABASECHANGELOG");
                });
        runner().withConfiguration(springBootFlyway()).withPropertyValues("spring.flyway.enabled=false",
                "bounded-upload.journal.create-tables=false").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(new BoundedUploadFailureAnalyzer().analyze(context.getStartupFailure())
                            .getDescription()).startsWith("The upload journal's tables are missing with"
                                    + " bounded-upload.journal.create-tables=false: bounded_upload_batch,");
                });
    }

    /** A database in a file is not embedded: unasked, nothing creates the tables, and start-up says so in one line. */
    @Test
    void aDatabaseThatIsNotEmbeddedWithoutTheTablesFailsStartUpInOneLine() {
        JdbcDataSource file = new JdbcDataSource();
        file.setURL("jdbc:h2:file:" + root.resolve("database").toAbsolutePath());
        ApplicationContextRunner onFile = TestSupport.runner(root).withBean(DataSource.class, () -> file)
                .withPropertyValues("bounded-upload.journal.enabled=true");
        onFile.run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new BoundedUploadFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).isEqualTo("The upload journal's tables are missing on a database "
                    + "that is not embedded: bounded_upload_batch, bounded_upload_key, bounded_upload_task, "
                    + "bounded_upload_deferred, bounded_upload_instance, bounded_upload_grant, "
                    + "bounded_upload_grant_caller, bounded_upload_grant.upload_id and by_form (version 4).");
            assertThat(analysis.getAction()).startsWith("Create them one of three ways: Flyway or Liquibase")
                    .contains("bounded-upload.journal.create-tables=true");
        });
        onFile.withPropertyValues("bounded-upload.journal.create-tables=true")
                .run(context -> assertThat(context).hasNotFailed());
        onFile.run(context -> assertThat(context).as("the tables are there now").hasNotFailed());
    }

    @Test
    void theApplicationsLiquibaseAppliesTheJournalsChangelog() {
        runner().withUserConfiguration(ApplicationLiquibase.class).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(JdbcUploadJournal.class);
            DataSource database = context.getBean(DataSource.class);
            assertThat(rows(database, "SELECT ID FROM DATABASECHANGELOG"))
                    .containsExactly("application-1", "bounded-upload-journal-1-h2", "bounded-upload-journal-2-h2",
                            "bounded-upload-journal-3-h2", "bounded-upload-journal-4-h2");
            assertThat(tables(database)).contains("BOUNDED_UPLOAD_BATCH").doesNotContain(
                    "BOUNDED_UPLOAD_SCHEMA_HISTORY");
        });
    }

    /** An application's Liquibase, as Spring Boot makes it: a SpringLiquibase bean, which runs when it is created. */
    @Configuration(proxyBeanMethods = false)
    static class ApplicationLiquibase {
        @Bean
        SpringLiquibase liquibase(DataSource dataSource) {
            SpringLiquibase liquibase = new SpringLiquibase();
            liquibase.setDataSource(dataSource);
            liquibase.setChangeLog("classpath:db/application-changelog.xml");
            return liquibase;
        }
    }

    @Test
    void withoutAMigrationToolTheJournalCreatesItsTables() {
        runner().withClassLoader(new FilteredClassLoader("org.flywaydb", "liquibase")).run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(JournalSchema.class);
            assertThat(tables(context.getBean(DataSource.class))).contains("BOUNDED_UPLOAD_BATCH",
                    "BOUNDED_UPLOAD_TASK").doesNotContain("BOUNDED_UPLOAD_SCHEMA_HISTORY", "DATABASECHANGELOG");
        });
    }

    @Test
    void withCreateTablesOffNothingIsMigratedForTheJournal() {
        TestSupport.runner(root).withUserConfiguration(MigratedDatabase.class)
                .withPropertyValues("bounded-upload.journal.enabled=true", "bounded-upload.journal.create-tables=false")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(JdbcUploadJournal.class);
                    assertThat(tables(context.getBean(DataSource.class)))
                            .doesNotContain("BOUNDED_UPLOAD_SCHEMA_HISTORY", "DATABASECHANGELOG");
                });
    }

    /** A database whose own migrations included the journal's before the application started. */
    @Configuration(proxyBeanMethods = false)
    static class MigratedDatabase {

        @Bean
        DataSource dataSource() throws Exception {
            DataSource dataSource = new Database().dataSource();
            for (String migration : List.of("V1__bounded_upload_journal.sql", "V2__bounded_upload_liveness.sql",
                    "V3__bounded_upload_grant.sql", "V4__bounded_upload_grant_kinds.sql")) {
                try (var c = dataSource.getConnection(); var s = c.createStatement();
                        var script = JdbcUploadJournal.class.getResourceAsStream("flyway/h2/" + migration)) {
                    s.execute(new String(script.readAllBytes(), StandardCharsets.UTF_8));
                }
            }
            return dataSource;
        }

        @Bean
        PlatformTransactionManager transactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }
    }

    /** Upper case: Flyway quotes its history table's name in lower case, the scripts leave H2 to upper-case theirs. */
    private static List<String> tables(DataSource database) throws java.sql.SQLException {
        return rows(database, "SELECT UPPER(TABLE_NAME) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'PUBLIC'");
    }

    private static List<String> rows(DataSource database, String query) throws java.sql.SQLException {
        List<String> rows = new java.util.ArrayList<>();
        try (var c = database.getConnection(); var s = c.createStatement(); var r = s.executeQuery(query)) {
            while (r.next()) {
                rows.add(r.getString(1));
            }
        }
        return rows;
    }

    @Test
    void enabledWithoutADataSourceFailsAtStartUpSayingWhy() {
        TestSupport.runner(root).withPropertyValues("bounded-upload.journal.enabled=true").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("no single DataSource");
        });
    }

    @Test
    void invalidSettingsAreRefusedWhenBound() {
        runner().withPropertyValues("bounded-upload.journal.threads=0").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("journal.threads");
        });
    }
}
