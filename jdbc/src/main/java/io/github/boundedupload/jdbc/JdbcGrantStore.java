package io.github.boundedupload.jdbc;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.direct.FileToUpload;
import io.github.boundedupload.direct.GrantStore;
import io.github.boundedupload.direct.UploadGrant;
import io.github.boundedupload.jdbc.internal.Schema;
import io.github.boundedupload.jdbc.internal.TaskHost;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The grants of direct uploads as rows of the journal's database ({@code bounded_upload_grant}, version 3 of its
 * schema), so that any instance of a fleet confirms a grant another one made, and a caller's bound holds across the
 * fleet: instances granting to one caller at once take turns on the caller's row of {@code bounded_upload_grant_caller}.
 * Everything is written in the caller's transaction where there is one ({@link CallerTransaction}), as the journal's
 * own records are: a confirm rolled back leaves its grants unconfirmed, and the journal removes its copies. A confirm
 * in a transaction locks its grants' rows until the transaction ends, so that two confirms of one grant at once copy it
 * once. Thread-safe. Changes when what a grant records changes.
 *
 * <pre>{@code
 * DirectUploads direct = DirectUploads.builder(uploader, signer).grants(JdbcGrantStore.of(journal)).build();
 * }</pre>
 */
public final class JdbcGrantStore implements GrantStore {

    private static final String COLUMNS = "grant_id, caller, file_name, size_bytes, content_type, checksum_algorithm,"
            + " checksum, staging_key, expires_at, confirmed_key, confirmed_size, confirmed_etag,"
            + " confirmed_checksum_algorithm, confirmed_checksum, confirmed_version";

    private final JdbcUploadJournal journal;

    private JdbcGrantStore(JdbcUploadJournal journal) {
        this.journal = journal;
    }

    /**
     * The grants on the journal's database. Its tables are version 3 of the journal's schema: created by
     * {@code createTables(true)}, or by the journal's Flyway migrations and Liquibase changelog.
     *
     * @param journal the journal, whose database and caller transaction the grants use
     * @return the store
     */
    public static JdbcGrantStore of(JdbcUploadJournal journal) {
        return new JdbcGrantStore(Objects.requireNonNull(journal, "journal"));
    }

    @Override
    public boolean add(String caller, List<UploadGrant> grants, int maxOutstanding, Instant now) {
        return inTransaction("add grants", c -> {
            try (PreparedStatement upsert = c.prepareStatement(upsertCaller(journal.host().database()))) {
                upsert.setString(1, caller);
                upsert.executeUpdate();
            }
            try (PreparedStatement lock = c.prepareStatement(
                    "SELECT caller FROM bounded_upload_grant_caller WHERE caller = ? FOR UPDATE")) {
                lock.setString(1, caller);
                lock.executeQuery().close();
            }
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
                    + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, NULL, NULL, NULL)")) {
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
                    + " WHERE caller = ? AND grant_id IN (" + String.join(", ", Collections.nCopies(ids.size(), "?"))
                    + ") FOR UPDATE")) {
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

    @Override
    public void confirmed(String caller, Map<String, StoredObject> stored) {
        inTransaction("confirm grants", c -> {
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
            return Boolean.TRUE;
        });
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
                rows.getString("staging_key"), Instant.ofEpochMilli(rows.getLong("expires_at")), null, confirmed);
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
}
