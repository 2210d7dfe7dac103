package io.github.boundedupload.limits;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import com.netflix.concurrency.limits.limit.WindowedLimit;
import io.github.boundedupload.spi.ConcurrencyLimit;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * An adaptive concurrency limit on Netflix's concurrency-limits library: the number of uploads in flight grows while
 * the storage answers as fast as it did, and shrinks when its answers slow down, or when it times out, asks to slow
 * down (S3's 503 {@code SlowDown}) or drops connections. It is never above the uploader's
 * {@code maxConcurrentUploads}: that stays the hard limit.
 *
 * <pre>{@code
 * UploaderConfig.builder()
 *     .maxConcurrentUploads(64)                                // never more
 *     .concurrencyLimit(AdaptiveConcurrency.vegas(8, 64))      // start at 8, find the knee
 *     .build();
 * }</pre>
 *
 * <p>Start low, under the storage's knee: Vegas takes the latency it sees while few uploads are in flight for the
 * unloaded one. Started past the knee it never sees it, and stays high (benchmark scenario F: from 32 it settled at
 * 25 where the knee was 8, 1.6 times slower than the limit fixed at 8; from 4 it settled at 10, 1.16 times).
 *
 * <p>Samples are grouped in windows of at least half a second before the limit moves ({@link WindowedLimit}), so that
 * one slow upload does not halve it. Uploads of very different sizes make the latency signal noisier; the drop signal (timeouts, 503) works
 * whatever the sizes.
 */
public final class AdaptiveConcurrency implements ConcurrencyLimit {

    /** The shortest window of samples the limit moves on. */
    static final long MIN_WINDOW_MILLIS = 500;

    private final Limit limit;

    private AdaptiveConcurrency(Limit limit) {
        this.limit = limit;
    }

    /**
     * TCP Vegas' rule (latency and drops), windowed: the default choice.
     *
     * @param initial the limit to start from
     * @param max the most it may grow to (at most the uploader's {@code maxConcurrentUploads})
     * @return the limit
     */
    public static AdaptiveConcurrency vegas(int initial, int max) {
        checkRange(initial, max);
        // A window needs 10 samples to count (the library's minimum), else it is dropped. At the limits uploads run
        // at, 2 round trips are too few: 4 uploads of 50 ms give 8 samples in a 100 ms window, every window was
        // dropped and the limit never moved from where it started. Half a second gives 40.
        return new AdaptiveConcurrency(WindowedLimit.newBuilder().minWindowTime(MIN_WINDOW_MILLIS, TimeUnit.MILLISECONDS)
                .maxWindowTime(1, TimeUnit.SECONDS).build(VegasLimit.newBuilder().initialLimit(initial).maxConcurrency(max).build()));
    }

    /**
     * Any limit of the library, as it is (for example {@code AIMDLimit} or {@code Gradient2Limit}, which reacts to
     * latency only).
     *
     * @param limit the library's limit
     * @return the limit
     */
    public static AdaptiveConcurrency of(Limit limit) {
        return new AdaptiveConcurrency(Objects.requireNonNull(limit, "limit"));
    }

    private static void checkRange(int initial, int max) {
        if (initial < 1 || max < initial) {
            throw new IllegalArgumentException("the initial limit must be from 1 to max (" + max + "), was "
                    + initial);
        }
    }

    @Override
    public int limit() {
        return Math.max(1, limit.getLimit());
    }

    @Override
    public void onSample(long startNanos, long durationNanos, int inFlight, boolean overloaded) {
        limit.onSample(startNanos, Math.max(1, durationNanos), inFlight, overloaded);
    }

    @Override
    public String toString() {
        return "AdaptiveConcurrency[" + limit + "]";
    }
}
