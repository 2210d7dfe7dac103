package io.github.boundedupload.internal;

import static io.github.boundedupload.internal.ModelRun.allStored;
import static io.github.boundedupload.internal.ModelRun.failure;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.RejectionPolicy;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploaderClosedException;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.UploaderSaturatedException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckSettings;
import org.junit.jupiter.api.Test;

/**
 * The engine's operations that race, model-checked (Lincheck): submission under each rejection policy, an upload's
 * end, the cancel of a batch's future, a batch timeout, close, and a rollback's delete. In every interleaving the
 * checker explores (a bounded number, {@link #INVOCATIONS}) the bounds hold (the storage checks uploads and bytes in
 * flight and queue places as each upload starts), every waiter whose condition holds is woken (on the test's clock the
 * uploader waits without timeouts, so a lost wake-up is a hang, which the checker reports), and every batch finishes
 * with each attachment stored or failed, the storage holding what the results say ({@link ModelRun#close()}).
 */
class EngineModelCheckTest {

    /** Interleavings explored per test; {@code -Dboundedupload.modelcheck.invocations=...} for a longer run. */
    static final int INVOCATIONS = Integer.getInteger("boundedupload.modelcheck.invocations", 20);

    /**
     * Lincheck's defaults but for the loop bound, 50, past which a loop in a run counts as never ending: the engine
     * quotes a failure's message into the batch's, up to 64 characters in a loop ({@code SafeText.quote}). Lincheck
     * 3.7's {@code runConcurrentTest} takes no settings; its Kotlin-internal twin (hence the mangled name) does.
     */
    private static final LincheckSettings SETTINGS = new LincheckSettings(true, 10, 200, 20);

    /** One upload at a time, two queue places: a batch of two holds one place while its first upload runs. */
    private static UploaderConfig.Builder onePermitTwoPlaces(RejectionPolicy policy) {
        return config().maxConcurrentUploads(1).maxConcurrentUploadsPerBatch(1).maxQueuedUploads(2)
                .maxAttachmentsPerBatch(2).rejectionPolicy(policy);
    }

    /**
     * Regression test (issue 47, the BLOCK defect): a batch waiting under BLOCK for queue places was woken only when
     * some batch finished or settled, or at its block timeout, not when places freed. The first batch's first upload
     * runs and its second waits in the queue (one place of two taken); a second batch of two waits for places while the
     * first upload ends, so that the next one starts and both places are free. The second batch must be admitted then,
     * while the first batch still runs and the clock stands still.
     */
    @Test
    void aBatchWaitingUnderBlockIsAdmittedWhenPlacesFree() {
        check(onePermitTwoPlaces(RejectionPolicy.BLOCK), List.of("first"), run -> {
            CompletableFuture<BatchResult> first = run.submit("first", 2);
            AtomicReference<CompletableFuture<BatchResult>> second = new AtomicReference<>();
            Thread submits = run.forks.fork(() -> second.set(run.submit("second", 2)));
            Thread ends = run.forks.fork(() -> run.storage.answer(1));

            Forks.join(submits); // admitted while the first batch's second upload still waits for its answer
            Forks.join(ends);
            Check.that(!first.isDone(), () -> "the first batch finished before its second upload was answered");
            run.storage.answer(1);
            run.awaitThreads();
            allStored(second.get());
            allStored(first);
            run.close();
        });
    }

    /**
     * ABORT: a batch that does not fit is refused whole, and only when the queue was full at that moment (the
     * exception's count); one that fits runs. Races with an upload's end, which frees a place.
     */
    @Test
    void underAbortABatchIsRefusedWholeOnlyWhenThePlacesAreTaken() {
        check(onePermitTwoPlaces(RejectionPolicy.ABORT), List.of("first"), run -> {
            CompletableFuture<BatchResult> first = run.submit("first", 2);
            AtomicReference<CompletableFuture<BatchResult>> second = new AtomicReference<>();
            Thread submits = run.forks.fork(() -> second.set(run.submit("second", 2)));
            Thread ends = run.forks.fork(() -> run.storage.answer(1));

            Forks.join(submits);
            Forks.join(ends);
            run.storage.answer(1);
            run.awaitThreads();
            allStored(first);
            Throwable refused = failure(second.get());
            if (refused != null) {
                Check.that(refused instanceof UploaderSaturatedException, () -> "failed otherwise: " + refused);
                UploaderSaturatedException saturated = (UploaderSaturatedException) refused;
                Check.that(saturated.queued() + saturated.batchSize() > saturated.maxQueued(),
                        () -> "refused although it fit: " + saturated.getMessage());
                Check.that(!run.reachedStorage("second"), () -> "a refused batch reached the storage");
            }
            run.close();
        });
    }

