package io.github.boundedupload.direct;

import io.github.boundedupload.UploadException;

/**
 * A request for grants, or a confirm, refused before anything was signed or copied: a bound of
 * {@link DirectUploads} would be exceeded (the message names the file and the bound), or a grant to confirm is not
 * one of the caller's. Changes when a new reason to refuse is added.
 */
public class GrantRefusedException extends UploadException {

    private static final long serialVersionUID = 1L;

    /**
     * A refusal.
     *
     * @param message why, naming the file where one is the reason
     */
    public GrantRefusedException(String message) {
        super(message, null);
    }
}
