package io.github.boundedupload.jdbc.internal;

import org.jspecify.annotations.Nullable;

/**
 * A value bound to the calling thread while some work runs, and what the thread had before restored afterwards, even
 * when the work binds again inside (a transaction named inside another): the one bind-and-restore of the journal, for
 * the connection a caller names and for the connection db-scheduler is made to join. Changes when binding to a thread
 * needs more (a scoped value, say).
 *
 * @param <T> what is bound
 */
public final class ThreadBinding<T> {

    /** Work that may fail with a checked exception of one type. */
    @FunctionalInterface
    public interface Work<R, E extends Exception> {
        /**
         * Runs.
         *
         * @return a value
         * @throws E when the work fails
         */
        R run() throws E;
    }

    private final ThreadLocal<@Nullable T> bound = new ThreadLocal<>();

    /** What is bound to the calling thread now, or {@code null}. */
    public @Nullable T current() {
        return bound.get();
    }

    /** Runs {@code work} with {@code value} bound to this thread, then restores what was bound before. */
    public <R, E extends Exception> R with(T value, Work<R, E> work) throws E {
        T before = bound.get();
        bound.set(value);
        try {
            return work.run();
        } finally {
            if (before == null) {
                bound.remove();
            } else {
                bound.set(before);
            }
        }
    }
}
