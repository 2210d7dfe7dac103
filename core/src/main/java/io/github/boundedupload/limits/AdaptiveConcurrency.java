package io.github.boundedupload.limits;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.GradientLimit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import com.netflix.concurrency.limits.limit.WindowedLimit;
import io.github.boundedupload.spi.ConcurrencyLimit;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * An adaptive concurrency limit on Netflix's concurrency-limits library: the number of uploads in flight grows while
 * the storage answers as fast as it does unloaded, and shrinks when its answers slow down, or when it times out, asks
 * to slow down (S3's 503 {@code SlowDown}) or drops connections. It is never above the uploader's
 * {@code maxConcurrentUploads}: that stays the hard limit. Changes when the adaptive limit's algorithm or its default
 * settings change.
 *
 * <pre>{@code
 * UploaderConfig.builder()
 *     .maxConcurrentUploads(64)                                // never more
 *     .concurrencyLimit(AdaptiveConcurrency.create(8, 64))     // start at 8, find the knee
 *     .build();
 * }</pre>
 *
 * <p>{@link #create(int, int)} is the default, chosen by measurement: benchmark scenario F on versitygw, a server that
 * answers in 50 ms up to 8 uploads in flight, 12.5 ms slower per upload past that, {@code 503 SlowDown} past 32 (the
 * table, its command and why in {@code docs/performance.md}, "Adaptive limit"). Median makespan over the best fixed
 * limit's (8) in the same run, started from 4 and from 32:
 * <ul>
 * <li>the default, Gradient with a probe of the unloaded latency: 0.99 to 1.08 and 1.03 to 1.07 (eight runs);
 * <li>Vegas as concurrency-limits sets it ({@link #vegas(int, int)}, the default before): 1.11 to 1.21 and 1.53 to
 *     1.62, settled at 10 to 11 and at 24 to 26;
 * <li>Vegas set to back off at two queued uploads, with the same probe: 1.02 to 1.07 and 1.03 to 1.07, but in one run
 *     on a busy machine 1.20 and 1.10, falling to 3 from 4: its thresholds count whole uploads, so one noisy window
 *     is a queue of two; without the probe it stayed at 10 to 21 from 32;
 * <li>Gradient2, which follows the long average of the latency, not the unloaded latency: 1.31 to 1.42 and 3.98 to
 *     5.93 with its settings, and from 32 still 1.58 to 1.68 set like the default; AIMD (drops only): 1.62 to 1.68 and
 *     3.88 to 4.15; Gradient with its settings: 1.37 to 1.44 and 4.39 to 5.87; without the probe, Gradient set like
 *     the default stayed at 17 to 21 from 32 (1.42 to 1.47). Fixed at 9, one past the knee: 1.03 to 1.10.
 * </ul>
 *
 * <p>Samples are grouped in windows of at least half a second before the limit moves (concurrency-limits'
 * {@code WindowedLimit}), so that one slow upload does not halve it. Uploads of very different sizes make the latency
 * signal noisier; the drop signal (timeouts, 503) works whatever the sizes.
 */
public final class AdaptiveConcurrency implements ConcurrencyLimit {

    /**
     * The shortest window of samples the limit moves on. A window needs 10 samples to count (the library's minimum),
     * else it is dropped: 4 uploads of 50 ms give 8 in 100 ms, 40 in half a second.
     */
    static final long MIN_WINDOW_MILLIS = 500;

    /** The longest window of samples the limit moves on. */
    static final long MAX_WINDOW_MILLIS = 1000;

    private final Limit limit;

    private AdaptiveConcurrency(Limit limit) {
        this.limit = limit;
    }

    /**
     * The default: concurrency-limits' Gradient, windowed, that takes any rise of the latency above the unloaded
     * latency for a queue and tolerates a queue of one upload (an eighth of the limit past 16), with a probe of the
     * unloaded latency in the manner of TCP BBR around it ({@link #probing(IntFunction, int)}).
     *
     * <p>Every window Gradient moves the limit to {@code limit x unloaded / current latency + queue} (down to half at
     * most): a limit past the knee comes down in proportion to how much slower the answers are, and a latency that is
     * only noisy moves it a little, where Vegas' thresholds on a whole number of queued uploads either never see the knee (its
     * settings: 3 to 6 queued) or see noise as a queue (at 1). Like Vegas it takes the lowest latency it has seen for
     * the unloaded one; started past the knee it never sees that, so the probe shows it the latency at half the load:
     * after the first round trip, again as long as the limit comes down after a probe, and then every 200 round trips
     * and 10 seconds. In scenario F the limit came down from 32 to 8 or 9 in the first batch (without the probe it
     * stayed at 17 to 21), and climbed from 4 to 8 or 9; it sits at 8 and, half the time, at 9: a queue of one upload
     * is the least any of concurrency-limits' algorithms tolerates. Drops (timeouts, 503) take a tenth off per window.
     *
     * @param initial the limit to start from (the first probe runs at half of it, after one round trip)
     * @param max the most it may grow to (at most the uploader's {@code maxConcurrentUploads})
     * @return the limit
     */
    public static AdaptiveConcurrency create(int initial, int max) {
        checkRange(initial, max);
        return probing(start -> gradient(start, max), initial);
    }

    /**
     * Any latency-based algorithm of concurrency-limits that takes the lowest latency it has seen for the unloaded one
     * (Vegas, Gradient), windowed, with the probe of the unloaded latency of {@link #create(int, int)} around it: now
     * and then the limit drops to half for about one round trip, and the mean latency of the uploads started under
     * that cap becomes the unloaded latency of a fresh copy of the algorithm, built at the limit reached so far.
     *
     * <pre>{@code
     * AdaptiveConcurrency.probing(start -> VegasLimit.newBuilder().initialLimit(start).maxConcurrency(64).build(), 8)
     * }</pre>
     *
     * @param algorithm builds the algorithm from the limit to start from: at the start and after every probe
     * @param initial the limit to start from
     * @return the limit
     */
    public static AdaptiveConcurrency probing(IntFunction<? extends Limit> algorithm, int initial) {
        Objects.requireNonNull(algorithm, "algorithm");
        if (initial < 1) {
            throw new IllegalArgumentException("the initial limit must be at least 1, was " + initial);
        }
        return new AdaptiveConcurrency(new ProbeRtt(algorithm::apply, initial, MIN_WINDOW_MILLIS, MAX_WINDOW_MILLIS));
    }

    /** The algorithm of {@link #create(int, int)}, from {@code initial}: built again after every probe. */
    static GradientLimit gradient(int initial, int max) {
        return GradientLimit.newBuilder().initialLimit(initial).maxConcurrency(max).minLimit(1)
                .rttTolerance(1.0) // any rise of the latency is a queue: past a knee every upload costs
                .queueSize(limit -> Math.max(1, limit / 8)) // one upload, an eighth of the limit from 16
                .smoothing(1.0) // all the way down at once (to half at most): scenario F did better than at 0.5
                .backoffRatio(0.9) // on a drop: a tenth less per window
                .probeInterval(-1) // its own probe drops the limit to the queue size: ProbeRtt probes instead
                .build();
    }

    /**
     * TCP Vegas' rule (latency and drops), windowed, with concurrency-limits' own settings: the default before
     * {@link #create(int, int)}.
     *
     * @param initial the limit to start from
     * @param max the most it may grow to (at most the uploader's {@code maxConcurrentUploads})
     * @return the limit
     * @deprecated Use {@link #create(int, int)}. Where a server slows down past its knee, this limit settles above it
     *     (scenario F, knee at 8: at 10 from 4, 1.16 times as late as the best fixed limit), and started past it
     *     never sees the unloaded latency and stays there (at 24 to 25 from 32, 1.61 times).
     */
    @Deprecated(since = "0.1.0")
    public static AdaptiveConcurrency vegas(int initial, int max) {
        checkRange(initial, max);
        return new AdaptiveConcurrency(WindowedLimit.newBuilder()
                .minWindowTime(MIN_WINDOW_MILLIS, TimeUnit.MILLISECONDS)
                .maxWindowTime(MAX_WINDOW_MILLIS, TimeUnit.MILLISECONDS)
                .build(VegasLimit.newBuilder().initialLimit(initial).maxConcurrency(max).build()));
    }

    /**
     * Any limit of the library, as it is (for example {@code AIMDLimit}, which reacts to drops only, or
     * {@code Gradient2Limit}, which reacts to latency only); wrap it in a {@code WindowedLimit} unless it should move
     * on every upload.
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
