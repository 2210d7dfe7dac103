package io.github.boundedupload;

import org.jspecify.annotations.Nullable;

/**
 * An upload did not finish within {@link UploaderConfig#uploadTimeout()}, or did not finish (or start) before the
 * batch's deadline ({@link UploaderConfig#batchTimeout()}). Found as the {@link UploadResult#failure() failure} of
 * the attachment. Changes when what a timed-out upload reports changes.
 */
public class UploadTimeoutException extends UploadException {

    private static final long serialVersionUID = 1L;

    /**
     * A timeout.
     *
     * @param message which limit passed, for which attachment
     */
    public UploadTimeoutException(String message) {
        super(message, null);
    }

    /**
     * A timeout with the failure that led to it.
     *
     * @param message which limit passed, for which attachment
     * @param cause what led to it, or {@code null}
     */
    protected UploadTimeoutException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    /**
     * A timeout says the storage did not keep up.
     *
     * @return {@code true}
     */
    @Override
    public boolean isThrottling() {
        return true;
    }
}
