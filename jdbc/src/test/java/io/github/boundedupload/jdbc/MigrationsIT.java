package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.direct.DirectUploads;
import io.github.boundedupload.direct.FileToUpload;
import io.github.boundedupload.direct.UploadGrant;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.testsupport.TestData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import liquibase.Contexts;
import liquibase.Liquibase;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal's schema as an application that owns its schema applies it, on a real PostgreSQL: the Flyway
 * migrations (with a history table of their own, beside an application's tables and migrations) and the Liquibase
 * changelog; then the journal runs on those tables without creating any itself: a kept batch, a batch nobody keeps
 * (removed by its compensation) and a deferred upload.
 */
class MigrationsIT {

    @TempDir
    Path root;

    @Test
    void theFlywayMigrationsMakeTablesTheJournalRunsOn() throws Exception {
        DataSource database = Postgres.dataSource(Postgres.newDatabase("flyway"));
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            // An application's own table (and so a schema that is not empty): the journal's history stays apart.
            s.execute("CREATE TABLE product (id SERIAL PRIMARY KEY, image_key VARCHAR(1024))");
        }
        assertThat(JournalMigrations.flywayLocation(database))
                .isEqualTo("classpath:io/github/boundedupload/jdbc/flyway/postgresql");
        Flyway flyway = Flyway.configure().dataSource(database).locations(JournalMigrations.flywayLocation(database))
                .table(JournalMigrations.FLYWAY_HISTORY_TABLE).baselineOnMigrate(true).baselineVersion("0").load();
        MigrateResult first = flyway.migrate();
        assertThat(first.migrationsExecuted).isEqualTo(4);
        assertThat(first.targetSchemaVersion).isEqualTo("4");
        assertThat(flyway.migrate().migrationsExecuted).as("applied again").isZero();
        flyway.validate();

        runsOn(database, root);
    }

    @Test
    void theLiquibaseChangelogMakesTablesTheJournalRunsOn() throws Exception {
        DataSource database = Postgres.dataSource(Postgres.newDatabase("liquibase"));
        applyChangelog(database);
        runsOn(database, root);
    }

    /**
     * A fleet in the middle of a rolling upgrade: instances of the journal's version 1 and of a later one on one
     * database. The schema is migrated from version 1 to the last version while a version-1 instance has a batch open
     * (written as version 1 writes it: without a session), and that instance dies. The later instances do not take that
     * batch for one of a dead session (version 1 sends no heartbeats): it is removed when its lease ends, as version 1
     * promised; and they run on the migrated tables.
     */
    @Test
    void aFleetInTheMiddleOfARollingUpgradeKeepsWorking() throws Exception {
        DataSource database = Postgres.dataSource(Postgres.newDatabase("upgrade"));
        Flyway.configure().dataSource(database).locations(JournalMigrations.flywayLocation(database))
                .table(JournalMigrations.FLYWAY_HISTORY_TABLE).target("1").load().migrate();
        String key = "old/left-by-version-1.txt";
        LocalFileUploader storage = new LocalFileUploader(root);
        storage.upload(UploadRequest.of(key, Attachment.of("left.txt", bytes("left"))));
        long leaseUntil = System.currentTimeMillis() + 4_000;
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO bounded_upload_batch (id, uploader, owner, state, created_at, lease_until,"
                    + " tries) VALUES ('version-1-batch', 'app', 'old-instance', 'OPEN', " + System.currentTimeMillis()
                    + ", " + leaseUntil + ", 0)");
            s.executeUpdate("INSERT INTO bounded_upload_key (key_hash, batch_id, object_key) VALUES ('"
                    + TestData.sha256(key.getBytes(StandardCharsets.UTF_8)) + "', 'version-1-batch', '" + key + "')");
        }
        assertThat(Flyway.configure().dataSource(database).locations(JournalMigrations.flywayLocation(database))
                .table(JournalMigrations.FLYWAY_HISTORY_TABLE).load().migrate().migrationsExecuted).isEqualTo(3);

        try (JdbcUploadJournal journal = JdbcUploadJournal.builder(database, storage).instanceName("version-2")
                .createTables(false).pollingInterval(Duration.ofMillis(100)).heartbeatInterval(Duration.ofMillis(100))
                .livenessTimeout(Duration.ofMillis(300)).build()) {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                    .until(() -> !Files.exists(root.resolve(key)));
            assertThat(System.currentTimeMillis()).as("removed once its lease ended, not before")
                    .isGreaterThanOrEqualTo(leaseUntil);
        }
        runsOn(database, root);
    }

    static void applyChangelog(DataSource database) throws Exception {
        for (int run = 0; run < 2; run++) { // the second finds every change set applied
            try (Connection c = database.getConnection()) {
                @SuppressWarnings("deprecation")
                Liquibase liquibase = new Liquibase(JournalMigrations.LIQUIBASE_CHANGELOG, new ClassLoaderResourceAccessor(),
                        DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(c)));
                liquibase.update(new Contexts());
            }
        }
    }

    /**
     * The journal, on tables it did not create: the last version's column is there, then a kept batch, a batch nobody
     * keeps, a deferred upload, a grant of a direct upload confirmed twice.
     */
    static void runsOn(DataSource database, Path root) throws Exception {
        hasVersion4(database);
        LocalFileUploader storage = new LocalFileUploader(root);
        try (JdbcUploadJournal journal = JdbcUploadJournal.builder(database, storage).instanceName("migrated")
                .createTables(false).keepMargin(Duration.ZERO).pollingInterval(Duration.ofMillis(200)).build();
                ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                        UploaderConfig.builder().journal(journal).build())) {
            String kept = uploader.uploadAll(List.of(Attachment.of("kept.txt", bytes("kept")))).storedObjects()
                    .get(0).key();

            String left = "left/by-a-dead-batch.txt";
            journal.begin(new BatchEvent("app", 2, 1), List.of(left), Duration.ofMillis(1));
            storage.upload(UploadRequest.of(left, Attachment.of("left.txt", bytes("left"))));

            DeferredUploads deferred = DeferredUploads.builder(journal, uploader).build();
            DeferredBatch later = deferred.submit(List.of(Attachment.of("later.txt", bytes("later"))));

            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
                assertThat(root.resolve(left)).doesNotExist();
                assertThat(deferred.attachments(later.id())).singleElement()
                        .extracting(DeferredAttachment::state).isEqualTo(DeferredAttachment.State.STORED);
                assertThat(journal.status().unsettledBatches()).isZero();
            });
            assertThat(Files.readString(root.resolve(kept))).isEqualTo("kept");
            assertThat(Files.readString(root.resolve(later.keys().get(0)))).isEqualTo("later");

            DirectUploads direct = DirectUploads.builder(uploader, JdbcGrantStoreTest.SIGNER)
                    .grants(JdbcGrantStore.of(journal)).build();
            UploadGrant grant = direct.grant("caller", List.of(new FileToUpload("granted.txt", 7, "text/plain",
                    "CRC32", "65ElPQ=="))).get(0);
            Path staged = storage.resolve(grant.stagingKey());
            Files.createDirectories(staged.getParent());
            Files.writeString(staged, "granted");
            String confirmed = direct.confirm("caller", List.of(grant.id())).storedObjects().get(0).key();
            assertThat(direct.confirm("caller", List.of(grant.id())).storedObjects().get(0).key()).isEqualTo(confirmed);
            assertThat(Files.readString(root.resolve(confirmed))).isEqualTo("granted");
        }
    }

    /** Version 4's column: {@code bounded_upload_grant.upload_id}, a nullable VARCHAR(1024). */
    static void hasVersion4(DataSource database) throws SQLException {
        try (Connection c = database.getConnection()) {
            DatabaseMetaData meta = c.getMetaData();
            boolean upper = meta.storesUpperCaseIdentifiers(); // H2
            try (ResultSet column = meta.getColumns(c.getCatalog(), null,
                    upper ? "BOUNDED_UPLOAD_GRANT" : "bounded_upload_grant", upper ? "UPLOAD_ID" : "upload_id")) {
                assertThat(column.next()).as("bounded_upload_grant.upload_id exists").isTrue();
                assertThat(column.getInt("DATA_TYPE")).as("its type").isEqualTo(Types.VARCHAR);
                assertThat(column.getInt("COLUMN_SIZE")).as("its length").isEqualTo(1024);
                assertThat(column.getInt("NULLABLE")).as("nullable").isEqualTo(DatabaseMetaData.columnNullable);
                assertThat(column.next()).as("one such column").isFalse();
            }
            try (ResultSet column = meta.getColumns(c.getCatalog(), null,
                    upper ? "BOUNDED_UPLOAD_GRANT" : "bounded_upload_grant", upper ? "BY_FORM" : "by_form")) {
                assertThat(column.next()).as("bounded_upload_grant.by_form exists").isTrue();
                assertThat(column.getInt("DATA_TYPE")).as("its type").isEqualTo(Types.SMALLINT);
                assertThat(column.getInt("NULLABLE")).as("nullable").isEqualTo(DatabaseMetaData.columnNullable);
            }
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
