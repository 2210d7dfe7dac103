package io.github.boundedupload.spi;

/**
 * How many uploads may be in flight now, learned from how the storage answers: an adaptive limit under
 * {@link io.github.boundedupload.UploaderConfig#maxConcurrentUploads()}, which it never exceeds. The uploader reports
 * every upload that ran to its end (not those its batch cancelled) and asks for the limit before it starts the next.
 * {@code io.github.boundedupload.limits.AdaptiveConcurrency} implements it with Netflix's concurrency-limits.
 * Changes when what the uploader tells an adaptive limit, or asks of it, changes.
 *
 * <p>Implementations must be thread-safe and quick.
 */
public interface ConcurrencyLimit {

    /**
     * The number of uploads that may be in flight now.
     *
     * @return at least 1
     */
    int limit();

    /**
     * An upload ended.
     *
     * @param startNanos when it started ({@link System#nanoTime()})
     * @param durationNanos how long it ran
     * @param inFlight how many uploads were in flight when it ended, itself included
     * @param overloaded whether it failed in a way that says the storage is overloaded: a timeout, a refusal asking to
     *        slow down (S3's 503 {@code SlowDown}), a connection that failed (see
     *        {@link io.github.boundedupload.UploadException#isThrottling()})
     */
    void onSample(long startNanos, long durationNanos, int inFlight, boolean overloaded);
}
