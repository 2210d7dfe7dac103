package io.github.boundedupload.spi;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.support.SafeText;
import java.util.Objects;

/**
 * Which upload an {@link UploadListener} callback is about. Immutable. Changes when what a listener learns about an
 * upload changes.
 */
public final class UploadEvent {

    private final BatchEvent batch;
    private final int index;
    private final Attachment attachment;
    private final String key;

    /**
     * An upload of a batch.
     *
     * @param batch the batch
     * @param index the attachment's position in the batch
     * @param attachment the attachment
     * @param key the storage key
     */
    public UploadEvent(BatchEvent batch, int index, Attachment attachment, String key) {
        this.batch = Objects.requireNonNull(batch, "batch");
        this.index = index;
        this.attachment = Objects.requireNonNull(attachment, "attachment");
        this.key = Objects.requireNonNull(key, "key");
    }

    /**
     * The batch the upload belongs to.
     *
     * @return the batch
     */
    public BatchEvent batch() {
        return batch;
    }

    /**
     * The attachment's position in its batch, from 0.
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
     * The storage key.
     *
     * @return the key
     */
    public String key() {
        return key;
    }

    @Override
    public String toString() {
        return batch + " " + SafeText.label(index, attachment.fileName());
    }
}
