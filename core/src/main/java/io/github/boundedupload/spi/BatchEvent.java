package io.github.boundedupload.spi;

/**
 * Which batch an {@link UploadListener} callback is about. Immutable. Changes when what a listener learns about a batch
 * changes.
 */
public final class BatchEvent {

    private final String uploaderName;
    private final long batchId;
    private final int size;

    /**
     * A batch.
     *
     * @param uploaderName the uploader's name
     * @param batchId the batch's number, unique within the uploader
     * @param size the number of attachments
     */
    public BatchEvent(String uploaderName, long batchId, int size) {
        this.uploaderName = uploaderName;
        this.batchId = batchId;
        this.size = size;
    }

    /**
     * The name of the uploader running the batch.
     *
     * @return the name
     */
    public String uploaderName() {
        return uploaderName;
    }

    /**
     * The batch's number, unique within its uploader.
     *
     * @return the id
     */
    public long batchId() {
        return batchId;
    }

    /**
     * The number of attachments in the batch.
     *
     * @return the size
     */
    public int size() {
        return size;
    }

    @Override
    public String toString() {
        return uploaderName + " batch " + batchId + " (" + size + ")";
    }
}
