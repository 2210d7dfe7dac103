package io.github.boundedupload;

/**
 * The uploader could not take a batch because its queue was full ({@link RejectionPolicy#ABORT} at once,
 * {@link RejectionPolicy#BLOCK} after waiting). Nothing of the batch was started. A web application usually
 * answers {@code 429 Too Many Requests} with a {@code Retry-After} header. Changes when what a batch refused for a full
 * queue reports changes.
 *
 * <p>Thrown on the hot path of an overloaded service, so it carries no stack trace.
 */
public class UploaderSaturatedException extends UploadException {

    private static final long serialVersionUID = 1L;

    private final String uploaderName;
    private final int batchSize;
    private final int queued;
    private final int maxQueued;

    /**
     * An exception for a refused batch.
     *
     * @param uploaderName the uploader's name
     * @param batchSize the number of attachments refused
     * @param queued the number of uploads waiting when the batch was refused
     * @param maxQueued the queue's limit
     * @param policy the rejection policy that refused it
     */
    public UploaderSaturatedException(String uploaderName, int batchSize, int queued, int maxQueued,
            RejectionPolicy policy) {
        super("uploader '" + uploaderName + "' is saturated: a batch of " + batchSize + " does not fit, " + queued
                + " of at most " + maxQueued + " uploads are queued (rejection policy " + policy + ")", null, false);
        this.uploaderName = uploaderName;
        this.batchSize = batchSize;
        this.queued = queued;
        this.maxQueued = maxQueued;
    }

    /**
     * The uploader's name.
     *
     * @return the name
     */
    public String uploaderName() {
        return uploaderName;
    }

    /**
     * The number of attachments in the refused batch.
     *
     * @return the batch size
     */
    public int batchSize() {
        return batchSize;
    }

    /**
     * The number of uploads queued when the batch was refused.
     *
     * @return the queue depth
     */
    public int queued() {
        return queued;
    }

    /**
     * The queue's limit.
     *
     * @return {@link UploaderConfig#maxQueuedUploads()}
     */
    public int maxQueued() {
        return maxQueued;
    }
}
