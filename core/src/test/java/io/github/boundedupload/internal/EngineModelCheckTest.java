package io.github.boundedupload.internal;

import static io.github.boundedupload.internal.ModelRun.allStored;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.RejectionPolicy;
import io.github.boundedupload.UploaderConfig;
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
    static final int INVOCATIONS = Integer.getInteger("boundedupload.modelcheck.invocations", 50);

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
