package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.jdbc.JournalMigrations;
import liquibase.integration.spring.SpringLiquibase;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * The journal's schema applied by the migration tool the application has, instead of by the journal itself: its Flyway
 * migrations (with a history table of their own, so that their versions never mix with the application's), or its
 * Liquibase changelog. Each method is called only from a configuration that requires its tool on the class path.
 * Changes when the way migration tools apply the journal's schema changes.
 */
final class MigrationTools {

    private MigrationTools() {
    }

    static JournalSchema flyway() {
        return dataSource -> {
            try {
                Flyway.configure(MigrationTools.class.getClassLoader()).dataSource(dataSource)
                        .locations(JournalMigrations.flywayLocation(dataSource))
                        .table(JournalMigrations.FLYWAY_HISTORY_TABLE)
                        // The application's tables are there already: the journal's history starts at version 0.
                        .baselineOnMigrate(true).baselineVersion("0").load().migrate();
            } catch (FlywayException e) {
                throw new UploaderSetupException("Flyway could not apply the upload journal's migrations: "
                        + e.getMessage(), "Add Flyway's module for your database (flyway-database-postgresql,"
                        + " flyway-mysql), or set bounded-upload.journal.create-tables=false and apply "
                        + JournalMigrations.flywayLocation(dataSource) + " yourself.", e);
            }
            return "Flyway (history table " + JournalMigrations.FLYWAY_HISTORY_TABLE + ")";
        };
    }

    static JournalSchema liquibase() {
        return dataSource -> {
            SpringLiquibase liquibase = new SpringLiquibase();
            liquibase.setDataSource(dataSource);
            liquibase.setChangeLog("classpath:" + JournalMigrations.LIQUIBASE_CHANGELOG);
            liquibase.setResourceLoader(new DefaultResourceLoader(MigrationTools.class.getClassLoader()));
            try {
                liquibase.afterPropertiesSet();
            } catch (Exception e) {
                throw new UploaderSetupException("Liquibase could not apply the upload journal's changelog: "
                        + e.getMessage(), "Set bounded-upload.journal.create-tables=false and include "
                        + JournalMigrations.LIQUIBASE_CHANGELOG + " in your own changelog.", e);
            }
            return "Liquibase (" + JournalMigrations.LIQUIBASE_CHANGELOG + ")";
        };
    }
}
