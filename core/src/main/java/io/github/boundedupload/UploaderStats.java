package io.github.boundedupload;

/**
 * A snapshot of what an uploader is doing, for gauges and health checks. Immutable. Changes when what an uploader
 * reports of its state changes.
 *
 * @param inFlightUploads uploads (and undo deletes) running now
 * @param queuedUploads uploads admitted and not yet started, and deletes waiting to be tried again
 * @param bytesInFlight bytes counted against {@link UploaderConfig#maxBytesInFlight()} now
 * @param activeBatches batches admitted and not yet finished
 * @param closed whether the uploader has been closed
 * @param pendingRollbacks deletes that undo failed batches and that the storage has not yet confirmed (see
 *        {@link UploaderConfig#rollbackDeadline()}); normally 0
 * @param stuckUploads calls to the storage that did not stop within {@link UploaderConfig#stopTimeout()} after
 *        they were cancelled and still hold a thread (or a request); normally 0
 * @param concurrencyLimit the number of uploads that may be in flight now as the adaptive
 *        {@link UploaderConfig#concurrencyLimit()} says, at most {@link UploaderConfig#maxConcurrentUploads()}; 0
 *        when no adaptive limit is set (then {@code maxConcurrentUploads} is the limit)
 */
public record UploaderStats(int inFlightUploads, int queuedUploads, long bytesInFlight, int activeBatches,
        boolean closed, int pendingRollbacks, int stuckUploads, int concurrencyLimit) {

    /**
     * A snapshot of an uploader without an adaptive concurrency limit.
     *
     * @param inFlightUploads uploads (and undo deletes) running now
     * @param queuedUploads uploads admitted and not yet started, and deletes waiting to be tried again
     * @param bytesInFlight bytes counted against {@link UploaderConfig#maxBytesInFlight()} now
     * @param activeBatches batches admitted and not yet finished
     * @param closed whether the uploader has been closed
     * @param pendingRollbacks deletes that undo failed batches, not yet confirmed
     * @param stuckUploads calls that did not stop within the stop timeout and have not returned
     */
    public UploaderStats(int inFlightUploads, int queuedUploads, long bytesInFlight, int activeBatches,
            boolean closed, int pendingRollbacks, int stuckUploads) {
        this(inFlightUploads, queuedUploads, bytesInFlight, activeBatches, closed, pendingRollbacks, stuckUploads, 0);
    }

    /**
     * A snapshot with no pending rollbacks and no stuck uploads.
     *
     * @param inFlightUploads uploads (and undo deletes) running now
     * @param queuedUploads uploads admitted and not yet started
     * @param bytesInFlight bytes counted against {@link UploaderConfig#maxBytesInFlight()} now
     * @param activeBatches batches admitted and not yet finished
     * @param closed whether the uploader has been closed
     */
    public UploaderStats(int inFlightUploads, int queuedUploads, long bytesInFlight, int activeBatches,
            boolean closed) {
        this(inFlightUploads, queuedUploads, bytesInFlight, activeBatches, closed, 0, 0, 0);
    }
}
