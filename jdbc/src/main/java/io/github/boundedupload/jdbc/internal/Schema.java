package io.github.boundedupload.jdbc.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The journal's tables: which script fits a database, and running it. Changes when the journal supports another
 * database.
 */
public final class Schema {

    /** The databases the journal has scripts for. */
    public enum Database {
        POSTGRESQL, MYSQL, H2;

        /** The script's resource, beside {@code JdbcUploadJournal}. */
        public String script() {
            return "schema-" + name().toLowerCase(Locale.ROOT) + ".sql";
        }
    }

    private Schema() {
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
        throw new SQLException("the journal has schema scripts for PostgreSQL, MySQL and H2, not for "
                + c.getMetaData().getDatabaseProductName() + "; create its tables by hand from one of them");
    }

    /** Creates the tables that do not exist yet, in one transaction where the database allows it. */
    public static void create(Connection c, Class<?> owner) throws SQLException {
        Database database = detect(c);
        List<String> statements = statements(read(owner, database.script()));
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
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
