package io.github.boundedupload;

import io.github.boundedupload.support.SafeText;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * How one attachment of a batch ended. Immutable. Changes when what is reported of one attachment's end changes.
 *
 * <p>Every attachment of a batch ends in exactly one {@link Status}: there is no silent discard. A status is true when
 * it is reported and stays true: {@link Status#STORED} means stored and kept; every other status means that nothing of
 * the attachment is stored once the batch's background work has completed ({@link BatchResult#settled()}), and what
 * the uploader gave up on is reported ({@link Status#POSSIBLY_STORED}, an error log, and
 * {@link io.github.boundedupload.spi.UploadListener#rollbackAbandoned}).
 */
public final class UploadResult {

    /**
     * How an attachment ended. {@link #STORED} means stored and kept; every other status means nothing of it is stored
     * once its background work has completed ({@link BatchResult#settled()}), and what was given up is reported
     * ({@link #POSSIBLY_STORED}).
     */
    public enum Status {
        /** The storage holds the object, and the batch keeps it: {@link #storedObject()} describes it. */
        STORED,
        /**
         * The upload was attempted and failed, or timed out: {@link #failure()} says why. Nothing is stored: an upload
         * whose outcome was unknown (its failure says {@link UploadException#mayBeStored()}) was deleted before it was
         * reported so. A call that got stuck ({@link UploadStuckException}) is the one kind that may still store; the
         * uploader deletes what it stores when it returns, as the batch's background work.
         */
        FAILED,
        /**
         * The upload did not run to completion because the batch stopped first (another attachment failed under
         * {@link FailurePolicy#ALL_OR_NOTHING}, the batch was cancelled, or the uploader was closed); nothing is
         * stored. {@link #failure()} says why.
         */
        CANCELLED,
        /**
         * The object was stored, then deleted again because the batch failed as a whole under
         * {@link FailurePolicy#ALL_OR_NOTHING} (or cancelled); nothing is stored. {@link #storedObject()} describes what
         * was deleted.
         */
        DELETED,
        /**
         * Not kept, and still being deleted in the background: what the upload stored ({@link #storedObject()} is
         * present), or may have stored (its outcome is unknown: {@link #failure()} says why it failed), could not be
         * deleted at the first try, and is tried again until {@link UploaderConfig#rollbackDeadline()}.
         * {@link BatchResult#settled()} completes with how it ended: {@link #DELETED}, {@link #FAILED} or
         * {@link #CANCELLED} once the storage confirmed the delete, {@link #POSSIBLY_STORED} when it was given up.
         */
        DELETING,
        /**
         * Not kept, and the storage may still hold something under the key that the uploader no longer removes: the
         * upload's outcome is unknown and the application keeps unknown outcomes
         * ({@link UploaderConfig#keepUnknownOutcomes()}), or deleting it was given up (the rollback deadline passed,
         * or the uploader closed; also logged as an error naming the key, and reported to
         * {@link io.github.boundedupload.spi.UploadListener#rollbackAbandoned}). Something else must remove it.
         * {@link #storedObject()} is present when it was stored; {@link #failure()} says why it may be left.
         */
        POSSIBLY_STORED
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
     * @throws IllegalStateException when this result is neither {@link Status#STORED} nor {@link Status#DELETING} a
     *         stored object
     */
    public UploadResult deleted() {
        if (storedObject == null || status != Status.STORED && status != Status.DELETING) {
            throw new IllegalStateException("only a stored attachment can be deleted, this one is " + status);
        }
        return new UploadResult(index, attachment, key, Status.DELETED, storedObject, null);
    }

    /**
     * This attachment, while what it stored (or may have stored) is still being deleted in the background.
     *
     * @param why for a stored attachment, why its object is not deleted yet (the failed try); otherwise ignored, and
     *        {@link #failure()} stays why the upload failed
     * @return a result with status {@link Status#DELETING}
     * @throws IllegalStateException when this result is {@link Status#DELETED} or {@link Status#POSSIBLY_STORED}
     */
    public UploadResult deleting(Throwable why) {
        return notKept(Status.DELETING, why);
    }

    /**
     * This attachment, when the storage may still hold something of it that the uploader no longer removes.
     *
     * @param why for a stored attachment, why its object could not be deleted; otherwise ignored, and
     *        {@link #failure()} stays why the upload failed
     * @return a result with status {@link Status#POSSIBLY_STORED}
     * @throws IllegalStateException when this result is {@link Status#DELETED} or {@link Status#POSSIBLY_STORED}
     */
    public UploadResult possiblyStored(Throwable why) {
        return notKept(Status.POSSIBLY_STORED, why);
    }

    private UploadResult notKept(Status next, Throwable why) {
        Objects.requireNonNull(why, "why");
        if (status == Status.DELETED || status == Status.POSSIBLY_STORED) {
            throw new IllegalStateException("a result that is " + status + " cannot become " + next);
        }
        Throwable failure = storedObject != null || this.failure == null ? why : this.failure;
        return new UploadResult(index, attachment, key, next, storedObject, failure);
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
     * Whether the storage holds the object and the batch keeps it.
     *
     * @return {@code true} when {@link #status()} is {@link Status#STORED}
     */
    public boolean isStored() {
        return status == Status.STORED;
    }

    /**
     * What the storage holds (for {@link Status#STORED}) or held (for {@link Status#DELETED}, and for
     * {@link Status#DELETING} and {@link Status#POSSIBLY_STORED} of an attachment that was stored).
     *
     * @return the stored object, or empty when nothing is known to have been stored
     */
    public Optional<StoredObject> storedObject() {
        return Optional.ofNullable(storedObject);
    }

    /**
     * Why the attachment is not stored, for {@link Status#FAILED} and {@link Status#CANCELLED}; for
     * {@link Status#DELETING} and {@link Status#POSSIBLY_STORED}, why the upload failed, or (for an attachment that was
     * stored) why its object is not deleted.
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
