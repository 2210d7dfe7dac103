package io.github.boundedupload.jdbc;

import io.github.boundedupload.UploadException;

/**
 * {@link DeferredUploads} cannot stage a batch: the staged content would exceed its bounds. Nothing of the batch was
 * accepted. Retry later, or upload at once with {@code uploadAll}. Changes when what a batch refused for the staging
 * bounds reports changes.
 */
public final class StagingFullException extends UploadException {

    private static final long serialVersionUID = 1L;

    StagingFullException(String message) {
        super(message, null);
    }
}
