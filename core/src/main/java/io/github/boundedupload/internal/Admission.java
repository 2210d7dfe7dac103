package io.github.boundedupload.internal;

import io.github.boundedupload.RejectionPolicy;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploaderConfig;

/**
 * Whether a checked batch joins the queue, and what the {@link RejectionPolicy} does when it does not fit: one small
 * strategy per policy instead of branches (Netflix concurrency-limits' {@code BlockingLimiter.wrap} is the model:
 * waiting is a decorator of refusing). The queue holds uploads admitted and not started, and deletes waiting for their
 * next try; a batch is admitted whole or not at all. Runs under the engine's lock.
 */
abstract class Admission {

    /** What becomes of a batch. */
    enum Verdict {
        /** It joins the queue. */
        QUEUED,
        /** The calling thread uploads it, one attachment after another, within the permits (back-pressure). */
        ON_CALLER,
        /** It is refused; nothing of it starts. */
        REFUSED
    }

    final Engine engine;

    private Admission(Engine engine) {
        this.engine = engine;
    }

    static Admission of(Engine engine) {
        switch (engine.config.rejectionPolicy()) {
            case CALLER_RUNS:
                return new Admission(engine) {
                    @Override
                    Verdict whenFull(int size, long submitted) {
                        return Verdict.ON_CALLER;
                    }
                };
            case BLOCK:
                return new Admission(engine) {
                    @Override
                    Verdict whenFull(int size, long submitted) {
                        return awaitSpace(size, submitted) ? Verdict.QUEUED : Verdict.REFUSED;
                    }
                };
            default:
                return new Admission(engine) {
                    @Override
                    Verdict whenFull(int size, long submitted) {
                        return Verdict.REFUSED;
                    }
                };
        }
    }

    /** Under the lock: the verdict for a batch of {@code size} submitted at {@code submitted} (System.nanoTime). */
    final Verdict admit(int size, long submitted) {
        return engine.closed || fits(size) ? Verdict.QUEUED : whenFull(size, submitted);
    }

    /** The batch does not fit now. */
    abstract Verdict whenFull(int size, long submitted);

    final boolean fits(int size) {
        return engine.queued + size <= engine.config.maxQueuedUploads();
    }

    /**
     * Waits for queue space, releasing the lock meanwhile, for at most the block timeout or the batch timeout,
     * whichever is shorter (a batch cannot wait longer than it may take in all); {@code false} when none came.
     */
    final boolean awaitSpace(int size, long submitted) {
        UploaderConfig config = engine.config;
        long deadline = submitted + Math.min(config.blockTimeout().toNanos(), config.batchTimeout().toNanos());
        try {
            while (!fits(size) && !engine.closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                engine.changed.awaitNanos(left);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UploadException("interrupted while waiting for queue space; nothing was started", e);
        }
    }
}
