package io.github.boundedupload.internal;

import io.github.boundedupload.RejectionPolicy;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploaderClosedException;
import io.github.boundedupload.UploaderConfig;

/**
 * Whether a checked batch joins the queue, and what the {@link RejectionPolicy} does when it does not fit: a switch
 * over the policy, where {@code BLOCK} waits for space (the lock free meanwhile) and then refuses like {@code ABORT},
 * and {@code CALLER_RUNS} hands the batch to its submitting thread. The queue is the dispatcher's count of uploads
 * admitted and not started and deletes waiting for their next try; a batch is admitted whole or not at all. Runs
 * under the dispatcher's lock. Changes when a rejection policy is added or behaves otherwise.
 */
final class Admission {

    /** What becomes of a batch. */
    enum Verdict {
        /** It joins the queue. */
        QUEUED,
        /** The calling thread uploads it, one attachment after another, within the permits (back-pressure). */
        ON_CALLER,
        /** It is refused; nothing of it starts. */
        REFUSED
    }

    private final Engine engine;

    Admission(Engine engine) {
        this.engine = engine;
    }

    /**
     * Under the lock: the verdict for a batch of {@code size} submitted at {@code submitted}
     * ({@link Ticker#nanoTime()}).
     *
     * @throws UploaderClosedException when the uploader is closed
     */
    Verdict admit(int size, long submitted) {
        Verdict verdict = fits(size) ? Verdict.QUEUED : whenFull(size, submitted);
        if (engine.closed()) {
            throw new UploaderClosedException(engine.name, "it takes no new batch");
        }
        return verdict;
    }

    private Verdict whenFull(int size, long submitted) {
        switch (engine.config.rejectionPolicy()) {
            case CALLER_RUNS:
                return Verdict.ON_CALLER;
            case BLOCK:
                return awaitSpace(size, submitted) ? Verdict.QUEUED : Verdict.REFUSED;
            default:
                return Verdict.REFUSED;
        }
    }

    private boolean fits(int size) {
        return engine.closed() || engine.queue.queued() + size <= engine.config.maxQueuedUploads();
    }

    /**
     * Waits for queue space, for at most the block timeout or the batch timeout, whichever is shorter (a batch cannot
     * wait longer than it may take in all); {@code false} when none came.
     */
    private boolean awaitSpace(int size, long submitted) {
        UploaderConfig config = engine.config;
        long deadline = submitted + Math.min(config.blockTimeout().toNanos(), config.batchTimeout().toNanos());
        try {
            return engine.steps.awaitLocked(() -> fits(size), deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UploadException("interrupted while waiting for queue space; nothing was started", e);
        }
    }
}
