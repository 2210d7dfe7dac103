package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import io.github.boundedupload.limits.AdaptiveConcurrency;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The default adaptive concurrency limit ({@link AdaptiveConcurrency#create(int, int)}, on Netflix concurrency-limits)
 * follows how the storage answers, through a real uploader: it grows while the answers come as fast as before, shrinks
 * when the storage says it is overloaded, and never goes above {@code maxConcurrentUploads}. (Where it settles is in
 * {@code limits.AdaptiveConcurrencyDefaultTest}; how close it comes to the best fixed limit is measured by the
 * benchmark.)
 */
class AdaptiveConcurrencyTest {

    private final FakeStorage storage = new FakeStorage();

    /** What S3's 503 SlowDown looks like to the core. */
    private static final class SlowDown extends UploadException {
        SlowDown() {
            super("503 SlowDown", null);
        }

        @Override
        public boolean isThrottling() {
            return true;
        }
    }

    private ConcurrentAttachmentUploader uploader(int max, AdaptiveConcurrency limit) {
        return ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder().name("adaptive")
                .maxConcurrentUploads(max).maxConcurrentUploadsPerBatch(max).failurePolicy(FailurePolicy.COLLECT)
                .concurrencyLimit(limit).build());
    }

    @Test
    void theLimitGrowsWhileTheStorageAnswersAsFastAsBefore() {
        storage.behaviour = request -> Thread.sleep(2); // the same latency whatever the load
        try (ConcurrentAttachmentUploader uploader = uploader(32, AdaptiveConcurrency.create(2, 32))) {
            assertThat(uploader.stats().concurrencyLimit()).isEqualTo(2);

            await().atMost(Duration.ofMinutes(1)).until(() -> {
                uploader.uploadAll(Batches.of("g", 200));
                return uploader.stats().concurrencyLimit() > 8;
            });
        }
    }

    @SuppressWarnings("deprecation") // Vegas as before, which the regression was found with, is kept
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aLimitUnderTenGrowsAtTheLatencyOfRealUploads(boolean theDefault) {
        // What broke (found by scenario F of the benchmarks): 4 uploads of 50 ms give 8 samples in a window of two
        // round trips, fewer than the 10 a window needs to count, so every window was dropped and the limit stayed
        // at 4 whatever the storage did. The samples carry their own clock: 5 s of uploads, 4 at a time.
        AdaptiveConcurrency limit = theDefault ? AdaptiveConcurrency.create(4, 64) : AdaptiveConcurrency.vegas(4, 64);
        long rtt = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(50);
        long now = 0;
        for (int round = 0; round < 100 && limit.limit() <= 4; round++) {
            for (int i = 0; i < 4; i++) {
                limit.onSample(now, rtt + i * 1_000L, 4, false);
            }
            now += rtt;
        }
        assertThat(limit.limit()).isGreaterThan(4);
    }

    @Test
    void theLimitShrinksWhenTheStorageSaysItIsOverloaded() {
        AtomicInteger inFlight = new AtomicInteger();
        storage.behaviour = request -> {
            try {
                if (inFlight.incrementAndGet() > 4) {
                    throw new SlowDown();
                }
                Thread.sleep(2);
            } finally {
                inFlight.decrementAndGet();
            }
        };
        try (ConcurrentAttachmentUploader uploader = uploader(32, AdaptiveConcurrency.create(32, 32))) {
            await().atMost(Duration.ofMinutes(1)).until(() -> {
                uploader.uploadAll(Batches.of("s", 200));
                return uploader.stats().concurrencyLimit() <= 8;
            });
        }
    }

    @Test
    void theLimitNeverExceedsTheConfiguredMaximum() {
        storage.behaviour = request -> Thread.sleep(1);
        try (ConcurrentAttachmentUploader uploader = uploader(6, AdaptiveConcurrency.create(6, 64))) {
            for (int i = 0; i < 20; i++) {
                uploader.uploadAll(Batches.of("m" + i, 100));
                assertThat(uploader.stats().concurrencyLimit()).isBetween(1, 6);
            }
            assertThat(storage.maxInFlight).hasValueLessThanOrEqualTo(6);
        }
    }
}
