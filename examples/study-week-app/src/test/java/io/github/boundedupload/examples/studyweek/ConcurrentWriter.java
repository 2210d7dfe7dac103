package io.github.boundedupload.examples.studyweek;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import javax.sql.DataSource;

/**
 * Another writer of the database: inserts a week in a transaction of its own and commits it when told. Until then the
 * application does not see the row (read committed), so its duplicate check passes; once the application's own
 * insert comes, the unique constraint refuses it. The race of two requests for the same title, made deterministic.
 */
final class ConcurrentWriter implements AutoCloseable {

    private final Connection connection;

    ConcurrentWriter(DataSource dataSource, long studyId, String title) throws SQLException {
        connection = dataSource.getConnection();
        connection.setAutoCommit(false);
        try (PreparedStatement insert = connection.prepareStatement("insert into study_week"
                + " (study_id, title, content, start_date, end_date, created_at) values (?, ?, ?, ?, ?, ?)")) {
            insert.setLong(1, studyId);
            insert.setString(2, title);
            insert.setString(3, "");
            insert.setObject(4, LocalDate.of(2026, 11, 16));
            insert.setObject(5, LocalDate.of(2026, 11, 22));
            insert.setTimestamp(6, Timestamp.from(Instant.now()));
            insert.executeUpdate();
        }
    }

    void commit() throws SQLException {
        connection.commit();
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
