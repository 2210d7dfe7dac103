package io.github.boundedupload.jdbc.internal;

import io.github.boundedupload.UploadException;
import io.github.boundedupload.jdbc.CallerTransaction;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.UploadJournal;
import io.github.boundedupload.support.SafeText;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The journal as the uploader sees it ({@link UploadJournal}): before a batch writes its first byte, a row holds it
 * and every key it may write, under a lease; keeping the batch deletes the row, in the caller's transaction when there
 * is one; a batch that keeps nothing, or whose caller rolls back, goes to the {@link Compensations}. Changes when what
 * the uploader asks of its journal changes.
 */
public final class BatchRecords {

    private final TaskHost host;
    private final Compensations compensations;
    private final CallerTransaction transactions;
    private final String owner;
    private final Duration keepMargin;

    public BatchRecords(TaskHost host, Compensations compensations, CallerTransaction transactions, String owner,
            Duration keepMargin) {
        this.host = host;
        this.compensations = compensations;
        this.transactions = transactions;
        this.owner = owner;
        this.keepMargin = keepMargin;
    }

    /** See {@link UploadJournal#begin}: the row and its keys, committed before this returns. */
    public UploadJournal.Entry begin(BatchEvent batch, List<String> keys, Duration maxRunTime) {
        String id = UUID.randomUUID().toString();
        long now = System.currentTimeMillis();
        long leaseUntil = now + maxRunTime.toMillis() + keepMargin.toMillis();
        host.runInOwnTransaction("record " + batch, c -> {
            try {
                Store.insertBatch(c, id, batch.uploaderName(), owner, Store.OPEN, now, leaseUntil);
                Store.insertKeys(c, id, keys);
            } catch (SQLException e) {
                if (!Store.isDuplicate(e)) {
                    throw e;
                }
                c.rollback();
                String held = Store.heldKey(c, keys).orElse("?");
                throw new UploadException("key " + SafeText.quote(held) + " belongs to a batch that is not settled"
                        + " yet (an upload of that key runs, waits for its caller's commit, or is being removed)",
                        null);
            }
        });
        return new Entry(id, List.copyOf(keys), batch);
    }

    /** One batch's row. */
    private final class Entry implements UploadJournal.Entry {
        private final String id;
        private final List<String> keys;
        private final BatchEvent batch;

        Entry(String id, List<String> keys, BatchEvent batch) {
            this.id = id;
            this.keys = keys;
            this.batch = batch;
        }

        @Override
        public void keep(List<String> kept) {
            Set<String> keep = new HashSet<>(kept);
            List<String> rest = new ArrayList<>();
            for (String key : keys) {
                if (!keep.contains(key)) {
                    rest.add(key);
                }
            }
            if (!rest.isEmpty()) {
                compensations.removeApart(rest, batch.uploaderName(), batch.toString());
            }
            Connection caller = transactions.current();
            int forgotten;
            if (caller != null) {
                try {
                    forgotten = Store.forgetOpen(caller, id);
                } catch (SQLException e) {
                    throw new UploadException("could not keep " + batch + " in the caller's transaction: "
                            + e.getMessage(), e);
                }
                if (forgotten == 1) {
                    transactions.afterRollback(() -> compensations.claim(id));
                }
            } else {
                forgotten = host.inOwnTransaction("keep " + batch, c -> Store.forgetOpen(c, id));
            }
            if (forgotten != 1) {
                throw new UploadException(batch + " is being removed already: its lease ended before it was kept",
                        null);
            }
        }

        @Override
        public void settled(boolean confirmed) {
            if (confirmed) {
                host.inOwnTransaction("forget " + batch, c -> Store.forgetOpen(c, id));
            } else {
                compensations.claim(id);
            }
        }

        @Override
        public String toString() {
            return "journal entry " + id + " of " + batch;
        }
    }
}
