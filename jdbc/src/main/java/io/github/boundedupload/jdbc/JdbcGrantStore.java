package io.github.boundedupload.jdbc;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.direct.FileToUpload;
import io.github.boundedupload.direct.GrantStore;
import io.github.boundedupload.direct.UploadGrant;
import io.github.boundedupload.spi.UploadSigner;
import io.github.boundedupload.jdbc.internal.Schema;
import io.github.boundedupload.jdbc.internal.TaskHost;
import io.github.boundedupload.spi.ListedObject;
import io.github.boundedupload.support.SafeText;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The grants of direct uploads as rows of the journal's database ({@code bounded_upload_grant}, versions 3 and 4 of its
 * schema), so that any instance of a fleet confirms a grant another one made, and a caller's bound holds across the
 * fleet: instances granting to one caller at once take turns on the caller's row of {@code bounded_upload_grant_caller}.
 * Everything is written in the caller's transaction where there is one ({@link CallerTransaction}), as the journal's
 * own records are: a confirm rolled back leaves its grants unconfirmed, and the journal removes its copies. A confirm
 * in a transaction locks its grants' rows until the transaction ends, so that two confirms of one grant at once copy it
 * once.
 *
 * <p>Once a confirm commits, its grants' staging objects are removed: after the commit where the caller's transaction
 * tells it ({@link CallerTransaction#afterCommit}: Spring's does), at once without a caller's transaction.
 *
 * <p><b>Nothing orphaned.</b> Each staging prefix a {@code DirectUploads} serves is reconciled in every run of the
 * journal's recovery (every polling interval, on one instance of the fleet at a time), in slices of 1,000 keys: every
 * object under it written longer ago than the longest lifetime of its signed requests plus {@code longestRequest} (the
 * longest a request started before its signature expired may still be running) is deleted from the journal's storage,
 * and every multipart upload under it started before then and still incomplete is aborted (through the signer),
 * confirmed or not: by then every grant that could cover it has expired, and a confirm must come before. A PUT that
 * lands after its grant expired goes at the next pass. Rows are forgotten a day after their grant expired (a second
 * confirm finds them until then). What it removed is counted ({@link #removedObjects()},
 * {@code bounded.upload.direct.staging.removed} with {@link JournalMeters#withGrants}). Thread-safe. Changes when what a
 * grant records, or how the staging prefix is reconciled, changes.
 *
 * <pre>{@code
 * DirectUploads direct = DirectUploads.builder(uploader, signer).grants(JdbcGrantStore.of(journal)).build();
 * }</pre>
 */
public final class JdbcGrantStore implements GrantStore {

    private static final String COLUMNS = "grant_id, caller, file_name, size_bytes, content_type, checksum_algorithm,"
            + " checksum, staging_key, expires_at, confirmed_key, confirmed_size, confirmed_etag,"
            + " confirmed_checksum_algorithm, confirmed_checksum, confirmed_version, upload_id, by_form";

    /** Default {@code longestRequest}: one hour (5 GB at about 2 MB/s). */
    public static final Duration DEFAULT_LONGEST_REQUEST = Duration.ofHours(1);
    private static final Logger LOG = LoggerFactory.getLogger(JdbcGrantStore.class);
    /** How long a grant's row is kept after it expired, so that a second confirm still finds it. */
    private static final Duration KEPT_AFTER_EXPIRY = Duration.ofDays(1);
    /** Keys listed per prefix and run. */
    private static final int SLICE = 1000;

    private final JdbcUploadJournal journal;
    private final Duration longestRequest;
    /** Each staging prefix served, with the longest lifetime of its signed requests and its signer. */
    private final Map<String, Served> prefixes = new ConcurrentHashMap<>();
    /** Where the next slice of each prefix starts (absent: at its first key). */
    private final Map<String, String> cursors = new ConcurrentHashMap<>();
    private final AtomicBoolean reconciling = new AtomicBoolean();
    private final AtomicLong removed = new AtomicLong();

    private JdbcGrantStore(JdbcUploadJournal journal, Duration longestRequest) {
        this.journal = journal;
        this.longestRequest = longestRequest;
    }

    /**
     * The grants on the journal's database. Its tables are versions 3 and 4 of the journal's schema: created by
     * {@code createTables(true)}, or by the journal's Flyway migrations and Liquibase changelog.
     *
     * @param journal the journal, whose database and caller transaction the grants use
     * @return the store
     */
    public static JdbcGrantStore of(JdbcUploadJournal journal) {
        return of(journal, DEFAULT_LONGEST_REQUEST);
    }

    /**
     * The grants on the journal's database, whose staging objects are reconciled as if a request could run for
     * {@code longestRequest} after its signature expired.
     *
     * @param journal the journal, whose database, caller transaction and storage the grants use
     * @param longestRequest the longest a request started before its signature expired may still be running
     * @return the store
     */
    public static JdbcGrantStore of(JdbcUploadJournal journal, Duration longestRequest) {
        if (longestRequest.isNegative()) {
            throw new IllegalArgumentException("longestRequest must be >= 0, was " + longestRequest);
        }
        return new JdbcGrantStore(Objects.requireNonNull(journal, "journal"), longestRequest);
    }

    /** Reconciles {@code stagingPrefix} from now on, in every run of the journal's recovery. */
    @Override
    public void serve(String stagingPrefix, Duration lifetime, UploadSigner signer) {
        prefixes.merge(stagingPrefix, new Served(lifetime, signer), (a, b) -> a.lifetime.compareTo(b.lifetime) >= 0
                ? a : b);
        if (reconciling.compareAndSet(false, true)) {
            journal.addToRecovery(this::reconcile);
        }
    }

    /**
     * The staging objects the reconciliation removed since this store was made.
     *
     * @return how many
     */
    public long removedObjects() {
        return removed.get();
    }

    /** One run: rows long expired are forgotten, and one slice of each prefix is reconciled. Logs what fails. */
    private void reconcile() {
        Instant now = Instant.now();
        try {
            journal.host().runInOwnTransaction("forget expired grants", c -> {
                try (PreparedStatement forget = c.prepareStatement(
                        "DELETE FROM bounded_upload_grant WHERE expires_at < ?")) {
                    forget.setLong(1, now.minus(KEPT_AFTER_EXPIRY).toEpochMilli());
                    forget.executeUpdate();
                }
                try (PreparedStatement callers = c.prepareStatement("DELETE FROM bounded_upload_grant_caller WHERE"
                        + " NOT EXISTS (SELECT 1 FROM bounded_upload_grant g"
                        + " WHERE g.caller = bounded_upload_grant_caller.caller)")) {
                    callers.executeUpdate();
                }
            });
        } catch (RuntimeException e) {
            LOG.warn("grant store: could not forget expired grants; the next run tries again: {}",
                    SafeText.describe(e));
        }
        prefixes.forEach((prefix, served) -> {
            try {
                reconcile(prefix, served.signer, now.minus(served.lifetime).minus(longestRequest));
            } catch (Exception e) {
                LOG.warn("grant store: could not reconcile the staging prefix {}; the next run tries again: {}",
                        SafeText.quote(prefix), SafeText.describe(e));
            }
        });
    }

    private void reconcile(String prefix, UploadSigner signer, Instant writtenBefore) throws Exception {
        removed.addAndGet(signer.abortIncompleteParts(prefix, writtenBefore, SLICE));
        List<ListedObject> page = journal.storage().list(prefix, cursors.get(prefix), SLICE);
        for (ListedObject object : page) {
            if (object.lastModified().isBefore(writtenBefore)) {
                journal.storage().key(object.key());
                removed.incrementAndGet();
            }
        }
        if (page.size() < SLICE) {
            cursors.remove(prefix);
        } else {
            cursors.put(prefix, page.get(page.size() - 1).key());
        }
    }

    @Override
    public boolean add(String caller, List<UploadGrant> grants, int maxOutstanding, Instant now) {
        return inTransaction("add grants", c -> {
            lockCaller(c, caller);
            try (PreparedStatement count = c.prepareStatement("SELECT COUNT(*) FROM bounded_upload_grant"
                    + " WHERE caller = ? AND confirmed_key IS NULL AND expires_at > ?")) {
                count.setString(1, caller);
                count.setLong(2, now.toEpochMilli());
                try (ResultSet rows = count.executeQuery()) {
                    rows.next();
                    if (rows.getLong(1) + grants.size() > maxOutstanding) {
                        return Boolean.FALSE;
                    }
                }
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO bounded_upload_grant (" + COLUMNS
                    + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, NULL, NULL, NULL, ?, ?)")) {
                for (UploadGrant grant : grants) {
                    FileToUpload file = grant.file();
                    insert.setString(1, grant.id());
                    insert.setString(2, caller);
                    insert.setString(3, file.fileName());
                    insert.setLong(4, file.size());
                    insert.setString(5, file.contentType());
                    nullable(insert, 6, file.checksumAlgorithm());
                    nullable(insert, 7, file.checksum());
                    insert.setString(8, grant.stagingKey());
                    insert.setLong(9, grant.expiresAt().toEpochMilli());
                    nullable(insert, 10, grant.uploadId());
                    insert.setShort(11, (short) (grant.form() ? 1 : 0));
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            return Boolean.TRUE;
        });
    }

    @Override
    public List<UploadGrant> find(String caller, Collection<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return inTransaction("find grants", c -> {
            List<UploadGrant> found = new ArrayList<>();
            try (PreparedStatement select = c.prepareStatement("SELECT " + COLUMNS + " FROM bounded_upload_grant"
                    + " WHERE caller = ? AND grant_id IN (" + placeholders(ids.size()) + ") FOR UPDATE")) {
                select.setString(1, caller);
                int index = 2;
                for (String id : ids) {
                    select.setString(index++, id);
                }
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        found.add(grant(rows));
                    }
                }
            }
            return found;
        });
    }

    /**
     * Records the grants confirmed, in the caller's transaction where there is one; once that commits (at once
     * without one), their staging objects are removed: the copies are the application's now. What cannot be removed
     * then (the process dies, the storage fails) the reconciliation removes later.
     */
    @Override
    public void confirmed(String caller, Map<String, StoredObject> stored) {
        List<String> staging = inTransaction("confirm grants", c -> {
            try (PreparedStatement update = c.prepareStatement("UPDATE bounded_upload_grant SET confirmed_key = ?,"
                    + " confirmed_size = ?, confirmed_etag = ?, confirmed_checksum_algorithm = ?,"
                    + " confirmed_checksum = ?, confirmed_version = ?"
                    + " WHERE grant_id = ? AND caller = ? AND confirmed_key IS NULL")) {
                for (Map.Entry<String, StoredObject> entry : stored.entrySet()) {
                    StoredObject object = entry.getValue();
                    update.setString(1, object.key());
                    update.setLong(2, object.size());
                    nullable(update, 3, object.eTag().orElse(null));
                    nullable(update, 4, object.checksumAlgorithm().orElse(null));
                    nullable(update, 5, object.checksum().orElse(null));
                    nullable(update, 6, object.versionId().orElse(null));
                    update.setString(7, entry.getKey());
                    update.setString(8, caller);
                    update.addBatch();
                }
                update.executeBatch();
            }
            List<String> keys = new ArrayList<>();
            try (PreparedStatement select = c.prepareStatement("SELECT staging_key FROM bounded_upload_grant"
                    + " WHERE caller = ? AND grant_id IN (" + placeholders(stored.size()) + ")")) {
                select.setString(1, caller);
                int index = 2;
                for (String id : stored.keySet()) {
                    select.setString(index++, id);
                }
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        keys.add(rows.getString(1));
                    }
                }
            }
            return keys;
        });
        CallerTransaction transaction = journal.callerTransaction();
        if (transaction.current() == null) {
            removeStaging(staging);
        } else {
            transaction.afterCommit(() -> removeStaging(staging));
        }
    }

    /** {@code ?, ?, ...}: the parameters of an {@code IN} list of {@code count} values. */
    private static String placeholders(int count) {
        return String.join(", ", Collections.nCopies(count, "?"));
    }

    private void removeStaging(List<String> keys) {
        int failed = 0;
        Exception first = null;
        for (String key : keys) {
            try {
                journal.storage().key(key);
            } catch (Exception e) {
                failed++;
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            LOG.warn("grant store: could not remove {} staging object(s) of confirmed grants; the reconciliation"
                    + " removes them later: {}", failed, SafeText.describe(first));
        }
    }

    /**
     * Takes the caller's row, made if missing; made again if the reconciliation forgot it in between (a caller without
     * grants), so that the lock is held on a row that stays.
     */
    private void lockCaller(Connection c, String caller) throws SQLException {
        for (int attempt = 0; attempt < 2; attempt++) {
            try (PreparedStatement upsert = c.prepareStatement(upsertCaller(journal.host().database()))) {
                upsert.setString(1, caller);
                upsert.executeUpdate();
            }
            try (PreparedStatement lock = c.prepareStatement(
                    "SELECT caller FROM bounded_upload_grant_caller WHERE caller = ? FOR UPDATE")) {
                lock.setString(1, caller);
                try (ResultSet row = lock.executeQuery()) {
                    if (row.next()) {
                        return;
                    }
                }
            }
        }
        throw new SQLException("the caller's row of bounded_upload_grant_caller was deleted twice while it was taken");
    }

    private static UploadGrant grant(ResultSet rows) throws SQLException {
        String algorithm = rows.getString("checksum_algorithm");
        FileToUpload file = new FileToUpload(rows.getString("file_name"), rows.getLong("size_bytes"),
                rows.getString("content_type"), algorithm, algorithm == null ? null : rows.getString("checksum"));
        String confirmedKey = rows.getString("confirmed_key");
        StoredObject confirmed = null;
        if (confirmedKey != null) {
            StoredObject.Builder object = StoredObject.builder(confirmedKey, rows.getLong("confirmed_size"))
                    .eTag(rows.getString("confirmed_etag")).versionId(rows.getString("confirmed_version"));
            String confirmedAlgorithm = rows.getString("confirmed_checksum_algorithm");
            String confirmedChecksum = rows.getString("confirmed_checksum");
            if (confirmedAlgorithm != null && confirmedChecksum != null) {
                object.checksum(confirmedAlgorithm, confirmedChecksum);
            }
            confirmed = object.build();
        }
        return new UploadGrant(rows.getString("grant_id"), rows.getString("caller"), file,
                rows.getString("staging_key"), Instant.ofEpochMilli(rows.getLong("expires_at")),
                rows.getString("upload_id"), rows.getShort("by_form") == 1, null, null, confirmed);
    }

    private static void nullable(PreparedStatement statement, int index, @Nullable String value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.VARCHAR);
        } else {
            statement.setString(index, value);
        }
    }

    private static String upsertCaller(Schema.Database database) {
        return switch (database) {
            case POSTGRESQL -> "INSERT INTO bounded_upload_grant_caller (caller) VALUES (?) ON CONFLICT DO NOTHING";
            case MYSQL -> "INSERT IGNORE INTO bounded_upload_grant_caller (caller) VALUES (?)";
            case H2 -> "MERGE INTO bounded_upload_grant_caller (caller) KEY (caller) VALUES (?)";
        };
    }

    /** On the caller's transaction where there is one (neither committed nor closed here), else on one of its own. */
    private <T> T inTransaction(String what, TaskHost.InTransaction<T> work) {
        Connection caller = journal.callerTransaction().current();
        if (caller == null) {
            return journal.host().inOwnTransaction(what, work);
        }
        try {
            return work.run(caller);
        } catch (SQLException e) {
            throw new UploadException("grant store: could not " + what + " in the caller's transaction: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "JdbcGrantStore[" + journal + "]";
    }

    /** A staging prefix's longest lifetime of signed requests, and the signer that aborts its multipart uploads. */
    private record Served(Duration lifetime, UploadSigner signer) {
    }
}
