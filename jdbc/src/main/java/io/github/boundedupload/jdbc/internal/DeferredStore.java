package io.github.boundedupload.jdbc.internal;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The SQL of deferred uploads, on a connection the caller owns (and commits), and the text form of the metadata it
 * stages. Changes when the table of deferred uploads changes.
 */
public final class DeferredStore {

    public static final String PENDING = "PENDING";
    public static final String STORED = "STORED";
    public static final String FAILED = "FAILED";
    private static final int MAX_FAILURE_TEXT = 1000;

    private DeferredStore() {
    }

    /** A staged attachment, as inserted and as read back for its upload. */
    public record Row(String batchId, int index, String uploader, String key, String fileName,
            @Nullable String contentType, @Nullable String metadata, long size, byte @Nullable [] content,
            boolean ordered, String state, long deadlineAt, @Nullable String failure) {
    }

    /** What is staged and not stored yet: bytes and attachments. */
    public record Staged(long bytes, long attachments) {
    }

    public static void insert(Connection c, List<Row> rows, long createdAt) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO bounded_upload_deferred (batch_id, idx, uploader,"
                + " object_key, file_name, content_type, metadata, content_size, content, ordered, state, created_at,"
                + " deadline_at, tries) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)")) {
            for (Row row : rows) {
                s.setString(1, row.batchId());
                s.setInt(2, row.index());
                s.setString(3, row.uploader());
                s.setString(4, row.key());
                s.setString(5, row.fileName());
                s.setString(6, row.contentType());
                s.setString(7, row.metadata());
                s.setLong(8, row.size());
                s.setBytes(9, row.content());
                s.setBoolean(10, row.ordered());
                s.setString(11, PENDING);
                s.setLong(12, createdAt);
                s.setLong(13, row.deadlineAt());
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    public static Staged staged(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT COALESCE(SUM(content_size), 0), COUNT(*) FROM"
                + " bounded_upload_deferred WHERE state = ?")) {
            s.setString(1, PENDING);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return new Staged(r.getLong(1), r.getLong(2));
            }
        }
    }

    /** The uploader of a batch, if it has attachments. */
    public static Optional<String> uploaderOf(Connection c, String batchId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT uploader FROM bounded_upload_deferred WHERE batch_id = ?"
                + " AND idx = 0")) {
            s.setString(1, batchId);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(r.getString(1)) : Optional.empty();
            }
        }
    }

    /** The rows of a batch in index order; with {@code pendingOnly}, their content too. */
    public static List<Row> rows(Connection c, String batchId, boolean pendingOnly) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT idx, uploader, object_key, file_name, content_type,"
                + " metadata, content_size, " + (pendingOnly ? "content" : "NULL") + ", ordered, state, deadline_at,"
                + " failure FROM bounded_upload_deferred WHERE batch_id = ?" + (pendingOnly ? " AND state = ?" : "")
                + " ORDER BY idx")) {
            s.setString(1, batchId);
            if (pendingOnly) {
                s.setString(2, PENDING);
            }
            List<Row> rows = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    rows.add(new Row(batchId, r.getInt(1), r.getString(2), r.getString(3), r.getString(4),
                            r.getString(5), r.getString(6), r.getLong(7), r.getBytes(8), r.getBoolean(9),
                            r.getString(10), r.getLong(11), r.getString(12)));
                }
            }
            return rows;
        }
    }

    /** The keys of a batch's pending attachments. */
    public static List<String> pendingKeys(Connection c, String batchId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT object_key FROM bounded_upload_deferred WHERE batch_id = ?"
                + " AND state = ?")) {
            s.setString(1, batchId);
            s.setString(2, PENDING);
            List<String> keys = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    keys.add(r.getString(1));
                }
            }
            return keys;
        }
    }

    /** Whether a deferred attachment has been stored under {@code key} (and its outcome is still kept). */
    public static boolean isStored(Connection c, String key) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM bounded_upload_deferred WHERE object_key = ?"
                + " AND state = ?")) {
            s.setString(1, key);
            s.setString(2, STORED);
            try (ResultSet r = s.executeQuery()) {
                return r.next();
            }
        }
    }

    /** The first of {@code keys} a deferred attachment is recorded stored under, if any. */
    public static Optional<String> storedAmong(Connection c, List<String> keys) throws SQLException {
        for (String key : keys) {
            if (isStored(c, key)) {
                return Optional.of(key);
            }
        }
        return Optional.empty();
    }

    /** Ends a pending attachment (its content dropped): 1 when this call did. */
    public static int finish(Connection c, String batchId, int index, String state, @Nullable String failure,
            long now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE bounded_upload_deferred SET state = ?, content = NULL,"
                + " finished_at = ?, failure = ? WHERE batch_id = ? AND idx = ? AND state = ?")) {
            s.setString(1, state);
            s.setLong(2, now);
            s.setString(3, failure == null || failure.length() <= MAX_FAILURE_TEXT ? failure
                    : failure.substring(0, MAX_FAILURE_TEXT));
            s.setString(4, batchId);
            s.setInt(5, index);
            s.setString(6, PENDING);
            return s.executeUpdate();
        }
    }

    /** Counts a failed try on the batch's pending attachments. */
    public static void failedTry(Connection c, String batchId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE bounded_upload_deferred SET tries = tries + 1"
                + " WHERE batch_id = ? AND state = ?")) {
            s.setString(1, batchId);
            s.setString(2, PENDING);
            s.executeUpdate();
        }
    }

    /** Forgets attachments that ended before {@code before}. */
    public static int forgetFinished(Connection c, long before) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM bounded_upload_deferred WHERE state <> ?"
                + " AND finished_at < ?")) {
            s.setString(1, PENDING);
            s.setLong(2, before);
            return s.executeUpdate();
        }
    }

    /** User metadata as one text column: {@code name=value&...}, URL-encoded; {@code null} when there is none. */
    public static @Nullable String encode(Map<String, String> metadata) {
        if (metadata.isEmpty()) {
            return null;
        }
        StringBuilder text = new StringBuilder();
        metadata.forEach((name, value) -> text.append(text.length() == 0 ? "" : "&")
                .append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return text.toString();
    }

    /** The metadata {@link #encode} wrote, in its order. */
    public static Map<String, String> decode(@Nullable String metadata) {
        Map<String, String> entries = new LinkedHashMap<>();
        if (metadata != null) {
            for (String entry : metadata.split("&")) {
                int equals = entry.indexOf('=');
                entries.put(URLDecoder.decode(entry.substring(0, equals), StandardCharsets.UTF_8),
                        URLDecoder.decode(entry.substring(equals + 1), StandardCharsets.UTF_8));
            }
        }
        return entries;
    }
}
