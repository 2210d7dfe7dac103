package io.github.boundedupload;

import org.jspecify.annotations.Nullable;

/**
 * The root of every exception this library throws. Unchecked. Messages name the uploader, the attachment and the
 * key where they matter, and never contain content, credentials or presigned URLs. Changes when what every exception of
 * this library shares changes.
 */
public class UploadException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message and an optional cause.
     *
     * @param message what went wrong
     * @param cause the underlying failure, or {@code null}
     */
    public UploadException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    /**
     * An exception for frequent, expected conditions, optionally without the cost of a stack trace.
     *
     * @param message what went wrong
     * @param cause the underlying failure, or {@code null}
     * @param writableStackTrace whether to fill in the stack trace
     */
    protected UploadException(String message, @Nullable Throwable cause, boolean writableStackTrace) {
        super(message, cause, true, writableStackTrace);
    }

    /**
     * Whether the storage may hold the object although the upload failed: the whole content went out and the answer
     * was lost. Storage implementations that can tell override this. Under {@link FailurePolicy#ALL_OR_NOTHING} the
     * uploader then deletes the key too when the batch fails, so that nothing of it is left behind.
     *
     * @return {@code false} here
     */
    public boolean mayBeStored() {
        return false;
    }

    /**
     * Whether the upload stopped because the uploader interrupted or cancelled it (a timeout, a stopped batch, a
     * close), rather than failing on its own. The uploader tells the two apart to report the attachment as
     * {@link UploadResult.Status#CANCELLED} and to name only real failures in {@link BatchFailedException}; it
     * recognises interrupts and cancellations in the cause chain by itself ({@link InterruptedException},
     * {@link java.io.InterruptedIOException}, {@link java.util.concurrent.CancellationException}). Storage
     * implementations whose clients wrap an interrupt in an exception of their own override this.
     *
     * @return {@code false} here
     */
    public boolean isCancellation() {
        return false;
    }

    /**
     * Whether the failure says the storage is overloaded: it asked to slow down (S3's 503 {@code SlowDown}), did not
     * answer in time, or dropped the connection. An adaptive {@link io.github.boundedupload.spi.ConcurrencyLimit}
     * lowers the number of uploads in flight on such failures. Storage implementations that can tell override this;
     * the uploader counts its own timeouts by itself.
     *
     * @return {@code false} here
     */
    public boolean isThrottling() {
        return false;
    }
}
