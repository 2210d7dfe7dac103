package io.github.boundedupload;

/**
 * A call to the storage did not stop within {@link UploaderConfig#stopTimeout()} after the uploader cancelled it
 * (its upload timed out, its batch stopped, or the uploader closed): for example a content stream whose
 * {@code read()} ignores interrupts. The uploader no longer waits for it: the attachment fails with this exception,
 * the call's permit and bytes go to other uploads, and the call is counted in
 * {@link UploaderStats#stuckUploads()} until it returns. The object may still be stored when the call does return;
 * the uploader then deletes it, so that the attachment's reported outcome stays true. Changes when what is reported of
 * a storage call that does not stop changes.
 */
public class UploadStuckException extends UploadTimeoutException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception for a call that did not stop.
     *
     * @param message which attachment, and why it was cancelled
     * @param cancelReason why the uploader cancelled the call
     */
    public UploadStuckException(String message, Throwable cancelReason) {
        super(message, cancelReason);
    }

    /**
     * Whether the storage may hold the object: it may, the call has not returned.
     *
     * @return {@code true}
     */
    @Override
    public boolean mayBeStored() {
        return true;
    }
}
