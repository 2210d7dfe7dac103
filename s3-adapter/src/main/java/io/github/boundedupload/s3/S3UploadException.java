package io.github.boundedupload.s3;

import io.github.boundedupload.UploadException;
import io.github.boundedupload.support.Causes;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CancellationException;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;

/**
 * An S3 upload or delete failed. Carries what is needed to act on it: the bucket and key, the attachment's file
 * name, the HTTP status and S3 error code when S3 answered, and the SDK's exception as the cause. Messages never
 * contain credentials, presigned URLs or content. Changes when what a failed S3 call reports changes.
 *
 * <p>When the request's fate is unknown (the connection broke after the whole content was sent, and S3 could not be
 * asked afterwards), {@link #mayBeStored()} says so: the object may exist although the upload failed.
 *
 * <pre>{@code
 * catch (S3UploadException e) {
 *     if (e.statusCode().orElse(0) == 403) { ... }       // "AccessDenied": check the bucket policy
 *     log.warn("upload failed: {}", e.getMessage());     // safe to log
 * }
 * }</pre>
 */
public class S3UploadException extends UploadException {

    private static final long serialVersionUID = 1L;

    private final String bucket;
    private final String key;
    private final @Nullable String fileName;
    private final int statusCode;
    private final @Nullable String errorCode;
    private final boolean mayBeStored;

    /**
     * An S3 failure.
     *
     * @param message what failed, without credentials, presigned URLs or content
     * @param bucket the bucket
     * @param key the key
     * @param fileName the attachment's file name, or {@code null} for a delete
     * @param statusCode the HTTP status S3 answered with, or 0 when it did not answer
     * @param errorCode S3's error code (for example {@code NoSuchBucket}), or {@code null}
     * @param mayBeStored whether the object may be stored despite the failure
     * @param cause the SDK's exception, or {@code null}
     */
    public S3UploadException(String message, String bucket, String key, @Nullable String fileName, int statusCode,
            @Nullable String errorCode, boolean mayBeStored, @Nullable Throwable cause) {
        super(message, cause);
        this.bucket = bucket;
        this.key = key;
        this.fileName = fileName;
        this.statusCode = statusCode;
        this.errorCode = errorCode;
        this.mayBeStored = mayBeStored;
    }

    /**
     * The bucket.
     *
     * @return the bucket name
     */
    public String bucket() {
        return bucket;
    }

    /**
     * The key.
     *
     * @return the key
     */
    public String key() {
        return key;
    }

    /**
     * The file name of the attachment being uploaded.
     *
     * @return the file name, or empty for a delete
     */
    public Optional<String> fileName() {
        return Optional.ofNullable(fileName);
    }

    /**
     * The HTTP status S3 answered with.
     *
     * @return the status, or empty when S3 did not answer (connection failure, timeout, content failure)
     */
    public OptionalInt statusCode() {
        return statusCode == 0 ? OptionalInt.empty() : OptionalInt.of(statusCode);
    }

    /**
     * S3's error code, such as {@code NoSuchBucket}, {@code AccessDenied} or {@code KeyTooLongError}.
     *
     * @return the code, or empty
     */
    public Optional<String> errorCode() {
        return Optional.ofNullable(errorCode);
    }

    /**
     * Whether the object may be stored although the upload failed (the whole content was sent, no answer came, and
     * S3 could not be asked afterwards), or parts of it are (an incomplete multipart upload could not be aborted).
     * When {@code false}, nothing of this upload is stored. Deleting the key ({@link S3FileUploader#delete(String)})
     * removes both.
     *
     * @return whether the outcome is unknown
     */
    @Override
    public boolean mayBeStored() {
        return mayBeStored;
    }

    /**
     * Whether the upload stopped because it was interrupted or cancelled (the SDK says so with its
     * {@code AbortedException}), rather than failing on its own. Only the causes are looked at, not this exception.
     *
     * @return whether the failure is a cancellation
     */
    @Override
    public boolean isCancellation() {
        return Causes.any(getCause(), t -> t instanceof AbortedException || t instanceof CancellationException
                || Causes.isInterrupt(t));
    }

    /**
     * Whether S3 is overloaded: it asked to slow down (503 {@code SlowDown}, 429), said a request took too long
     * ({@code RequestTimeout}), or the request timed out or its connection failed without an answer.
     *
     * @return whether the failure is throttling
     */
    @Override
    public boolean isThrottling() {
        if (statusCode == 503 || statusCode == 429 || "SlowDown".equals(errorCode)
                || "RequestTimeout".equals(errorCode)) {
            return true;
        }
        return statusCode == 0 && Causes.any(getCause(), S3UploadException::noAnswer); // else S3 answered otherwise
    }

    /** A request that timed out, or whose connection failed, before S3 answered. */
    private static boolean noAnswer(Throwable t) {
        return t instanceof ApiCallTimeoutException || t instanceof ApiCallAttemptTimeoutException
                || t instanceof ConnectException || t instanceof SocketTimeoutException
                || t instanceof IOException && !(t instanceof InterruptedIOException)
                && t.getClass().getName().startsWith("java.net");
    }
}
