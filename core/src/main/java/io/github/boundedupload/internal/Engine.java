package io.github.boundedupload.internal;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.spi.ContextPropagator;
import io.github.boundedupload.support.Causes;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the batches and calls of one uploader share: its settings, storage, listeners, threads and timers, and the
 * one lock that guards all mutable state (fields marked "guarded", and the state of {@link Batch}, {@link Call},
 * {@link Dispatcher} and {@link Rollbacks}). Nothing slow happens under the lock: see {@link Effects}.
 */
final class Engine {

    static final Logger LOG = LoggerFactory.getLogger(ConcurrentAttachmentUploader.class);

    final String name;
    final UploaderConfig config;
    final Storage storage;
    final Listeners listener;
    final UploadThreads threads = new UploadThreads();
    final @Nullable ExecutorService ownExecutor;
    final Executor executor;
    final Timeouts timeouts;
    final ReentrantLock lock = new ReentrantLock();
    /** Signalled when queue space frees up, a batch finishes or a rollback settles. */
    final Condition changed = lock.newCondition();
    final Dispatcher dispatcher;
    final Policy policy;
    final Sweep sweep;
    final Rollbacks rollbacks = new Rollbacks(this);
    // Guarded by lock:
    /** Batches admitted and not yet finished. */
    final Set<Batch> running = new LinkedHashSet<>();
    /** Uploads admitted and not yet started, and deletes waiting for their next try. */
    int queued;
    /** Calls given up on that have not returned. */
    int stuck;
    boolean closed;
    /** The end of {@code close()}: nothing waits or retries any more; what is left is reported. Read outside too. */
    volatile boolean stopping;

    Engine(Storage storage, UploaderConfig config) {
        this.storage = storage;
        this.config = config;
        this.name = config.name();
        this.listener = new Listeners(config.listeners());
        ExecutorService own = config.executor().isPresent() ? null : threads.create(config, storage.blocking());
        this.ownExecutor = own;
        this.executor = own != null ? own : config.executor().orElseThrow();
        this.timeouts = new Timeouts(threads.timer(config));
        this.dispatcher = new Dispatcher(config.maxConcurrentUploads(), config.concurrencyLimit().orElse(null),
                config.maxBytesInFlight());
        this.policy = Policy.of(config.failurePolicy());
        this.sweep = new Sweep(this);
    }

    /** A call was given up on ({@code +1}) or returned after all ({@code -1}): the own pool grows or shrinks. */
    void resizePool(int delta) {
        UploadThreads.resize(ownExecutor, delta);
    }

    /**
     * Runs with the batch's context; a failing propagator costs the context, never the action: an action the context
     * did not run (it failed first, or dropped the action) runs without it, and the action's own failure is the one
     * that propagates.
     */
    static void inContext(ContextPropagator.Captured context, Runnable action) {
        InContext run = new InContext(action);
        boolean contextFailed = false;
        try {
            context.run(run);
        } catch (RuntimeException | Error e) {
            if (e != run.failure) {
                contextFailed = true;
                LOG.warn(run.started ? "the context propagator failed to restore a context"
                        : "the context propagator failed to apply a context", e);
            }
        }
        if (!run.started) {
            if (!contextFailed) {
                LOG.warn("the context propagator did not run an action: it runs without the context");
            }
            run.run();
        }
        run.rethrow();
    }

    /** An action run once, remembering whether it started and how it failed. */
    private static final class InContext implements Runnable {
        private final Runnable action;
        boolean started;
        @Nullable Throwable failure;

        InContext(Runnable action) {
            this.action = action;
        }

        @Override
        public void run() {
            if (started) {
                return;
            }
            started = true;
            try {
                action.run();
            } catch (RuntimeException | Error e) {
                failure = e;
                throw e;
            }
        }

        void rethrow() {
            if (failure instanceof RuntimeException) {
                throw (RuntimeException) failure;
            }
            if (failure instanceof Error) {
                throw (Error) failure;
            }
        }
    }

    /**
     * Whether a failure is (or was caused by) an interrupt or cancellation, rather than a failure of its own,
     * whatever the storage wrapped it in: the uploader's own reason, the JDK's interrupt and cancellation
     * exceptions, or an {@link UploadException} that says so.
     */
    static boolean isCancellation(Throwable failure, Throwable cancelReason) {
        return Causes.any(failure, t -> t == cancelReason || Causes.isInterrupt(t) || t instanceof CancellationException
                || t instanceof UploadException && ((UploadException) t).isCancellation());
    }

    /** Whether a failure says the storage is overloaded (a timeout, a request to slow down, a dropped connection). */
    static boolean isThrottling(@Nullable Throwable failure) {
        return Causes.any(failure, t -> t instanceof UploadException && ((UploadException) t).isThrottling());
    }

    /** Whether the storage may hold something under the key although the upload failed. */
    static boolean mayBeStored(@Nullable Throwable failure) {
        return Causes.any(failure, t -> t instanceof UploadException && ((UploadException) t).mayBeStored());
    }

    /** What a rollback deletes: stored objects, and the keys of failed uploads the storage may hold anyway. */
    static boolean mustDelete(UploadResult result) {
        return result.isStored() || result.status() == Status.FAILED && mayBeStored(result.failure().orElse(null));
    }
}
