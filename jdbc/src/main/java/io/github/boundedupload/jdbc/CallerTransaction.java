package io.github.boundedupload.jdbc;

import io.github.boundedupload.jdbc.internal.NamedConnection;
import java.sql.Connection;
import org.jspecify.annotations.Nullable;

/**
 * Finds the transaction {@code uploadAll} runs in, so that the journal writes "keep these objects" in it: if the
 * transaction commits, the objects are kept with the application's own rows; if it rolls back, or the process dies
 * before it commits, the journal removes them. The default, {@link #named()}, finds the connection a caller named with
 * {@link JdbcUploadJournal#inTransaction}; the Spring Boot starter supplies one for Spring-managed transactions.
 * Changes when what the journal needs to know of the caller's transaction changes.
 */
public interface CallerTransaction {

    /**
     * The connection of the transaction the calling thread runs in: the journal writes on it, and neither commits nor
     * closes it.
     *
     * @return the connection, or {@code null} outside a transaction (the journal then commits on its own connection)
     */
    @Nullable Connection current();

    /**
     * Asks to run {@code action} after the current transaction rolls back, where the transaction manager can tell:
     * the journal then removes the objects at once instead of when the batch's lease ends. The default does nothing.
     *
     * @param action what to run after a rollback; it does not throw
     */
    default void afterRollback(Runnable action) {
    }

    /**
     * Asks to run {@code action} after the current transaction commits, where the transaction manager can tell:
     * deferred uploads then start at once instead of at the next poll. The default does nothing.
     *
     * @param action what to run after a commit; it does not throw
     */
    default void afterCommit(Runnable action) {
    }

    /**
     * The transaction a caller named with {@link JdbcUploadJournal#inTransaction}.
     *
     * @return the default
     */
    static CallerTransaction named() {
        return NamedConnection::current;
    }
}
