package io.github.boundedupload.support;

import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Walking a failure's chain of causes, the one way this library does it: what a failure is underneath the wrappers
 * futures add, and whether it, or something it was caused by, is of a kind (an interrupt, a cancellation, a request to
 * slow down). Storages wrap what happened to them in exceptions of their own, so the kind is found by looking down the
 * chain, never at the outermost exception alone. Changes when a new kind of failure must be found in a chain of causes.
 *
 * <pre>{@code
 * boolean stoppedByUs = Causes.any(failure, t -> Causes.isInterrupt(t) || t instanceof CancellationException);
 * }</pre>
 */
public final class Causes {

    /** How deep a chain is looked into: enough for any real wrapping, and a chain that loops still ends. */
    public static final int MAX_DEPTH = 32;

    private Causes() {
    }

    /**
     * The failure itself, without the {@link CompletionException} and {@link ExecutionException} wrappers that
     * futures add around it.
     *
     * @param failure a failure
     * @return the first cause that is not such a wrapper (or the last wrapper, when it has no cause)
     */
    public static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; depth < MAX_DEPTH && (t instanceof CompletionException || t instanceof ExecutionException)
                && t.getCause() != null; depth++) {
            t = t.getCause();
        }
        return t;
    }

    /**
     * Whether the failure, or one of its causes (at most {@value #MAX_DEPTH} deep), passes the test.
     *
     * @param failure where to start; {@code null} passes nothing
     * @param test what is looked for
     * @return whether anything in the chain passed
     */
    public static boolean any(@Nullable Throwable failure, Predicate<? super Throwable> test) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_DEPTH; depth++, t = t.getCause()) {
            if (test.test(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the throwable is what the JDK throws at a thread that was interrupted: an {@link InterruptedException},
     * an {@link InterruptedIOException} or a {@link ClosedByInterruptException} (an interrupted file read).
     *
     * @param t a throwable
     * @return whether it says the thread was interrupted
     */
    public static boolean isInterrupt(Throwable t) {
        return t instanceof InterruptedException || t instanceof InterruptedIOException
                || t instanceof ClosedByInterruptException;
    }
}
