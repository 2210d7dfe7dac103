package io.github.boundedupload.direct;

import io.github.boundedupload.UploadException;
import java.util.Locale;
import java.util.Objects;

/**
 * A request for grants, or a confirm, refused before anything was signed or copied: a bound of
 * {@link DirectUploads} would be exceeded (the message names the file and the bound), or a grant to confirm is not
 * one of the caller's; {@link #reason()} says which, for an application that answers each differently (413, 429,
 * 403) and for the meters. Changes when a new reason to refuse is added.
 */
public class GrantRefusedException extends UploadException {

    private static final long serialVersionUID = 1L;

    /** Why a request for grants, or a confirm, was refused. */
    public enum Reason {
        /** More files in one request than {@link DirectUploads.Builder#maxFilesPerRequest}. */
        FILES_PER_REQUEST,
        /** A file larger than {@link DirectUploads.Builder#maxBytesPerFile}, or of a negative size. */
        BYTES_PER_FILE,
        /** More bytes in one request than {@link DirectUploads.Builder#maxBytesPerRequest}. */
        BYTES_PER_REQUEST,
        /** More grants held unconfirmed than {@link DirectUploads.Builder#maxOutstandingPerCaller} (or a full store). */
        OUTSTANDING_PER_CALLER,
        /** A content type not well formed, or not one of {@link DirectUploads.Builder#contentTypes}. */
        CONTENT_TYPE,
        /** A checksum of an unknown algorithm, or one for a file sent in parts or with a form. */
        CHECKSUM,
        /** A file larger than what one signed request of the signer stores, where it signs no parts. */
        STORAGE_LIMIT,
        /** A confirm of an id that is not one of the caller's grants (unknown, another caller's, forgotten). */
        NOT_THE_CALLERS,
        /** A confirm with no id, or an id twice. */
        IDS,
        /** A confirm of a grant that another confirm in this JVM is confirming at that moment. */
        BEING_CONFIRMED;

        /**
         * The reason as a meter's tag: lower case, words joined by {@code -}.
         *
         * @return for example {@code bytes-per-file}
         */
        public String tag() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private final Reason reason;

    /**
     * A refusal.
     *
     * @param reason why, in one word
     * @param message why, naming the file where one is the reason
     */
    public GrantRefusedException(Reason reason, String message) {
        super(message, null);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /**
     * Why it was refused.
     *
     * @return the reason
     */
    public Reason reason() {
        return reason;
    }
}
