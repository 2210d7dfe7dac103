package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import io.github.boundedupload.fakes.Gate;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Each rejection policy under saturation: one upload runs, four wait, and the queue holds five. A second batch of two
 * does not fit.
 */
class RejectionPolicyTest {

    private final FakeStorage storage = new FakeStorage();
    private final Gate gate = new Gate();
    private ConcurrentAttachmentUploader uploader;
    private CompletableFuture<BatchResult> first;

    private void saturate(RejectionPolicy policy, Duration blockTimeout) {
        saturate(policy, blockTimeout, gate::pass);
    }

    /** Saturates the uploader with the first batch, whose uploads each wait for {@code wait}. */
    private void saturate(RejectionPolicy policy, Duration blockTimeout, Waiting wait) {
        storage.behaviour = request -> {
            if (request.metadata().get("batch").equals("first")) {
                wait.pass();
            }
        };
        uploader = ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder()
                .maxConcurrentUploads(1).maxConcurrentUploadsPerBatch(1)
                .maxQueuedUploads(5).maxAttachmentsPerBatch(5)
                .rejectionPolicy(policy).blockTimeout(blockTimeout).build());
        first = uploader.uploadAllAsync(Batches.of("first", 5));
        await().until(() -> storage.inFlight.get() == 1);
        assertThat(uploader.stats().queuedUploads()).isEqualTo(4);
    }

    /** What each upload of the first batch waits for. */
    @FunctionalInterface
    private interface Waiting {
        void pass() throws InterruptedException;
    }

    @AfterEach
    void close() {
        gate.open();
        if (uploader != null) {
            uploader.close();
        }
    }

    @Test
    void abortRefusesTheBatchAtOnceAndStartsNothing() {
        saturate(RejectionPolicy.ABORT, Duration.ofSeconds(10));

        assertThatThrownBy(() -> uploader.uploadAll(Batches.of("second", 2)))
                .isInstanceOfSatisfying(UploaderSaturatedException.class, e -> {
                    assertThat(e.batchSize()).isEqualTo(2);
                    assertThat(e.queued()).isEqualTo(4);
                    assertThat(e.maxQueued()).isEqualTo(5);
                    assertThat(e).hasMessageContaining("ABORT").hasMessageContaining("'default'");
                });

        gate.open();
        assertThat(first.join().allStored()).isTrue();
        assertThat(storage.started).noneMatch(key -> key.contains("second"));
        assertThat(storage.objects).hasSize(5);
    }

    @Test
    void abortIsReportedAsAFailedFutureByTheAsyncVariant() {
        saturate(RejectionPolicy.ABORT, Duration.ofSeconds(10));

        CompletableFuture<BatchResult> second = uploader.uploadAllAsync(Batches.of("second", 2));

        assertThat(second).isCompletedExceptionally();
        assertThatThrownBy(second::join).hasCauseInstanceOf(UploaderSaturatedException.class);
    }

    @Test
    void aBatchThatFitsIsAdmittedWhileAnotherWaits() {
        saturate(RejectionPolicy.ABORT, Duration.ofSeconds(10));

        CompletableFuture<BatchResult> second = uploader.uploadAllAsync(Batches.of("second", 1));

        gate.open();
        assertThat(second.join().allStored()).isTrue();
    }

    @Test
    void blockWaitsForQueueSpaceThenRuns() {
        saturate(RejectionPolicy.BLOCK, Duration.ofMinutes(1));

        CompletableFuture<BatchResult> second = CompletableFuture.supplyAsync(
                () -> uploader.uploadAll(Batches.of("second", 2)));
        await().during(Duration.ofMillis(200)).until(() -> !second.isDone());
        assertThat(storage.started).noneMatch(key -> key.contains("second"));

        gate.open();
        assertThat(second.join().allStored()).isTrue();
        assertThat(first.join().allStored()).isTrue();
        assertThat(storage.objects).hasSize(7);
    }

    /**
     * Regression test (issue "One writer for every piece of engine state"): the queue's count fell when a queued upload
     * started, but nothing woke a batch waiting under BLOCK; it was admitted only when some batch finished or settled,
     * or refused at its block timeout. Here the first batch goes on (its next upload holds the one permit) and never
     * finishes while the second waits: it must be admitted as soon as its two places are free.
     */
    @Test
    void blockAdmitsABatchAsSoonAsItsPlacesFreeNotOnlyWhenAnotherBatchEnds() throws Exception {
        Semaphore passes = new Semaphore(0);
        saturate(RejectionPolicy.BLOCK, Duration.ofMinutes(5), passes::acquire);
        CompletableFuture<CompletableFuture<BatchResult>> admitted = CompletableFuture.supplyAsync(
                () -> uploader.uploadAllAsync(Batches.of("second", 2)));
        await().during(Duration.ofMillis(200)).until(() -> !admitted.isDone()); // 4 queued + 2 > 5

        passes.release(); // the first upload ends, the next one starts: 3 queued, and the second batch fits
        await().atMost(Duration.ofSeconds(30)).until(admitted::isDone);

        assertThat(first).isNotDone();
        assertThat(uploader.stats().queuedUploads()).isEqualTo(5);
        passes.release(100);
        assertThat(admitted.join().join().allStored()).isTrue();
        assertThat(first.join().allStored()).isTrue();
    }

    @Test
    void blockGivesUpAfterItsTimeoutAndStartsNothing() {
        saturate(RejectionPolicy.BLOCK, Duration.ofMillis(100));

        assertThatThrownBy(() -> uploader.uploadAll(Batches.of("second", 2)))
                .isInstanceOf(UploaderSaturatedException.class)
                .hasMessageContaining("BLOCK");
        assertThat(storage.started).noneMatch(key -> key.contains("second"));
    }

    @Test
    void callerRunsUploadsOnTheCallingThreadWithinTheGlobalBound() {
        saturate(RejectionPolicy.CALLER_RUNS, Duration.ofSeconds(10));
        Thread caller = Thread.currentThread();

        // The single permit is held by "first": the caller gets it when the gate opens, and does the work itself.
        CompletableFuture.runAsync(() -> {
            await().until(() -> caller.getState() == Thread.State.WAITING);
            gate.open();
        });
        BatchResult result = uploader.uploadAll(Batches.of("second", 2));

        assertThat(result.allStored()).isTrue();
        for (StoredObject stored : result.storedObjects()) {
            assertThat(storage.threadByKey.get(stored.key())).isSameAs(caller);
        }
        assertThat(storage.maxInFlight).hasValue(1);
        assertThat(first.join().allStored()).isTrue();
    }
}
