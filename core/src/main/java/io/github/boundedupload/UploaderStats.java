package io.github.boundedupload;

/**
 * A snapshot of what an uploader is doing, for gauges and health checks. Immutable.
 *
 * @param inFlightUploads uploads (and undo deletes) running now
 * @param queuedUploads uploads admitted and not yet started
 * @param bytesInFlight bytes counted against {@link UploaderConfig#maxBytesInFlight()} now
 * @param activeBatches batches admitted and not yet finished
 * @param closed whether the uploader has been closed
 */
public record UploaderStats(int inFlightUploads, int queuedUploads, long bytesInFlight, int activeBatches,
        boolean closed) {
}