    /**
     * CALLER_RUNS: a batch that does not fit runs on its submitting thread, within the permits (it waits for the first
     * batch's upload to end), and is complete when the submission returns; one that fits runs in the pool.
     */
    @Test
    void underCallerRunsABatchThatDoesNotFitRunsOnItsCallerWithinThePermits() {
        check(onePermitTwoPlaces(RejectionPolicy.CALLER_RUNS), List.of("first"), run -> {
            CompletableFuture<BatchResult> first = run.submit("first", 2);
            AtomicReference<CompletableFuture<BatchResult>> second = new AtomicReference<>();
            AtomicReference<Boolean> doneOnReturn = new AtomicReference<>();
            Thread submits = run.forks.fork(() -> {
                CompletableFuture<BatchResult> future = run.submit("second", 2);
                doneOnReturn.set(future.isDone());
                second.set(future);
            });
            Thread ends = run.forks.fork(() -> run.storage.answer(1));

            run.storage.answer(1);
            run.awaitThreads();
            allStored(second.get());
            allStored(first);
            if (run.storage.ranOn.get("second-0") == submits) {
                Check.that(doneOnReturn.get(), () -> "a batch run on its caller was not complete when the call returned");
            }
            run.close();
        });
    }

    /**
     * Cancelling a batch's future stops it (its queued upload leaves the queue, its running one is interrupted, what
     * it stored is deleted) while another batch waits under BLOCK for the places it frees and an upload's answer
     * comes: the waiter is admitted, and nothing of the cancelled batch stays stored.
     */
    @Test
    void cancellingABatchFreesItsPlacesForAWaiterAndLeavesNothingStored() {
        check(onePermitTwoPlaces(RejectionPolicy.BLOCK), List.of("first"), run -> {
            CompletableFuture<BatchResult> first = run.submit("first", 2);
            AtomicReference<CompletableFuture<BatchResult>> second = new AtomicReference<>();
            Thread submits = run.forks.fork(() -> second.set(run.submit("second", 2)));
            Thread cancels = run.forks.fork(() -> first.cancel(true));

            Forks.join(cancels);
            Forks.join(submits); // admitted: the cancel took the first batch's queued upload out of the queue
            run.storage.answer(2); // whatever of the first batch still waits for the storage (an interrupt may not)
            run.awaitThreads();
            allStored(second.get());
            Check.that(first.isCancelled(), () -> "the cancelled future completed otherwise");
            run.close(); // checks that nothing of the first batch is stored
        });
    }

    /**
     * The batch timeout fires when the test's clock passes it (the sweep runs on the advancing thread) while the
     * storage answers: the batch finishes either stored or failed, with what it stored deleted (all-or-nothing).
     */
    @Test
    void aBatchTimeoutFailsWhatIsNotDoneAndDeletesWhatIsStored() {
        Duration batchTimeout = Duration.ofHours(2);
        check(onePermitTwoPlaces(RejectionPolicy.ABORT).batchTimeout(batchTimeout), List.of("first"), run -> {
            CompletableFuture<BatchResult> first = run.submit("first", 2);
            Thread ticks = run.forks.fork(() -> run.clock.advance(batchTimeout.plusHours(1)));
            Thread ends = run.forks.fork(() -> run.storage.answer(1));

            Forks.join(ticks);
            Forks.join(ends);
            run.storage.answer(1); // the second upload, if the timeout did not stop it first
            run.awaitThreads();
            Throwable failure = failure(first);
            if (failure != null) {
                Check.that(failure instanceof BatchFailedException, () -> "failed otherwise: " + failure);
                Check.that(((BatchFailedException) failure).result().results().stream()
                        .noneMatch(result -> result.status() == Status.STORED), () -> "a failed batch kept a result stored");
            }
            run.close();
        });
    }

