package io.github.boundedupload.jdbc.internal;

import java.sql.Connection;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The connection a caller names with {@code JdbcUploadJournal.inTransaction}, bound to its thread while its work runs:
 * what the default {@code CallerTransaction.named()} finds. Changes when the way a caller names its transaction
 * changes.
 */
public final class NamedConnection {

    private static final ThreadBinding<Connection> NAMED = new ThreadBinding<>();

    private NamedConnection() {
    }

    /** The connection the calling thread's work was given, or {@code null}. */
    public static @Nullable Connection current() {
        return NAMED.current();
    }

    /** Runs {@code work} with {@code connection} named on this thread. */
    public static <T> T with(Connection connection, Supplier<T> work) {
        return NAMED.with(connection, work::get);
    }
}
