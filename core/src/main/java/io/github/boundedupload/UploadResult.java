package io.github.boundedupload;

import io.github.boundedupload.support.SafeText;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * How one attachment of a batch ended. Immutable.
 *
 * <p>Every attachment of a batch ends in exactly one {@link Status}: there is no silent discard.
 */
public final class UploadResult {

    /** How an attachment ended. */
    public enum Status {
        /** The storage holds the object: {@link #storedObject()} describes it. */
        STORED,
        /** The upload was attempted and failed, or timed out: {@link #failure()} says why. */
        FAILED,
        /**
         * The upload did not run to completion because the batch stopped first (another attachment failed under
         * {@link FailurePolicy#ALL_OR_NOTHING}, the batch was cancelled, or the uploader was closed); nothing is
         * stored. {@link #failure()} says why.
         */
        CANCELLED,
        /**
         * The object was stored, then deleted again because the batch failed as a whole under
         * {@link FailurePolicy#ALL_OR_NOTHING}; nothing is stored. {@link #storedObject()} describes what was deleted.
         */
        DELETED
    }

    private final int index;
    private final Attachment attachment;
    private final String key;
    private final Status status;
    private final @Nullable StoredObject storedObject;
    private final @Nullable Throwable failure;

    private UploadResult(int index, Attachment attachment, String key, Status status,
            @Nullable StoredObject storedObject, @Nullable Throwable failure) {
        this.index = index;
        this.attachment = Objects.requireNonNull(attachment, "attachment");
        this.key = Objects.requireNonNull(key, "key");
        this.status = status;
        this.storedObject = storedObject;
        this.failure = failure;
    }

    /**
     * An attachment that is stored.
     *
     * @param index the attachment's position in its batch
     * @param attachment the attachment
     * @param storedObject what the storage holds
     * @return the result
     */
    public static UploadResult stored(int index, Attachment attachment, StoredObject storedObject) {
        return new UploadResult(index, attachment, storedObject.key(), Status.STORED,
                Objects.requireNonNull(storedObject, "storedObject"), null);
    }

    /**
     * An attachment that is not stored.
     *
     * @param index the attachment's position in its batch
     * @param attachment the attachment
     * @param key the key it was to be stored under
     * @param status {@link Status#FAILED} or {@link Status#CANCELLED}
     * @param failure why
     * @return the result
     */
    public static UploadResult notStored(int index, Attachment attachment, String key, Status status,
            Throwable failure) {
        if (status != Status.FAILED && status != Status.CANCELLED) {
            throw new IllegalArgumentException("status must be FAILED or CANCELLED, was " + status);
        }
        return new UploadResult(index, attachment, key, status, null, Objects.requireNonNull(failure, "failure"));
    }

    /**
     * This stored attachment, after its object was deleted again.
     *
     * @return a result with status {@link Status#DELETED}
     * @throws IllegalStateException when this result is not {@link Status#STORED}
     */
    public UploadResult deleted() {
        if (status != Status.STORED) {
            throw new IllegalStateException("only a stored attachment can be deleted, this one is " + status);
        }
        return new UploadResult(index, attachment, key, Status.DELETED, storedObject, null);
    }

    /**
     * The attachment's position in the batch, from 0.
     *
     * @return the index
     */
    public int index() {
        return index;
    }

    /**
     * The attachment.
     *
     * @return the attachment
     */
    public Attachment attachment() {
        return attachment;
    }

    /**
     * The storage key the attachment was (or was to be) stored under.
     *
     * @return the key
     */
    public String key() {
        return key;
    }

    /**
     * How the attachment ended.
     *
     * @return the status
     */
    public Status status() {
        return status;
    }

    /**
     * Whether the storage holds the object.
     *
     * @return {@code true} when {@link #status()} is {@link Status#STORED}
     */
    public boolean isStored() {
        return status == Status.STORED;
    }

    /**
     * What the storage holds (for {@link Status#STORED}) or held (for {@link Status#DELETED}).
     *
     * @return the stored object, or empty when nothing was stored
     */
    public Optional<StoredObject> storedObject() {
        return Optional.ofNullable(storedObject);
    }

    /**
     * Why the attachment is not stored, for {@link Status#FAILED} and {@link Status#CANCELLED}.
     *
     * @return the failure, or empty
     */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    @Override
    public String toString() {
        return SafeText.label(index, attachment.fileName()) + " " + status
                + (failure == null ? "" : ": " + SafeText.describe(failure));
    }
}
