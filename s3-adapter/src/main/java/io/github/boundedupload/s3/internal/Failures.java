package io.github.boundedupload.s3.internal;

import io.github.boundedupload.s3.S3UploadException;
import io.github.boundedupload.support.Causes;
import io.github.boundedupload.support.SafeText;
import java.util.concurrent.CancellationException;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * What a failure means for the object, and the exceptions users see, built from it. Messages are built from the bucket,
 * key, file name and S3's error code and message (escaped): never from request URLs, headers or content.
 * Changes when S3 fails in a new way.
 */
public final class Failures {

    private static final int MAX_TEXT = 300;

    private Failures() {
    }

    /**
     * S3 answered and refused the request: whatever it was asked to store, it did not. Request timeouts (408) and
     * throttling (429) are not refusals of the content, and 5xx answers leave the outcome open.
     */
    static boolean refused(Throwable failure) {
        Throwable t = Causes.unwrap(failure);
        if (!(t instanceof S3Exception)) {
            return false;
        }
        int status = ((S3Exception) t).statusCode();
        return status >= 400 && status < 500 && status != 408 && status != 429;
    }

    /**
     * Whether the failure, or one of its causes, is the calling thread being interrupted (the SDK says so with its
     * {@code AbortedException}).
     */
    public static boolean interrupted(Throwable failure) {
        return Causes.any(failure, t -> t instanceof AbortedException || Causes.isInterrupt(t));
    }

    /** S3 answered 404 (no such key, or no such upload). */
    static boolean notFound(Throwable failure) {
        Throwable t = Causes.unwrap(failure);
        return t instanceof S3Exception && ((S3Exception) t).statusCode() == 404;
    }

    /** S3 answered 412: a condition of the request (an ETag to match) did not hold. */
    static boolean preconditionFailed(Throwable failure) {
        Throwable t = Causes.unwrap(failure);
        return t instanceof S3Exception && ((S3Exception) t).statusCode() == 412;
    }

    /** The server answered 501: it does not implement what the request asks (LocalStack: a conditional delete). */
    static boolean notImplemented(Throwable failure) {
        Throwable t = Causes.unwrap(failure);
        return t instanceof S3Exception && ((S3Exception) t).statusCode() == 501;
    }

    /** The exception for a failed upload, unless the failure already is one. */
    static S3UploadException upload(Settings settings, String key, String fileName, Throwable failure,
            boolean mayBeStored, @Nullable String note) {
        Throwable cause = Causes.unwrap(failure);
        if (cause instanceof S3UploadException && note == null && !mayBeStored) {
            return (S3UploadException) cause;
        }
        String message = "could not upload " + SafeText.quote(fileName) + " to s3://" + settings.bucket() + "/"
                + unquoted(key) + ": " + describe(cause)
                + (note == null ? "" : "; " + note);
        return exception(message, settings, key, fileName, cause, mayBeStored);
    }

    /** The exception for a failed listing. */
    public static S3UploadException list(Settings settings, String prefix, Throwable failure) {
        Throwable cause = Causes.unwrap(failure);
        return exception("could not list s3://" + settings.bucket() + "/" + unquoted(prefix) + "*: " + describe(cause),
                settings, prefix, null, cause, false);
    }

    /** The exception for a failed delete. */
    public static S3UploadException delete(Settings settings, String key, Throwable failure) {
        Throwable cause = Causes.unwrap(failure);
        String message = "could not delete s3://" + settings.bucket() + "/" + unquoted(key) + ": "
                + describe(cause);
        return exception(message, settings, key, null, cause, true);
    }

    private static S3UploadException exception(String message, Settings settings, String key,
            @Nullable String fileName, Throwable cause, boolean mayBeStored) {
        int status = 0;
        String code = null;
        if (cause instanceof S3Exception) {
            S3Exception s3 = (S3Exception) cause;
            status = s3.statusCode();
            code = s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
        }
        if (cause instanceof S3UploadException) {
            S3UploadException earlier = (S3UploadException) cause;
            status = earlier.statusCode().orElse(0);
            code = earlier.errorCode().orElse(null);
            mayBeStored |= earlier.mayBeStored();
        }
        return new S3UploadException(message, settings.bucket(), key, fileName, status, code, mayBeStored, cause);
    }

    /** A failure in a few words, for messages. */
    static String describe(Throwable failure) {
        Throwable t = Causes.unwrap(failure);
        if (t instanceof S3Exception) {
            S3Exception s3 = (S3Exception) t;
            String code = s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
            String text = s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorMessage();
            return "HTTP " + s3.statusCode() + (code == null ? "" : " " + code)
                    + (text == null ? "" : ": " + unquoted(text));
        }
        if (t instanceof ApiCallTimeoutException || t instanceof ApiCallAttemptTimeoutException) {
            return "timed out (" + unquoted(String.valueOf(t.getMessage())) + ")";
        }
        if (t instanceof AbortedException) {
            return "aborted: the thread was interrupted";
        }
        if (t instanceof CancellationException) {
            return "cancelled";
        }
        if (t instanceof S3UploadException) {
            return unquoted(String.valueOf(t.getMessage()));
        }
        ContentFailure content = ContentFailure.in(t);
        if (content != null) {
            return unquoted(String.valueOf(content.getMessage())); // not the SDK's wrapper and its attempt count
        }
        return SafeText.describe(t);
    }

    /**
     * Untrusted text (S3's messages, keys) for a message: control and invisible formatting characters escaped as
     * core escapes file names, at most {@value #MAX_TEXT} characters. (Core's quoting stops at 80: enough for a
     * file name, too little for S3's explanations.)
     */
    private static String unquoted(String text) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_TEXT) + 3);
        for (int i = 0; i < text.length() && i < MAX_TEXT; i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT) {
                out.append(String.format("\\u%04X", (int) c));
            } else {
                out.append(c);
            }
        }
        return text.length() > MAX_TEXT ? out.append("...").toString() : out.toString();
    }
}
