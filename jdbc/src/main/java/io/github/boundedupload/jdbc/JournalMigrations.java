package io.github.boundedupload.jdbc;

import io.github.boundedupload.UploadException;
import io.github.boundedupload.jdbc.internal.Schema;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * The journal's tables as migrations for the application's own tool, instead of the journal creating them
 * ({@link JdbcUploadJournal.Builder#createTables(boolean)}): Flyway migrations per database, with a history table of
 * their own, and a Liquibase changelog over the same SQL. Changes when where the journal's migrations live changes.
 */
public final class JournalMigrations {

    /**
     * The Liquibase changelog of the journal's tables, for every database it supports, on the class path; include it
     * in the application's changelog ({@code <include file="io/github/boundedupload/jdbc/liquibase/..."/>}).
     */
    public static final String LIQUIBASE_CHANGELOG = "io/github/boundedupload/jdbc/liquibase/bounded-upload-journal.xml";
    /**
     * The Flyway history table of the journal's migrations: apart from the application's own, so that the journal's
     * versions never mix with the application's.
     */
    public static final String FLYWAY_HISTORY_TABLE = "bounded_upload_schema_history";

    /**
     * The Flyway location of the journal's migrations for the database behind {@code dataSource}, such as
     * {@code classpath:io/github/boundedupload/jdbc/flyway/postgresql}; apply them with a history table of their own
     * ({@link #FLYWAY_HISTORY_TABLE}).
     *
     * <pre>{@code
     * Flyway.configure().dataSource(dataSource).locations(JournalMigrations.flywayLocation(dataSource))
     *         .table(JournalMigrations.FLYWAY_HISTORY_TABLE).baselineOnMigrate(true).baselineVersion("0")
     *         .load().migrate();
     * }</pre>
     *
     * @param dataSource the application's database
     * @return the location
     * @throws UploadException when the database cannot be reached, or is none the journal has migrations for
     */
    public static String flywayLocation(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            return "classpath:io/github/boundedupload/jdbc/" + Schema.detect(c).migrations();
        } catch (SQLException e) {
            throw new UploadException("the upload journal could not tell which database it is on: " + e.getMessage(),
                    e);
        }
    }

    /**
     * What of the journal's schema the database behind {@code dataSource} lacks: each table (or, for version 4, the
     * columns) the journal reads and a query cannot find; empty when the schema is complete. A journal built without
     * {@link JdbcUploadJournal.Builder#createTables(boolean)} refuses to start on an incomplete schema, naming them.
     *
     * @param dataSource the application's database
     * @return what is missing, in the order of the migrations
     * @throws UploadException when the database cannot be reached
     */
    public static List<String> missing(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            return Schema.missing(c);
        } catch (SQLException e) {
            throw new UploadException("the upload journal could not read its schema: " + e.getMessage(), e);
        }
    }

    private JournalMigrations() {
    }
}
