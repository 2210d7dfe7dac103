package io.github.boundedupload.limits;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.WindowedLimit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * A latency-based limit of concurrency-limits, windowed ({@link WindowedLimit}), that measures the unloaded latency
 * the way TCP BBR's ProbeRTT state does: now and then it lowers the limit to half for a moment, takes the mean latency
 * of {@link #PROBE_SAMPLES} uploads started under that cap, and gives it to a fresh copy of the algorithm (built at the
 * limit reached so far) as its unloaded latency. Changes when the way the unloaded latency is measured changes.
 *
 * <p>Why: Vegas and Gradient compare the latency now with the lowest they have seen. An algorithm started past the
 * storage's knee never sees the unloaded latency, so it sees no queue and stays there (Vegas from 32 stayed at 25 where
 * the knee was 8); and a lowest latency never forgets, so a storage that became slower for good would be taken for a
 * queue forever. A probe sees the latency at half the load. When the limit was past the knee, the algorithm now knows
 * a lower latency than it had and comes down; once it has come most of the way down to the probe's cap, the next probe
 * follows at once, until a probe finds no better. Otherwise a probe comes after {@link #PROBE_ROUND_TRIPS} round trips
 * and {@link #PROBE_INTERVAL_NANOS 10 seconds} (BBR's interval), whichever is later.
 *
 * <p>A probe costs about one round trip at half the limit (the uploads in flight finish, then those it measures run at
 * half the limit). The first starts after the first round trip (as many samples as the limit), so that a limit started
 * past the knee does not stay there long. Drops (timeouts, {@code 503 SlowDown}) always reach the algorithm, probe or
 * not.
 */
final class ProbeRtt implements Limit {

    /** Uploads started under the cap whose mean is the unloaded latency: as many as a window of the algorithm needs. */
    static final int PROBE_SAMPLES = 10;

    /** A probe comes at most every this many round trips (samples x the limit), when nothing else calls one. */
    static final int PROBE_ROUND_TRIPS = 200;

    /**
     * And at most every 10 seconds (of the samples' clock): a probe starts the algorithm again, window included, so
     * against a fast storage 200 round trips would leave it no time to move.
     */
    static final long PROBE_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private static final int NO_CAP = Integer.MAX_VALUE;

    private final IntFunction<Limit> algorithms;
    private final long minWindowNanos;
    private final long maxWindowNanos;
    private final List<Consumer<Integer>> listeners = new CopyOnWriteArrayList<>();

    // Written under this object's lock; read without it by getLimit().
    private volatile Limit windowed;
    private volatile int cap;

    // Guarded by this object's lock.
    private Limit algorithm;
    private long probeStarted;
    private long probeSum;
    private int probeCount;
    private long samplesSinceProbe;
    private long probeEnded;
    /** The cap of the last probe; 0 before the first. */
    private int lastCap;

    /**
     * @param algorithms builds the algorithm from the limit to start from (at the start, and after every probe)
     * @param initial the limit to start from
     * @param minWindowMillis the shortest window of samples the algorithm moves on
     * @param maxWindowMillis the longest
     */
    ProbeRtt(IntFunction<Limit> algorithms, int initial, long minWindowMillis, long maxWindowMillis) {
        this.algorithms = algorithms;
        this.minWindowNanos = TimeUnit.MILLISECONDS.toNanos(minWindowMillis);
        this.maxWindowNanos = TimeUnit.MILLISECONDS.toNanos(maxWindowMillis);
        build(initial);
        this.cap = NO_CAP;
    }

    private void build(int initial) {
        algorithm = algorithms.apply(initial);
        Limit limit = WindowedLimit.newBuilder().minWindowTime(minWindowNanos, TimeUnit.NANOSECONDS)
                .maxWindowTime(maxWindowNanos, TimeUnit.NANOSECONDS).build(algorithm);
        listeners.forEach(limit::notifyOnChange);
        windowed = limit;
    }

    private static int capOf(int limit) {
        return Math.max(1, limit / 2);
    }

    @Override
    public int getLimit() {
        return Math.min(cap, windowed.getLimit());
    }

    @Override
    public void notifyOnChange(Consumer<Integer> consumer) {
        listeners.add(consumer);
        windowed.notifyOnChange(consumer);
    }

    @Override
    public synchronized void onSample(long startTime, long rtt, int inflight, boolean didDrop) {
        if (cap == NO_CAP || startTime - probeStarted < 0 || didDrop) {
            // Not a probe's sample: before the probe (started under the old limit), or a drop, which always counts.
            windowed.onSample(startTime, rtt, inflight, didDrop);
            if (cap == NO_CAP) {
                samplesSinceProbe++;
                int limit = windowed.getLimit();
                long now = startTime + rtt;
                boolean due = lastCap == 0 ? samplesSinceProbe >= limit // the first after the first round trip
                        : samplesSinceProbe >= (long) PROBE_ROUND_TRIPS * limit
                                && now - probeEnded >= PROBE_INTERVAL_NANOS;
                // Come down most of the way to the last probe's cap: the latency there was lower, so maybe lower still.
                if (due || lastCap > 1 && limit <= lastCap + lastCap / 4) {
                    probeStarted = now;
                    probeSum = 0;
                    probeCount = 0;
                    cap = capOf(limit);
                }
            }
            return;
        }
        probeSum += rtt;
        if (++probeCount == PROBE_SAMPLES) {
            int limit = windowed.getLimit();
            build(limit);
            // In flight 0: the algorithm takes it for its unloaded latency, and not for a sign that more would fit.
            algorithm.onSample(startTime, Math.max(1, probeSum / probeCount), 0, false);
            lastCap = cap;
            samplesSinceProbe = 0;
            probeEnded = startTime + rtt;
            cap = NO_CAP;
        }
    }

    @Override
    public synchronized String toString() {
        return "ProbeRtt[" + algorithm + (cap == NO_CAP ? "" : ", probing at " + cap) + "]";
    }
}
