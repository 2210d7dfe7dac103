package io.github.boundedupload;

/**
 * What happens to a batch when the uploader's queue cannot take it
 * ({@link UploaderConfig#maxQueuedUploads()} would be exceeded). No policy drops attachments silently. Changes when the
 * uploader gets another way to answer a full queue.
 */
public enum RejectionPolicy {
    /** The batch is refused at once with an {@link UploaderSaturatedException}; nothing is started. */
    ABORT,
    /**
     * The calling thread uploads the batch itself, one attachment after another, without taking queue space. Each
     * upload still takes one of the uploader's permits (and its bytes), so the global bounds hold; the caller is
     * slowed down instead, which is the back-pressure.
     */
    CALLER_RUNS,
    /**
     * The calling thread waits for queue space up to {@link UploaderConfig#blockTimeout()}, then gives up with an
     * {@link UploaderSaturatedException}; nothing is started then.
     */
    BLOCK
}
