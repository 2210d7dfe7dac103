package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.UploadException;
import io.github.boundedupload.jdbc.JournalMigrations;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * How the journal's tables come to exist at start-up ({@code bounded-upload.journal.create-tables}), decided once,
 * before the journal is built: the application's migration tool applies the journal's migrations when that tool runs
 * at start-up (its Flyway, else its Liquibase); else the journal creates them itself when asked to, or, unasked, on an
 * embedded database (Spring Boot's own default for schema initialization); else nothing creates them, and start-up
 * checks that they exist and fails, in one line, naming the three ways to create them. Changes when the rules for the
 * journal's schema at start-up change.
 */
final class JournalTables {

    private static final Log LOG = LogFactory.getLog(JournalTables.class);

    private JournalTables() {
    }

    /**
     * Makes the tables exist, or finds that they do.
     *
     * @param createTables the property: null for Spring Boot's default
     * @param tools the application's migration tools, in order of preference
     * @return whether the journal is to create its tables itself
     * @throws UploaderSetupException when nothing creates them and they are not there
     */
    static boolean prepare(DataSource database, @Nullable Boolean createTables, List<JournalSchema> tools) {
        if (!Boolean.FALSE.equals(createTables)) {
            for (JournalSchema tool : tools) {
                String appliedBy = tool.apply(database);
                if (appliedBy != null) {
                    LOG.info("bounded-upload: the upload journal's tables are made by " + appliedBy);
                    requireTables(database, "after " + appliedBy + " applied the journal's migrations");
                    return false;
                }
            }
        }
        if (Boolean.TRUE.equals(createTables) || createTables == null && embedded(database)) {
            return true;
        }
        requireTables(database, createTables == null ? "on a database that is not embedded" : "with "
                + "bounded-upload.journal.create-tables=false");
        return false;
    }

    private static void requireTables(DataSource database, String when) {
        List<String> missing;
        try {
            missing = JournalMigrations.missing(database);
        } catch (UploadException e) {
            throw new UploaderSetupException("The upload journal could not read its database: " + e.getMessage(),
                    "Check spring.datasource.* and that the database is up.", e);
        }
        if (!missing.isEmpty()) {
            throw new UploaderSetupException("The upload journal's tables are missing " + when + ": "
                    + String.join(", ", missing) + ".", "Create them one of three ways: Flyway or Liquibase in the"
                            + " application, running at start-up (the journal's migrations then run with it); the"
                            + " journal's migrations included in your own (" + JournalMigrations.FLYWAY_HISTORY_TABLE
                            + " as their Flyway history table, or the changelog " + JournalMigrations.LIQUIBASE_CHANGELOG
                            + "); or bounded-upload.journal.create-tables=true. See docs/journal.md#tables-and-migrations.");
        }
    }

    /** In memory, as Spring Boot counts embedded databases: H2's {@code jdbc:h2:mem:}, HSQLDB's, Derby's. */
    static boolean embedded(DataSource database) {
        try (Connection c = database.getConnection()) {
            DatabaseMetaData metadata = c.getMetaData();
            String url = String.valueOf(metadata.getURL()).toLowerCase(Locale.ROOT);
            return url.startsWith("jdbc:h2:mem:") || url.startsWith("jdbc:hsqldb:mem:")
                    || url.startsWith("jdbc:derby:memory:");
        } catch (SQLException e) {
            return false; // then the check of the tables says what is wrong
        }
    }
}
