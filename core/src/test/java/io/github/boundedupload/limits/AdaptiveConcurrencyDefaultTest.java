package io.github.boundedupload.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;

/**
 * Where the default adaptive limit ({@link AdaptiveConcurrency#create(int, int)}) goes, fed the samples of a modelled
 * storage on a clock of their own (no sleeps, no real uploads): every round trip, as many uploads as the limit allows
 * start together and end together after the storage's latency at that load.
 */
class AdaptiveConcurrencyDefaultTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /** Scenario F's server: 50 ms up to 8 in flight, 12.5 ms more for every upload past 8. */
    private static final IntToLongFunction KNEE_AT_8 = n -> n <= 8 ? 50 * MS : 50 * MS + (n - 8) * 50 * MS / 4;

    /** A storage with no knee within reach: 50 ms whatever the load. */
    private static final IntToLongFunction FLAT = n -> 50 * MS;

    /** The modelled storage and the limit it feeds. */
    private static final class Storage {
        final AdaptiveConcurrency limit;
        IntToLongFunction latency;
        boolean overloaded;
        long now = TimeUnit.SECONDS.toNanos(1);
        int lowest = Integer.MAX_VALUE;
        int highest;

        Storage(AdaptiveConcurrency limit, IntToLongFunction latency) {
            this.limit = limit;
            this.latency = latency;
        }

        /** Runs round trips for {@code seconds}; records the lowest and highest limit the uploads ran at. */
        Storage run(double seconds) {
            long until = now + (long) (seconds * 1e9);
            lowest = Integer.MAX_VALUE;
            highest = 0;
            while (now < until) {
                int n = limit.limit();
                lowest = Math.min(lowest, n);
                highest = Math.max(highest, n);
                long took = latency.applyAsLong(n);
                for (int i = 0; i < n; i++) {
                    limit.onSample(now, took, n, overloaded);
                }
                now += took;
            }
            return this;
        }
    }

    @Test
    void itStartsAtItsInitialLimitAndProbesAtHalfOfItAfterTheFirstRoundTrip() {
        AdaptiveConcurrency limit = AdaptiveConcurrency.create(32, 64);
        assertThat(limit.limit()).isEqualTo(32);
        long now = 0;
        for (int i = 0; i < 32; i++) { // one round trip at 32
            limit.onSample(now, 300 * MS, 32, false);
        }
        now += 300 * MS;
        assertThat(limit.limit()).isEqualTo(16);
        for (int i = 0; i < ProbeRtt.PROBE_SAMPLES; i++) { // uploads started under the cap
            limit.onSample(now, 150 * MS, 16, false);
        }
        assertThat(limit.limit()).isEqualTo(32);
    }

    @Test
    void fromAboveTheKneeItComesDownToTheKneeAndStaysThere() {
        // What Vegas could not do: started past the knee, it took the loaded latency for the unloaded one (scenario F:
        // it stayed at 25 where the knee was 8).
        Storage storage = new Storage(AdaptiveConcurrency.create(32, 64), KNEE_AT_8).run(10);
        assertThat(storage.limit.limit()).isBetween(8, 9);

        storage.run(60);
        assertThat(storage.highest).isEqualTo(9); // it probes one above the knee, never more
        assertThat(storage.lowest).isGreaterThanOrEqualTo(4); // a probe of the unloaded latency runs at half
    }

    @Test
    void fromBelowTheKneeItClimbsToItAndStaysWithinOneOfIt() {
        Storage storage = new Storage(AdaptiveConcurrency.create(4, 64), KNEE_AT_8).run(10);
        assertThat(storage.limit.limit()).isBetween(8, 9);

        storage.run(60);
        assertThat(storage.highest).isEqualTo(9);
        assertThat(storage.lowest).isGreaterThanOrEqualTo(4);
    }

    @Test
    void withoutAKneeItGrowsToItsMaximum() {
        Storage storage = new Storage(AdaptiveConcurrency.create(8, 64), FLAT).run(60);
        assertThat(storage.limit.limit()).isEqualTo(64);
    }

    @Test
    void againstAFastStorageTheProbesLeaveTheLimitTimeToGrow() {
        // What broke: 200 round trips of 2 ms are shorter than a window, and every probe starts the algorithm again,
        // window included: probed every 200 round trips, the limit barely moved (it took 15 s to go from 2 to 9).
        Storage storage = new Storage(AdaptiveConcurrency.create(2, 64), n -> 2 * MS).run(10);
        assertThat(storage.limit.limit()).isGreaterThanOrEqualTo(16);
        storage.run(30);
        assertThat(storage.limit.limit()).isEqualTo(64);
    }

    @Test
    void itBacksOffWhileTheStorageDropsUploadsWhateverTheLatency() {
        Storage storage = new Storage(AdaptiveConcurrency.create(32, 64), FLAT).run(10);
        assertThat(storage.limit.limit()).isEqualTo(64);

        storage.overloaded = true; // timeouts or 503 SlowDown, answered as fast as ever
        storage.run(2);
        int afterTwoSeconds = storage.limit.limit();
        assertThat(afterTwoSeconds).isLessThan(64);
        storage.run(10);
        assertThat(storage.limit.limit()).isLessThan(afterTwoSeconds).isLessThanOrEqualTo(8);

        storage.overloaded = false; // and it grows again once they stop
        storage.run(60);
        assertThat(storage.limit.limit()).isEqualTo(64);
    }

    @Test
    void aStorageThatBecameSlowerForGoodIsNotTakenForAQueueForever() {
        // A lowest latency that never expires would read twice the latency as half the uploads queued, for good.
        Storage storage = new Storage(AdaptiveConcurrency.create(8, 32), FLAT).run(30);
        assertThat(storage.limit.limit()).isEqualTo(32);

        storage.latency = n -> 100 * MS;
        storage.run(60);
        assertThat(storage.limit.limit()).isEqualTo(32);
    }

    @Test
    void theKneeMovingDownIsFollowed() {
        Storage storage = new Storage(AdaptiveConcurrency.create(8, 64), FLAT).run(30);
        assertThat(storage.limit.limit()).isEqualTo(64);

        storage.latency = KNEE_AT_8;
        storage.run(30);
        assertThat(storage.limit.limit()).isBetween(8, 9);
    }
}
