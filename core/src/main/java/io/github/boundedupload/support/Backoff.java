package io.github.boundedupload.support;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The pauses between tries of something that is tried until it succeeds (a delete that undoes an upload, a
 * compensation, a deferred upload): the first pause, doubling with each failed try up to the longest, each drawn
 * between half and all of that ("equal jitter"), so that many tries that failed together do not come back in step.
 * Changes when how long to pause between tries changes.
 *
 * <pre>{@code
 * Backoff backoff = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(30));
 * Duration pause = backoff.pause(tries);   // tries so far, from 1: 100-200 ms, 200-400 ms, ... 15-30 s
 * }</pre>
 */
public final class Backoff {

    private final long first;
    private final long max;

    /**
     * Pauses from {@code first}, doubling up to {@code max}.
     *
     * @param first the pause after the first failed try; positive
     * @param max the longest pause; at least {@code first}
     * @throws IllegalArgumentException when the pauses are not positive or {@code max} is shorter than {@code first}
     */
    public Backoff(Duration first, Duration max) {
        this.first = Objects.requireNonNull(first, "first").toNanos();
        this.max = Objects.requireNonNull(max, "max").toNanos();
        if (this.first <= 0 || this.max < this.first) {
            throw new IllegalArgumentException("a backoff needs a positive first pause and a longest pause at least as"
                    + " long, was " + first + " and " + max);
        }
    }

    /**
     * The pause after a failed try.
     *
     * @param tries the tries so far, 1 after the first
     * @return a pause between half and all of {@code first * 2^(tries - 1)}, or of the longest pause when that is
     *         shorter
     */
    public Duration pause(int tries) {
        long full = first;
        for (int i = 1; i < tries && full < max; i++) {
            full = full > max / 2 ? max : full * 2;
        }
        return Duration.ofNanos(full / 2 + ThreadLocalRandom.current().nextLong(full / 2 + 1));
    }

    @Override
    public String toString() {
        return "Backoff[" + Duration.ofNanos(first) + " doubling up to " + Duration.ofNanos(max) + "]";
    }
}
