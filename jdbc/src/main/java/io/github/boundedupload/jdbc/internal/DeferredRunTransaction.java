package io.github.boundedupload.jdbc.internal;

import java.sql.Connection;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A deferred run's own transaction, in which the uploader keeps the run's journal batch and the run then records its
 * attachments stored: a batch's keys are free again exactly when its attachments are recorded stored, never in between
 * (an instance taking them back in between would remove what was stored). A batch begun inside it is refused a key a
 * deferred attachment is recorded stored under: a run that another instance took over, and that comes back, uploads
 * nothing. If the transaction rolls back, the batches kept in it go to {@link BatchRecords#keptButRolledBack}.
 * Changes when how a deferred run's outcome and its journal batch are written together changes.
 */
public final class DeferredRunTransaction {

    private static final ThreadLocal<@Nullable DeferredRunTransaction> CURRENT = new ThreadLocal<>();

    private final Connection connection;
    private final List<String> kept;

    private DeferredRunTransaction(Connection connection, List<String> kept) {
        this.connection = connection;
        this.kept = kept;
    }

    /**
     * Runs a deferred upload's {@code uploadAll} in {@code connection}'s transaction.
     *
     * @param kept where the ids of the batches kept in the transaction are added
     */
    public static <T> T run(Connection connection, List<String> kept, Supplier<T> work) {
        DeferredRunTransaction before = CURRENT.get();
        CURRENT.set(new DeferredRunTransaction(connection, kept));
        try {
            return work.get();
        } finally {
            CURRENT.set(before);
        }
    }

    /** The deferred run's transaction on this thread, if it runs one. */
    static @Nullable DeferredRunTransaction current() {
        return CURRENT.get();
    }

    Connection connection() {
        return connection;
    }

    List<String> kept() {
        return kept;
    }
}
