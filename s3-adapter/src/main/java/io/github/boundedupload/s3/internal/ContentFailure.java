package io.github.boundedupload.s3.internal;

import io.github.boundedupload.support.Causes;
import io.github.boundedupload.support.SafeText;
import java.io.IOException;
import java.util.concurrent.CancellationException;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.NonRetryableException;

/**
 * A failure of the content being sent, not of the network: content shorter or longer than declared, content that cannot
 * be opened or read, a file that is gone or changed; or a body that refuses more bytes because its upload was given
 * up on. No retry of the request can fix it, so the SDK must not retry it (it would send the same lie again, with
 * backoff in between). Changes when what counts as the content's own failure changes.
 *
 * <p>Our bodies fail with {@link #of}: a {@link NonRetryableException} caused by a {@code ContentFailure}, caused by
 * what happened. The SDK's retry strategies (standard, adaptive, legacy) retry an {@code IOException}, or an exception
 * whose direct cause is one; a {@code NonRetryableException} whose cause is not, they never retry. This is decided in
 * the body, per request, because the adapters take the caller's client and must not change its retry strategy; a
 * strategy of the caller's own that retries every exception would still retry it. Interrupts and cancellations pass as
 * they are: the SDK and the core handle them.
 */
final class ContentFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private ContentFailure(Throwable cause) {
        // Our own checks say what is wrong in words; anything else (a missing file, a broken stream) says its kind too.
        super(cause.getClass() == IOException.class ? String.valueOf(cause.getMessage()) : SafeText.describe(cause),
                cause);
    }

    /** What a body throws, or signals to its subscriber, for a failure of its content: never retried by the SDK. */
    static RuntimeException of(Throwable failure) {
        if (in(failure) != null) {
            return failure instanceof RuntimeException ? (RuntimeException) failure : new ContentFailure(failure);
        }
        ContentFailure content = new ContentFailure(failure);
        return NonRetryableException.builder().message(content.getMessage()).cause(content).build();
    }

    /** Whether a body's failure is the reading thread's interrupt or a cancel, which pass unchanged. */
    static boolean passes(Throwable failure) {
        return Causes.any(failure, t -> Causes.isInterrupt(t) || t instanceof CancellationException);
    }

    /** What a body signals for a failure of its content: {@link #of}, unless it {@link #passes}. */
    static Throwable signal(Throwable failure) {
        return passes(failure) ? failure : of(failure);
    }

    /** The content's failure in a failure's chain, if it is one. */
    static @Nullable ContentFailure in(@Nullable Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < Causes.MAX_DEPTH; depth++, t = t.getCause()) {
            if (t instanceof ContentFailure) {
                return (ContentFailure) t;
            }
        }
        return null;
    }
}