    /**
     * A batch waiting under BLOCK when the uploader closes is woken and refused; close waits for the running batch,
     * whose uploads the storage answers meanwhile. Whichever comes first, nothing is left behind.
     */
    @Test
    void closeWakesABatchWaitingUnderBlockAndWaitsForTheRunningOne() {
        check(onePermitTwoPlaces(RejectionPolicy.BLOCK), List.of("first"), run -> {
            CompletableFuture<BatchResult> first = run.submit("first", 2);
            AtomicReference<CompletableFuture<BatchResult>> second = new AtomicReference<>();
            Thread submits = run.forks.fork(() -> second.set(run.submit("second", 2)));
            Thread closes = run.forks.fork(run.uploader::close);

            run.storage.answer(2);
            run.awaitThreads();
            allStored(first);
            Throwable refused = failure(second.get());
            Check.that(refused == null || refused instanceof UploaderClosedException, () -> "failed otherwise: " + refused);
            run.close();
        });
    }

    /**
     * A failure under ALL_OR_NOTHING stops the batch and deletes what it stored, while another batch waits under BLOCK
     * for the places: the batch fails with the stored attachment DELETED, the waiter is admitted and runs.
     */
    @Test
    void aRollbackDeletesWhatAFailedBatchStoredWhileAnotherWaitsForPlaces() {
        check(onePermitTwoPlaces(RejectionPolicy.BLOCK), List.of("first"), run -> {
            run.storage.fail("first-1");
            CompletableFuture<BatchResult> first = run.submit("first", 2);
            AtomicReference<CompletableFuture<BatchResult>> second = new AtomicReference<>();
            Thread submits = run.forks.fork(() -> second.set(run.submit("second", 2)));
            Thread ends = run.forks.fork(() -> run.storage.answer(2));

            run.awaitThreads();
            allStored(second.get());
            Throwable failure = failure(first);
            Check.that(failure instanceof BatchFailedException, () -> "the batch did not fail: " + failure);
            BatchResult result = ((BatchFailedException) failure).result();
            Check.that(result.results().get(0).status() == Status.DELETED, () -> "not deleted: " + result);
            Check.that(result.results().get(1).status() == Status.FAILED, () -> "not failed: " + result);
            run.close();
        });
    }

    // ---- the harness ------------------------------------------------------------------------------------------

    /**
     * Model-checks the scenario on an uploader with these settings, over a storage that holds the uploads of the
     * batches named. The settings are built once, outside the checker: their checks match a regular expression, whose
     * loops over its groups the checker would take for spinning.
     *
     * <p>The checker instruments a class the first time a run meets it, within the first run's time limit, one class
     * at a time, but all at once beforehand the classes of the objects the checked block holds. So the block holds a
     * warm uploader of the same settings with a batch in flight (its engine, queue, batch, uploads, settlement), made
     * and finished outside the checker.
     */
    private static void check(UploaderConfig.Builder settings, List<String> heldBatches,
            Consumer<ModelRun> scenario) {
        Forks forks = new Forks();
        UploaderConfig config = settings.executor(forks).build();
        ModelRun warm = new ModelRun(config, forks, List.of("warm"));
        CompletableFuture<BatchResult> inFlight = warm.submit("warm", 1);
        try {
            Lincheck.runConcurrentTestInternal$lincheck(INVOCATIONS, SETTINGS,
                    new Block(() -> scenario.accept(new ModelRun(config, forks, heldBatches)), warm, inFlight));
        } finally {
            warm.storage.answer(1);
            inFlight.join();
            warm.uploader.close();
        }
    }

    private static UploaderConfig.Builder config() {
        return UploaderConfig.builder().blockTimeout(Duration.ofHours(1)).batchTimeout(Duration.ofHours(2))
                .uploadTimeout(Duration.ofHours(1)).shutdownGracePeriod(Duration.ofHours(1))
                .stopTimeout(Duration.ofHours(1)).keyStrategy(Attachment::fileName);
    }

    /** The checked block, and what it holds for the checker to instrument before the first run. */
    private static final class Block implements Runnable {
        private final Runnable body;
        @SuppressWarnings({"unused", "FieldCanBeLocal"}) // read by the checker only
        private final Object[] warm;

        Block(Runnable body, Object... warm) {
            this.body = body;
            this.warm = warm;
        }

        @Override
        public void run() {
            body.run();
        }
    }
}
