package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.spi.BatchEvent;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fleet's first deploy: several instances start at the same moment on an empty PostgreSQL, each creating the
 * journal's tables. Regression test of "duplicate key value violates unique constraint pg_type_typname_nsp_index"
 * (two {@code CREATE TABLE IF NOT EXISTS} at once), which failed 2 of 4 fleet starts: now every instance starts.
 */
class FleetStartIT {

    private static final int INSTANCES = 6;
    private static final int DEPLOYS = 5;

    @TempDir
    Path root;

    @Test
    void severalJournalsStartingAtOnceOnAnEmptyPostgresqlAllStart() throws Exception {
        for (int deploy = 0; deploy < DEPLOYS; deploy++) {
            DataSource database = Postgres.dataSource(Postgres.newDatabase("fleet"));
            String prefix = "deploy-" + deploy + "-instance-";
            LocalFileUploader storage = new LocalFileUploader(root);
            List<JdbcUploadJournal> started = AtOnce.start(INSTANCES, i -> JdbcUploadJournal.builder(database, storage)
                    .instanceName(prefix + i).createTables(true).build());
            try {
                assertThat(started).hasSize(INSTANCES);
                started.get(0).begin(new BatchEvent("fleet", 1, 1), List.of("fleet/" + deploy), Duration.ofMinutes(1))
                        .settled(true);
                assertThat(tables(database)).containsExactlyInAnyOrder("bounded_upload_batch", "bounded_upload_key",
                        "bounded_upload_task", "bounded_upload_deferred");
            } finally {
                started.forEach(JdbcUploadJournal::close);
            }
        }
    }

    private static List<String> tables(DataSource database) throws Exception {
        List<String> names = new ArrayList<>();
        try (Connection c = database.getConnection(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT tablename FROM pg_tables WHERE tablename LIKE 'bounded_upload_%'")) {
            while (r.next()) {
                names.add(r.getString(1));
            }
        }
        return names;
    }
}
