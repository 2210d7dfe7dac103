package io.github.boundedupload.jdbc.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The journal's SQL, one method per statement, on a connection the caller owns (and commits). Portable across
 * PostgreSQL, MySQL and H2: plain statements, times as epoch milliseconds. Changes when the journal's tables change.
 */
public final class Store {

    /** Running, or waiting for the caller's commit, until its lease ends. */
    public static final String OPEN = "OPEN";
    /** Claimed by recovery: a compensation task removes its keys. */
    public static final String COMPENSATING = "COMPENSATING";

    /** How long a statement may wait for a row lock held by the caller's open transaction, in seconds. */
    private static final int LOCK_WAIT_SECONDS = 10;
    /** How long a compensation waits for a key another run of it holds (a paused instance), in seconds. */
    private static final int KEY_LOCK_WAIT_SECONDS = 2;
    private static final int MAX_FAILURE_TEXT = 1000;

    private Store() {
    }

    /** One row per unsettled batch state: how many, the oldest, how many failing. */
    public record StateCount(String state, long batches, long oldestCreatedAt, long failing) {
    }

    /** A compensation that has failed {@code tries} times. */
    public record Failing(String batchId, String uploader, int tries, String lastFailure) {
    }

    /**
     * Inserts a batch; {@code session} is the session of the instance that runs it ({@link Liveness}), or null for a
     * batch no live instance runs (it is claimed at once).
     */
    public static void insertBatch(Connection c, String id, String uploader, String owner, @Nullable String session,
            String state, long createdAt, long leaseUntil) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO bounded_upload_batch (id, uploader, owner,"
                + " session_id, state, created_at, lease_until, tries) VALUES (?, ?, ?, ?, ?, ?, ?, 0)")) {
            s.setString(1, id);
            s.setString(2, uploader);
            s.setString(3, owner);
            s.setString(4, session);
            s.setString(5, state);
            s.setLong(6, createdAt);
            s.setLong(7, leaseUntil);
            s.executeUpdate();
        }
    }

    public static void insertKeys(Connection c, String batchId, List<String> keys) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO bounded_upload_key (key_hash, batch_id, object_key)"
                + " VALUES (?, ?, ?)")) {
            for (String key : keys) {
                s.setString(1, hash(key));
                s.setString(2, batchId);
                s.setString(3, key);
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    /** Whether the batch is there (in any state). */
    public static boolean exists(Connection c, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM bounded_upload_batch WHERE id = ?")) {
            s.setString(1, id);
            try (ResultSet r = s.executeQuery()) {
                return r.next();
            }
        }
    }

    /** The batch that holds {@code key}, or null when no unsettled batch does. */
    public static @Nullable String holderOf(Connection c, String key) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT batch_id FROM bounded_upload_key WHERE key_hash = ?")) {
            s.setString(1, hash(key));
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? r.getString(1) : null;
            }
        }
    }

    /** The first of {@code keys} another unsettled batch holds, if any. */
    public static Optional<String> heldKey(Connection c, List<String> keys) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM bounded_upload_key WHERE key_hash = ?")) {
            for (String key : keys) {
                s.setString(1, hash(key));
                try (ResultSet rows = s.executeQuery()) {
                    if (rows.next()) {
                        return Optional.of(key);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Moves keys from one batch to another: only those {@code fromBatch} still holds, never a key another batch holds
     * now (the batch may have been taken over, its keys removed and given to another).
     */
    public static void moveKeys(Connection c, List<String> keys, String fromBatch, String toBatch)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE bounded_upload_key SET batch_id = ? WHERE key_hash = ?"
                + " AND batch_id = ?")) {
            for (String key : keys) {
                s.setString(1, toBatch);
                s.setString(2, hash(key));
                s.setString(3, fromBatch);
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    /**
     * Locks a key for the rest of {@code c}'s transaction if {@code batchId} holds it: true then, false when the batch
     * no longer holds it. A compensation deletes a key only while it holds this lock, so that no other run of it, and
     * no new batch, can act on the key meanwhile, however long this process is paused in between. Waits for another
     * holder at most {@value #KEY_LOCK_WAIT_SECONDS} s, then fails ({@link #isLockWait}).
     */
    public static boolean lockKey(Connection c, String key, String batchId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT batch_id FROM bounded_upload_key WHERE key_hash = ?"
                + " AND batch_id = ? FOR UPDATE")) {
            s.setQueryTimeout(KEY_LOCK_WAIT_SECONDS);
            s.setString(1, hash(key));
            s.setString(2, batchId);
            try (ResultSet r = s.executeQuery()) {
                return r.next();
            }
        }
    }

    /** Whether the failure is a statement that waited too long for a lock. */
    public static boolean isLockWait(@Nullable Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLTimeoutException) {
                return true;
            }
            if (t instanceof SQLException) {
                SQLException e = (SQLException) t;
                String state = e.getSQLState();
                if ("57014".equals(state) || "55P03".equals(state) || "HYT00".equals(state)
                        || e.getErrorCode() == 1205) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Forgets an open batch (its keys go with it): 1 when it was open, 0 when recovery has claimed it (or it is gone).
     * Waits for a lock the caller's transaction holds at most {@value #LOCK_WAIT_SECONDS} s.
     */
    public static int forgetOpen(Connection c, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM bounded_upload_batch WHERE id = ? AND state = ?")) {
            s.setQueryTimeout(LOCK_WAIT_SECONDS);
            s.setString(1, id);
            s.setString(2, OPEN);
            return s.executeUpdate();
        }
    }

    /** Deletes a batch whatever its state (its keys go with it): 1 when it was there. */
    public static int delete(Connection c, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM bounded_upload_batch WHERE id = ?")) {
            s.setString(1, id);
            return s.executeUpdate();
        }
    }

    /**
     * Claims an open batch for compensation: 1 when this call did. Waits for a lock the caller's transaction holds at
     * most {@value #LOCK_WAIT_SECONDS} s (then fails, and the batch is claimed on a later pass).
     */
    public static int claim(Connection c, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE bounded_upload_batch SET state = ? WHERE id = ?"
                + " AND state = ?")) {
            s.setQueryTimeout(LOCK_WAIT_SECONDS);
            s.setString(1, COMPENSATING);
            s.setString(2, id);
            s.setString(3, OPEN);
            return s.executeUpdate();
        }
    }

    /** Open batches whose lease ended before {@code now}, oldest first, at most {@code limit}. */
    public static List<String> expired(Connection c, long now, int limit) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT id FROM bounded_upload_batch WHERE state = ?"
                + " AND lease_until < ? ORDER BY lease_until")) {
            s.setMaxRows(limit);
            s.setString(1, OPEN);
            s.setLong(2, now);
            List<String> ids = new ArrayList<>();
            try (ResultSet rows = s.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
            return ids;
        }
    }

    /**
     * Open batches whose session is no longer alive (declared dead, or ended), oldest lease first, at most
     * {@code limit}. Batches of instances older than the journal's version 2 have no session: their lease decides.
     */
    public static List<String> ofDeadSessions(Connection c, int limit) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT b.id FROM bounded_upload_batch b WHERE b.state = ?"
                + " AND b.session_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM bounded_upload_instance i"
                + " WHERE i.session_id = b.session_id) ORDER BY b.lease_until")) {
            s.setMaxRows(limit);
            s.setString(1, OPEN);
            List<String> ids = new ArrayList<>();
            try (ResultSet rows = s.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
            return ids;
        }
    }

    /**
     * The open batches that hold any of {@code keys} and that no live instance runs any more: batches of a session
     * that is no longer alive, or (from instances older than the journal's version 2, which have no session) of the
     * instance {@code owner}, which died.
     */
    public static List<String> openBatchesHolding(Connection c, String owner, List<String> keys) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT b.id FROM bounded_upload_key k JOIN bounded_upload_batch b"
                + " ON b.id = k.batch_id WHERE k.key_hash = ? AND b.state = ? AND (b.session_id IS NULL AND b.owner = ?"
                + " OR b.session_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM bounded_upload_instance i"
                + " WHERE i.session_id = b.session_id))")) {
            for (String key : keys) {
                s.setString(1, hash(key));
                s.setString(2, OPEN);
                s.setString(3, owner);
                try (ResultSet rows = s.executeQuery()) {
                    while (rows.next()) {
                        if (!ids.contains(rows.getString(1))) {
                            ids.add(rows.getString(1));
                        }
                    }
                }
            }
        }
        return ids;
    }

    /** The keys of a batch, or empty when the batch is gone. */
    public static Optional<List<String>> keysOf(Connection c, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM bounded_upload_batch WHERE id = ?")) {
            s.setString(1, id);
            try (ResultSet rows = s.executeQuery()) {
                if (!rows.next()) {
                    return Optional.empty();
                }
            }
        }
        try (PreparedStatement s = c.prepareStatement("SELECT object_key FROM bounded_upload_key WHERE batch_id = ?")) {
            s.setString(1, id);
            List<String> keys = new ArrayList<>();
            try (ResultSet rows = s.executeQuery()) {
                while (rows.next()) {
                    keys.add(rows.getString(1));
                }
            }
            return Optional.of(keys);
        }
    }

    /** Records a failed try of a compensation. */
    public static void failed(Connection c, String id, int tries, String failure) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE bounded_upload_batch SET tries = ?, last_failure = ?"
                + " WHERE id = ?")) {
            s.setInt(1, tries);
            s.setString(2, failure.length() > MAX_FAILURE_TEXT ? failure.substring(0, MAX_FAILURE_TEXT) : failure);
            s.setString(3, id);
            s.executeUpdate();
        }
    }

    /** Unsettled batches by state. */
    public static List<StateCount> counts(Connection c, int failingAfter) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT state, COUNT(*), MIN(created_at),"
                + " SUM(CASE WHEN tries >= ? THEN 1 ELSE 0 END) FROM bounded_upload_batch GROUP BY state")) {
            s.setInt(1, failingAfter);
            List<StateCount> counts = new ArrayList<>();
            try (ResultSet rows = s.executeQuery()) {
                while (rows.next()) {
                    counts.add(new StateCount(rows.getString(1), rows.getLong(2), rows.getLong(3), rows.getLong(4)));
                }
            }
            return counts;
        }
    }

    /** Compensations that failed at least {@code failingAfter} times, most tries first, at most {@code limit}. */
    public static List<Failing> failing(Connection c, int failingAfter, int limit) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT id, uploader, tries, last_failure FROM"
                + " bounded_upload_batch WHERE tries >= ? ORDER BY tries DESC")) {
            s.setMaxRows(limit);
            s.setInt(1, failingAfter);
            List<Failing> failing = new ArrayList<>();
            try (ResultSet rows = s.executeQuery()) {
                while (rows.next()) {
                    String last = rows.getString(4);
                    failing.add(new Failing(rows.getString(1), rows.getString(2), rows.getInt(3),
                            last == null ? "" : last));
                }
            }
            return failing;
        }
    }

    /** Whether the failure is a unique-key violation (SQLState class 23, integrity constraint). */
    public static boolean isDuplicate(SQLException e) {
        for (SQLException next = e; next != null; next = next.getNextException()) {
            String state = next.getSQLState();
            if (state != null && state.startsWith("23")) {
                return true;
            }
        }
        return false;
    }

    static String hash(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
