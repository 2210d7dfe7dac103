package io.github.boundedupload.jdbc.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The journal's tables: which migrations fit a database, and running them when the journal is asked to create its
 * tables itself (applications on Flyway or Liquibase apply the same files with those). Several instances starting at
 * once on an empty database all get the tables: the statements run under a database lock, one instance after another.
 * Changes when the journal supports another database or its schema gets a new version.
 */
public final class Schema {

    /** The Flyway migrations of every database, in order; the Liquibase changelog runs the same files. */
    public static final List<String> MIGRATIONS = List.of("V1__bounded_upload_journal.sql",
            "V2__bounded_upload_liveness.sql", "V3__bounded_upload_grant.sql", "V4__bounded_upload_grant_kinds.sql");
    /**
     * MySQL's "duplicate column name" and "duplicate key name": a column or index of version 2 or 4 is there already
     * (MySQL 8 has neither ADD COLUMN IF NOT EXISTS nor CREATE INDEX IF NOT EXISTS).
     */
    private static final int MYSQL_DUPLICATE_COLUMN = 1060;
    private static final int MYSQL_DUPLICATE_INDEX = 1061;

    /** PostgreSQL's advisory lock key for creating the tables (any constant unlikely to be an application's). */
    private static final long POSTGRESQL_LOCK = 0x626f756e64656455L; // "boundedU"
    private static final String MYSQL_LOCK = "bounded_upload_schema";
    private static final int MYSQL_LOCK_WAIT_SECONDS = 60;

    /** The databases the journal has migrations for. */
    public enum Database {
        POSTGRESQL, MYSQL, H2;

        /** The directory of its Flyway migrations, beside {@code JdbcUploadJournal}. */
        public String migrations() {
            return "flyway/" + name().toLowerCase(Locale.ROOT);
        }

        /**
         * The database's own clock now, in epoch milliseconds, as SQL: liveness is judged by one clock, the database's,
         * whatever the instances' clocks say.
         */
        public String nowMillis() {
            return switch (this) {
                case POSTGRESQL -> "CAST(EXTRACT(EPOCH FROM CLOCK_TIMESTAMP()) * 1000 AS BIGINT)";
                case MYSQL -> "CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)";
                case H2 -> "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT)";
            };
        }

        /** How it is named in messages. */
        public String displayName() {
            return this == POSTGRESQL ? "PostgreSQL" : this == MYSQL ? "MySQL/MariaDB" : "H2";
        }
    }

    /**
     * What each version of the schema adds that a journal of this version reads, and a query that fails without it:
     * the tables of versions 1 to 3, the columns of version 4.
     */
    private static final Map<String, String> PROBES = probes();

    private static Map<String, String> probes() {
        Map<String, String> probes = new LinkedHashMap<>();
        for (String table : List.of("bounded_upload_batch", "bounded_upload_key", "bounded_upload_task",
                "bounded_upload_deferred", "bounded_upload_instance", "bounded_upload_grant",
                "bounded_upload_grant_caller")) {
            probes.put(table, "SELECT * FROM " + table + " WHERE 1 = 0");
        }
        probes.put("bounded_upload_grant.upload_id and by_form (version 4)",
                "SELECT upload_id, by_form FROM bounded_upload_grant WHERE 1 = 0");
        return probes;
    }

    private Schema() {
    }

    /**
     * What of the journal's schema the database lacks: the tables (and columns) the journal reads that a query cannot
     * find, in the order of the migrations; empty when the schema is complete.
     */
    public static List<String> missing(Connection c) throws SQLException {
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, String> probe : PROBES.entrySet()) {
            try (Statement s = c.createStatement()) {
                s.executeQuery(probe.getValue()).close();
            } catch (SQLException e) {
                missing.add(probe.getKey());
                if (!c.getAutoCommit()) {
                    c.rollback(); // PostgreSQL takes no statement after a failed one in a transaction
                }
            }
        }
        return missing;
    }

    /** The database behind a connection. */
    public static Database detect(Connection c) throws SQLException {
        String product = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
        if (product.contains("postgres")) {
            return Database.POSTGRESQL;
        }
        if (product.contains("mysql") || product.contains("mariadb")) {
            return Database.MYSQL;
        }
        if (product.contains("h2")) {
            return Database.H2;
        }
        throw new SQLException("the journal has migrations for PostgreSQL, MySQL/MariaDB and H2, not for "
                + c.getMetaData().getDatabaseProductName() + "; create its tables by hand from one of them");
    }

    /**
     * Creates the tables that do not exist yet, in one transaction where the database allows it, holding a lock of
     * the database meanwhile: PostgreSQL's {@code CREATE TABLE IF NOT EXISTS} is not safe against itself (two at once
     * fail on {@code pg_type_typname_nsp_index}), so instances starting together take turns.
     */
    public static void create(Connection c, Class<?> owner) throws SQLException {
        Database database = detect(c);
        List<String> statements = new ArrayList<>();
        for (String migration : MIGRATIONS) {
            statements.addAll(statements(read(owner, database.migrations() + "/" + migration)));
        }
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            if (database == Database.POSTGRESQL) {
                s.execute("SELECT pg_advisory_xact_lock(" + POSTGRESQL_LOCK + ")"); // released by the commit
            } else if (database == Database.MYSQL) {
                lockMysql(s); // MySQL commits each DDL statement: a session lock, released below
            }
            try {
                for (String sql : statements) {
                    execute(s, sql, database);
                }
                c.commit();
            } finally {
                if (database == Database.MYSQL) {
                    s.execute("DO RELEASE_LOCK('" + MYSQL_LOCK + "')");
                }
            }
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    private static void execute(Statement s, String sql, Database database) throws SQLException {
        try {
            s.execute(sql);
        } catch (SQLException e) {
            if (database != Database.MYSQL || e.getErrorCode() != MYSQL_DUPLICATE_COLUMN
                    && e.getErrorCode() != MYSQL_DUPLICATE_INDEX) {
                throw e;
            }
        }
    }

    private static void lockMysql(Statement s) throws SQLException {
        try (var r = s.executeQuery("SELECT GET_LOCK('" + MYSQL_LOCK + "', " + MYSQL_LOCK_WAIT_SECONDS + ")")) {
            if (!r.next() || r.getInt(1) != 1) {
                throw new SQLException("another instance held the lock '" + MYSQL_LOCK + "' for "
                        + MYSQL_LOCK_WAIT_SECONDS + " s while creating the tables");
            }
        }
    }

    private static String read(Class<?> owner, String name) {
        try (InputStream in = Objects.requireNonNull(owner.getResourceAsStream(name), name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The script's statements: comment lines dropped, split at semicolons that end a line. */
    static List<String> statements(String script) {
        StringBuilder text = new StringBuilder();
        for (String line : script.split("\n", -1)) {
            if (!line.strip().startsWith("--")) {
                text.append(line).append('\n');
            }
        }
        List<String> statements = new ArrayList<>();
        for (String statement : text.toString().split(";\\s*\n")) {
            if (!statement.isBlank()) {
                statements.add(statement.strip());
            }
        }
        return statements;
    }
}
