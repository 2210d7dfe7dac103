package io.github.boundedupload;

/**
 * The uploader is closed: it takes no new batch, and a batch still running after the close's grace period is
 * cancelled with this as the reason. Changes when what a closed uploader reports changes.
 */
public class UploaderClosedException extends UploadException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception naming the closed uploader.
     *
     * @param uploaderName the uploader's name
     * @param message what could not be done
     */
    public UploaderClosedException(String uploaderName, String message) {
        super("uploader '" + uploaderName + "' is closed: " + message, null);
    }
}
