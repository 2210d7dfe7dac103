package io.github.boundedupload.internal;

import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploaderClosedException;
import io.github.boundedupload.UploaderConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * How an uploader closes: it takes no new batch; lets running batches and rollbacks finish within the grace period;
 * then cancels the batches still running (rolling them back under all-or-nothing) and gives them two stop timeouts to
 * finish: one for cancelled calls to stop (or be given up on), one for the first try of their deletes. Whatever is left
 * after that (deletes waiting for another try, calls that do not return) is given up and reported, every batch is
 * complete and settled, and the threads are stopped. Returns within the grace period plus two stop timeouts (plus the
 * time listeners and the storage take to return from calls that do not block). Changes when the way an uploader closes
 * changes.
 */
final class Shutdown {

    private final Engine engine;

    Shutdown(Engine engine) {
        this.engine = engine;
    }

    /** Closes the uploader; {@code false} when it was closed already. */
    boolean close() {
        Dispatcher dispatcher = engine.dispatcher;
        boolean closing = dispatcher.call(effects -> {
            if (engine.closed) {
                return false;
            }
            engine.closed = true;
            dispatcher.signalAll();
            return true;
        });
        if (!closing) {
            return false;
        }
        UploaderConfig config = engine.config;
        long graceEnd = System.nanoTime() + config.shutdownGracePeriod().toNanos();
        if (!await(() -> engine.running.isEmpty() && engine.rollbacks.pending() == 0, graceEnd)) {
            UploaderClosedException reason = new UploaderClosedException(engine.name,
                    "the batch did not finish within the shutdown grace period of " + config.shutdownGracePeriod());
            dispatcher.run(effects -> {
                for (Batch batch : new ArrayList<>(engine.running)) {
                    batch.stop(i -> reason, Status.CANCELLED, engine.policy.rollsBackWhenStopped(), effects);
                }
            });
        }
        long end = System.nanoTime() + 2 * config.stopTimeout().toNanos();
        await(engine.running::isEmpty, end);
        stopEverything();
        stopThreads(end);
        return true;
    }

    /** Waits until the condition holds or the deadline passes; whether it got there. */
    private boolean await(BooleanSupplier condition, long deadline) {
        try {
            return engine.dispatcher.await(condition, deadline);
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
        List<Call> running = engine.dispatcher.call(effects -> {
            engine.stopping = true;
            engine.rollbacks.giveUpWaiting(effects);
            return engine.dispatcher.running();
        });
        UploaderClosedException reason = new UploaderClosedException(engine.name,
                "it stopped waiting for its calls to the storage");
        for (Call call : running) {
            call.cancel(reason, Status.CANCELLED);
            call.abandon();
        }
        List<Batch> left = engine.dispatcher.read(() -> new ArrayList<>(engine.running));
        if (!left.isEmpty()) {
            Engine.LOG.error("uploader '{}' closed while batches had not completed: {}; please report this",
                    engine.name, left);
        }
        abandonStuck();
    }

    /**
     * Calls given up on that have not returned are not waited for any more: their attachments may be stored
     * (POSSIBLY_STORED), and their batches settle now.
     */
    private void abandonStuck() {
        engine.dispatcher.run(effects -> {
            for (Call call : engine.abandoned) {
                call.batch.abandonedAtClose(call, effects);
            }
        });
    }

    private void stopThreads(long end) {
        engine.timeouts.close();
        if (engine.ownExecutor != null) {
            engine.ownExecutor.shutdown();
        }
        try {
            if (!engine.threads.join(Math.max(0, end - System.nanoTime()))) {
                if (engine.ownExecutor != null) {
                    engine.ownExecutor.shutdownNow();
                }
                if (!engine.threads.join(TimeUnit.MILLISECONDS.toNanos(100))) {
                    Engine.LOG.error("uploader '{}': some of its threads did not stop; {} calls to the storage are"
                            + " stuck", engine.name, engine.dispatcher.read(() -> engine.stuck));
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
