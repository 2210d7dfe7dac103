package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.direct.GrantStore;
import io.github.boundedupload.jdbc.DeferredAttachment;
import io.github.boundedupload.jdbc.DeferredUploadListener;
import io.github.boundedupload.jdbc.DeferredUploads;
import io.github.boundedupload.jdbc.JdbcGrantStore;
import io.github.boundedupload.jdbc.JdbcUploadJournal;
import io.github.boundedupload.jdbc.JournalMeters;
import io.github.boundedupload.jdbc.JournalStatus;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadJournal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.core.annotation.Order;

/**
 * The upload journal, when {@code bounded-upload.journal.enabled=true}: a {@link JdbcUploadJournal} on the
 * application's {@code DataSource}, writing "keep" in the calling Spring transaction, removing what the same storage
 * the uploader uses stored; its meters and health details. Changes when the beans that make up the auto-configured
 * journal change.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = { "io.github.boundedupload.jdbc.JdbcUploadJournal",
    "org.springframework.jdbc.datasource.DataSourceUtils" })
@ConditionalOnProperty(prefix = BoundedUploadProperties.PREFIX + ".journal", name = "enabled")
@ImportRuntimeHints(BoundedUploadRuntimeHints.class)
class JournalConfiguration {

    static final String JOURNAL_BEAN_NAME = "boundedUploadJournal";
    /** What {@link JdbcUploadJournal#close()} may take beyond its stop timeout: db-scheduler's two 1 s waits. */
    static final Duration JOURNAL_SCHEDULER_WAITS = Duration.ofSeconds(2);

    /**
     * Closed after the uploader (which uses it through its configuration), before the storage and the data source.
     * Created after the application's own database initialization (its Flyway or Liquibase migrations, which may
     * include the journal's), and with the journal's migrations applied by the application's tool when it has one.
     */
    @Bean(name = JOURNAL_BEAN_NAME, destroyMethod = "close")
    @ConditionalOnMissingBean(UploadJournal.class)
    @DependsOnDatabaseInitialization
    JdbcUploadJournal boundedUploadJournal(BoundedUploadProperties properties, ObjectProvider<DataSource> dataSource,
            ObjectProvider<FileUploader> fileUploader, ObjectProvider<AsyncFileUploader> asyncFileUploader,
            ObjectProvider<JournalSchema> tools) {
        DataSource database = dataSource.getIfUnique();
        if (database == null) {
            throw new UploaderSetupException("bounded-upload.journal.enabled is true, but the application has no"
                    + " single DataSource for the journal.", "Configure a DataSource (spring.datasource.*), mark one"
                    + " @Primary, or define the UploadJournal bean yourself.");
        }
        JournalProperties settings = properties.getJournal();
        AsyncFileUploader async = asyncFileUploader.getIfUnique();
        FileUploader blocking = fileUploader.getIfUnique();
        JdbcUploadJournal.Builder builder;
        if (async != null) {
            builder = JdbcUploadJournal.builder(database, async);
        } else if (blocking != null) {
            builder = JdbcUploadJournal.builder(database, blocking);
        } else {
            throw new UploaderSetupException("The upload journal needs the uploader's single storage, and found"
                    + " none.", "Define a single FileUploader or AsyncFileUploader bean, or mark one @Primary.");
        }
        boolean createTables = JournalTables.prepare(database, settings.getCreateTables(),
                tools.orderedStream().toList());
        builder.callerTransaction(new SpringCallerTransaction(database))
                .createTables(createTables)
                .keepMargin(settings.getKeepMargin())
                .pollingInterval(settings.getPollingInterval())
                .livenessTimeout(settings.getLivenessTimeout())
                .failingAfter(settings.getFailingAfter())
                .threads(settings.getThreads())
                .retryPauses(settings.getFirstRetryPause(), settings.getMaxRetryPause())
                // Counted from the drain's start, when the journal pauses: its deferred uploads run as the uploader's
                // batches, and get as long as they do; its compensations too.
                .stopTimeout(properties.getShutdownGracePeriod().plus(properties.getStopTimeout().multipliedBy(2)));
        String instance = settings.getInstanceName();
        if (instance != null) {
            builder.instanceName(instance);
        }
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new UploaderSetupException("The upload journal's settings are invalid: " + e.getMessage(),
                    "Fix the bounded-upload.journal.* property it names.", e);
        }
    }

    /**
     * Deferred uploads through the uploader: each outcome goes to the {@link DeferredUploadListener} beans and is
     * published as a {@link DeferredUploadEvent}.
     */
    @Bean
    @ConditionalOnMissingBean
    DeferredUploads boundedUploadDeferredUploads(JdbcUploadJournal journal, ConcurrentAttachmentUploader uploader,
            BoundedUploadProperties properties, ObjectProvider<DeferredUploadListener> listeners,
            ApplicationEventPublisher events) {
        JournalProperties.Deferred settings = properties.getJournal().getDeferred();
        List<DeferredUploadListener> all = listeners.orderedStream().toList();
        DeferredUploadListener publishing = new DeferredUploadListener() {
            @Override
            public void stored(DeferredAttachment attachment) {
                all.forEach(listener -> listener.stored(attachment));
                events.publishEvent(new DeferredUploadEvent(attachment));
            }

            @Override
            public void failed(DeferredAttachment attachment) {
                all.forEach(listener -> listener.failed(attachment));
                events.publishEvent(new DeferredUploadEvent(attachment));
            }
        };
        try {
            return DeferredUploads.builder(journal, uploader).listener(publishing)
                    .maxAttachmentSize(settings.getMaxAttachmentSize().toBytes())
                    .maxStagedBytes(settings.getMaxStagedSize().toBytes())
                    .maxStagedAttachments(settings.getMaxStagedAttachments()).deadline(settings.getDeadline())
                    .build();
        } catch (IllegalArgumentException e) {
            throw new UploaderSetupException("The deferred uploads' settings are invalid: " + e.getMessage(),
                    "Fix the bounded-upload.journal.deferred.* property it names.", e);
        }
    }

    /**
     * The grants of direct uploads, as rows of the journal's database: bounded per caller across the fleet, confirmed
     * in the caller's transaction, and what was uploaded and never confirmed removed by the journal's recovery.
     */
    @Bean
    @ConditionalOnMissingBean(GrantStore.class)
    @ConditionalOnProperty(prefix = DirectUploadsConfiguration.PREFIX, name = "enabled")
    JdbcGrantStore boundedUploadGrantStore(JdbcUploadJournal journal, BoundedUploadProperties properties) {
        try {
            return JdbcGrantStore.of(journal, properties.getDirect().getLongestRequest());
        } catch (IllegalArgumentException e) {
            throw new UploaderSetupException("The direct uploads' settings are invalid: " + e.getMessage(),
                    "Fix the " + DirectUploadsConfiguration.PREFIX + ".longest-request property.", e);
        }
    }

    /**
     * The journal in the uploader's drain: it takes no new task when the drain starts, and its tasks get as long as the
     * uploader's batches ({@code shutdown-grace-period} + 2 x {@code stop-timeout} from then); it stops once the
     * uploader is closed, adding at most db-scheduler's own 2 x 1 s for what it interrupts.
     */
    @Bean
    UploaderDrain.Follower boundedUploadJournalDrain(JdbcUploadJournal journal) {
        return new UploaderDrain.Follower() {
            @Override
            public String name() {
                return "the upload journal";
            }

            @Override
            public void pause() {
                journal.pause();
            }

            @Override
            public void close() {
                journal.close();
            }

            @Override
            public Duration closeTime() {
                return JOURNAL_SCHEDULER_WAITS;
            }
        };
    }

    @Bean
    JournalCheck boundedUploadJournalCheck(JdbcUploadJournal journal) {
        return details -> {
            Map<String, Object> journalDetails = new LinkedHashMap<>();
            try {
                JournalStatus status = journal.status();
                journalDetails.put("unsettledBatches", status.unsettledBatches());
                journalDetails.put("oldestUnsettledSeconds",
                        status.oldestUnsettled().map(age -> age.toSeconds()).orElse(0L));
                journalDetails.put("compensationsPending", status.compensationsPending());
                // Still retried; a health check that failed for them would restart instances that cannot help.
                journalDetails.put("compensationsFailing", status.compensationsFailing());
                // Steps this instance did not take because its work was another's: it was paused or cut off.
                journalDetails.put("fenced", status.fenced());
                if (!status.failing().isEmpty()) {
                    journalDetails.put("failing", status.failing());
                }
            } catch (RuntimeException e) {
                journalDetails.put("error", "cannot read the journal: " + e.getMessage());
            }
            details.put("journal", journalDetails);
        };
    }

    /**
     * When the application's Flyway runs at start-up (a {@code Flyway} bean), it applies the journal's migrations (a
     * history table of their own) and the journal creates no table itself.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.flywaydb.core.Flyway")
    static class FlywaySchema {

        @Bean
        @Order(1)
        JournalSchema boundedUploadJournalFlyway(ObjectProvider<org.flywaydb.core.Flyway> flyway) {
            return MigrationTools.flyway(flyway);
        }
    }

    /**
     * When the application's Liquibase runs at start-up (a {@code SpringLiquibase} bean), and its Flyway does not,
     * Liquibase applies the journal's changelog and the journal creates no table itself.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "liquibase.integration.spring.SpringLiquibase")
    static class LiquibaseSchema {

        @Bean
        @Order(2)
        JournalSchema boundedUploadJournalLiquibase(
                ObjectProvider<liquibase.integration.spring.SpringLiquibase> liquibase) {
            return MigrationTools.liquibase(liquibase);
        }
    }

    /** The journal's meters, bound by Spring Boot's metrics support like every {@code MeterBinder} bean. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
    static class Meters {

        @Bean
        JournalMeters boundedUploadJournalMeters(JdbcUploadJournal journal, ObjectProvider<DeferredUploads> deferred,
                ObjectProvider<JdbcGrantStore> grants) {
            JournalMeters meters = new JournalMeters(journal);
            DeferredUploads uploads = deferred.getIfUnique();
            if (uploads != null) {
                meters = meters.withDeferred(uploads);
            }
            JdbcGrantStore store = grants.getIfUnique();
            return store == null ? meters : meters.withGrants(store);
        }
    }
}
