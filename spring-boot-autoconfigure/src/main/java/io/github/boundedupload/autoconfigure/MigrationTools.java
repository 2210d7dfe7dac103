package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.jdbc.JournalMigrations;
import liquibase.integration.spring.SpringLiquibase;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.configuration.Configuration;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * The journal's schema applied by the migration tool the application runs at start-up, instead of by the journal
 * itself: its Flyway migrations, with the application's Flyway's data source and schemas, right after the application's
 * own (a history table of their own, so that their versions never mix with the application's); or its Liquibase
 * changelog, with the application's changelog tables. A tool the application does not run (none configured, or
 * {@code spring.flyway.enabled=false}) applies nothing. Each method is called only from a configuration that requires
 * its tool on the class path. Changes when the way migration tools apply the journal's schema changes.
 */
final class MigrationTools {

    private MigrationTools() {
    }

    static JournalSchema flyway(ObjectProvider<Flyway> applications) {
        return dataSource -> {
            Flyway application = applications.getIfUnique();
            if (application == null) {
                return null;
            }
            Configuration its = application.getConfiguration();
            DataSource migrated = its.getDataSource() != null ? its.getDataSource() : dataSource;
            try {
                Flyway.configure(MigrationTools.class.getClassLoader()).dataSource(migrated)
                        .defaultSchema(its.getDefaultSchema()).schemas(its.getSchemas())
                        .locations(JournalMigrations.flywayLocation(migrated))
                        .table(JournalMigrations.FLYWAY_HISTORY_TABLE)
                        // The application's tables are there already: the journal's history starts at version 0.
                        .baselineOnMigrate(true).baselineVersion("0").load().migrate();
            } catch (FlywayException e) {
                throw new UploaderSetupException("Flyway could not apply the upload journal's migrations: "
                        + e.getMessage(), "Add Flyway's module for your database (flyway-database-postgresql,"
                        + " flyway-mysql), or set bounded-upload.journal.create-tables=false and apply "
                        + JournalMigrations.flywayLocation(dataSource) + " yourself.", e);
            }
            return "the application's Flyway (history table " + JournalMigrations.FLYWAY_HISTORY_TABLE + ")";
        };
    }

    static JournalSchema liquibase(ObjectProvider<SpringLiquibase> applications) {
        return dataSource -> {
            SpringLiquibase application = applications.getIfUnique();
            if (application == null) {
                return null;
            }
            SpringLiquibase liquibase = new SpringLiquibase();
            // The journal's data source: the application's may be one Spring Boot closed after its run.
            liquibase.setDataSource(dataSource);
            liquibase.setDefaultSchema(application.getDefaultSchema());
            liquibase.setLiquibaseSchema(application.getLiquibaseSchema());
            liquibase.setDatabaseChangeLogTable(application.getDatabaseChangeLogTable());
            liquibase.setDatabaseChangeLogLockTable(application.getDatabaseChangeLogLockTable());
            liquibase.setChangeLog("classpath:" + JournalMigrations.LIQUIBASE_CHANGELOG);
            liquibase.setResourceLoader(new DefaultResourceLoader(MigrationTools.class.getClassLoader()));
            try {
                liquibase.afterPropertiesSet();
            } catch (Exception e) {
                throw new UploaderSetupException("Liquibase could not apply the upload journal's changelog: "
                        + e.getMessage(), "Set bounded-upload.journal.create-tables=false and include "
                        + JournalMigrations.LIQUIBASE_CHANGELOG + " in your own changelog.", e);
            }
            return "the application's Liquibase (" + JournalMigrations.LIQUIBASE_CHANGELOG + ")";
        };
    }
}
