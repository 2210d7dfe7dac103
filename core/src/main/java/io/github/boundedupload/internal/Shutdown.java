package io.github.boundedupload.internal;

import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploaderClosedException;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.internal.step.StepLock;
import io.github.boundedupload.internal.step.Ticker;
import io.github.boundedupload.support.SafeText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * How an uploader closes: it takes no new batch; lets running batches and rollbacks finish within the grace period;
 * then cancels the batches still running (rolling them back under all-or-nothing) and gives them two stop timeouts to
 * finish: one for cancelled calls to stop (or be given up on), one for the first try of their deletes. Whatever is left
 * after that (deletes waiting for another try, calls that do not return) is given up and reported, by name, every batch
 * is complete and settled, and the threads are stopped; a thread stuck in a call it abandoned is a daemon thread, which
 * does not keep the JVM from exiting. Returns within the grace period plus two stop timeouts (plus the time
 * listeners and the storage take to return from calls that do not block). Changes when the way an uploader closes
 * changes.
 */
final class Shutdown {

    /** How long close() waits for finished batches' futures to be completed by the threads that finished them. */
    private static final Duration COMPLETION_WAIT = Duration.ofSeconds(5);

    private final Engine engine;

    Shutdown(Engine engine) {
        this.engine = engine;
    }

    /** Closes the uploader; {@code false} when it was closed already. */
    boolean close() {
        StepLock steps = engine.steps;
        boolean closing = steps.compute(effects -> {
            boolean wasOpen = engine.close();
            if (wasOpen) {
                steps.signalAll();
            }
            return wasOpen;
        });
        if (!closing) {
            return false;
        }
        UploaderConfig config = engine.config;
        long graceEnd = engine.ticker.nanoTime() + config.shutdownGracePeriod().toNanos();
        if (!await(() -> engine.running.isEmpty() && engine.rollbacks.pending() == 0, graceEnd)) {
            UploaderClosedException reason = new UploaderClosedException(engine.name,
                    "the batch did not finish within the shutdown grace period of " + config.shutdownGracePeriod());
            steps.run(effects -> {
                for (Batch batch : new ArrayList<>(engine.running)) {
                    batch.stop(i -> reason, Status.CANCELLED, engine.policy.rollsBackWhenStopped(), effects);
                }
            });
        }
        long end = engine.ticker.nanoTime() + 2 * config.stopTimeout().toNanos();
        await(engine.running::isEmpty, end);
        stopEverything();
        awaitCompleted(new ArrayList<>(engine.completing), engine.ticker);
        stopThreads(end);
        return true;
    }

    /**
     * Waits for the futures of batches that have finished but are not complete yet: the thread that finished one
     * completes it outside the lock, after keeping it in the journal and telling the listeners' batchFinished. Every
     * batch is complete when close() returns. Untimed when the ticker's waits are (a test's clock, which stands
     * still).
     */
    private static void awaitCompleted(List<Batch> batches, Ticker ticker) {
        long deadline = ticker.nanoTime() + COMPLETION_WAIT.toNanos();
        for (Batch batch : batches) {
            try {
                CompletableFuture<@Nullable Void> completed = batch.done.handle((result, failure) -> null);
                if (ticker.timedWaits()) {
                    completed.get(Math.max(0, deadline - ticker.nanoTime()), TimeUnit.NANOSECONDS);
                } else {
                    completed.get();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException | TimeoutException e) {
                Engine.LOG.error("uploader '{}' closed before {} was reported complete (a listener of batchFinished"
                        + " still running?)", batch.engine.name, batch);
            }
        }
    }

    /** Waits until the condition holds or the deadline passes; whether it got there. */
    private boolean await(BooleanSupplier condition, long deadline) {
        try {
            return engine.steps.await(condition, deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The end of waiting: deletes waiting for a retry are given up, and calls still running are given up on, so that
     * every batch completes now and what is left is reported.
     */
    private void stopEverything() {
        List<Call> running = engine.steps.compute(effects -> {
            engine.stop();
            engine.rollbacks.giveUpWaiting(effects);
            return engine.queue.running();
        });
        UploaderClosedException reason = new UploaderClosedException(engine.name,
                "it stopped waiting for its calls to the storage");
        for (Call call : running) {
            call.cancel(reason, Status.CANCELLED);
            call.abandon();
        }
        List<Batch> left = engine.steps.read(() -> new ArrayList<>(engine.running));
        if (!left.isEmpty()) {
            Engine.LOG.error("uploader '{}' closed while batches had not completed: {}; please report this",
                    engine.name, left);
        }
        abandonStuck();
    }

    /**
     * Calls given up on that have not returned are not waited for any more: their attachments may be stored
     * (POSSIBLY_STORED), their batches settle now, and the log names each one.
     */
    private void abandonStuck() {
        List<Call> stuck = engine.steps.compute(effects -> {
            List<Call> calls = new ArrayList<>(engine.abandoned);
            for (Call call : calls) {
                call.batch.abandonedAtClose(call, effects);
            }
            return calls;
        });
        if (!stuck.isEmpty()) {
            Engine.LOG.error("uploader '{}' closed and abandoned {} call(s) to the storage that did not return: {};"
                    + " the storage may hold something under their keys (their results say POSSIBLY_STORED), and"
                    + " something else must remove it (a call that returns after all has what it stored deleted,"
                    + " once){}", engine.name, stuck.size(),
                    stuck.stream().map(Shutdown::name).collect(Collectors.joining("; ")),
                    engine.ownExecutor != null ? "; the uploader's threads are daemon threads and do not keep the JVM"
                            + " from exiting" : "; they hold threads of the application's executor");
        }
    }

    private static String name(Call call) {
        return (call instanceof DeleteCall ? "deleting " : "uploading ") + call.describe() + " (key "
                + SafeText.quote(call.key) + ") of " + call.batch;
    }

    private void stopThreads(long end) {
        engine.timeouts.close();
        if (engine.ownExecutor != null) {
            engine.ownExecutor.shutdown();
        }
        try {
            if (!engine.threads.join(Math.max(0, end - engine.ticker.nanoTime()))) {
                if (engine.ownExecutor != null) {
                    engine.ownExecutor.shutdownNow();
                }
                if (!engine.threads.join(TimeUnit.MILLISECONDS.toNanos(100))) {
                    Engine.LOG.error("uploader '{}': some of its threads did not stop; {} calls to the storage are"
                            + " stuck (named above); they are daemon threads, which do not keep the JVM from exiting",
                            engine.name, engine.steps.read(() -> engine.stuck()));
                }
            }
        } catch (InterruptedException e) {
            if (engine.ownExecutor != null) {
                engine.ownExecutor.shutdownNow();
            }
            Thread.currentThread().interrupt();
        }
    }
}
