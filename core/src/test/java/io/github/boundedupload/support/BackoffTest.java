package io.github.boundedupload.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The one backoff of the library: the core's rollbacks and the journal's tasks pause as it says. */
class BackoffTest {

    private final Backoff backoff = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(30));

    @Test
    void eachPauseIsBetweenHalfAndAllOfTheDoublingPause() {
        for (int i = 0; i < 1_000; i++) {
            assertThat(backoff.pause(1)).isBetween(Duration.ofMillis(100), Duration.ofMillis(200));
            assertThat(backoff.pause(2)).isBetween(Duration.ofMillis(200), Duration.ofMillis(400));
            assertThat(backoff.pause(8)).isBetween(Duration.ofMillis(12_800), Duration.ofMillis(25_600));
        }
    }

    @Test
    void pausesStopGrowingAtTheLongestWhateverTheNumberOfTries() {
        for (int tries : new int[] {9, 20, 63, 64, 1_000, Integer.MAX_VALUE}) {
            assertThat(backoff.pause(tries)).isBetween(Duration.ofSeconds(15), Duration.ofSeconds(30));
        }
        Backoff days = new Backoff(Duration.ofNanos(1), Duration.ofDays(100_000));
        assertThat(days.pause(200)).isBetween(Duration.ofDays(50_000), Duration.ofDays(100_000));
    }

    @Test
    void pausesThatCannotBeAreRefused() {
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
