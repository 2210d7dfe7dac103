package io.github.boundedupload.internal;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploaderClosedException;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.UploaderSaturatedException;
import io.github.boundedupload.UploaderStats;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.ContextPropagator;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadJournal;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.spi.UploaderEvent;
import io.github.boundedupload.support.SafeText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The uploader's face: submission and shutdown. All waiting is data, not threads: a {@link Batch} offers a window of its
 * attachments to the {@link Dispatcher}'s FIFO queue, a {@link Call} leaves it when a permit (and its bytes) is free
 * and only then takes a thread; {@link Rollbacks} undoes failed batches until the storage confirms. The flow and the
 * file that owns each step are drawn in {@code docs/design.md}.
 */
public final class DefaultConcurrentAttachmentUploader implements ConcurrentAttachmentUploader {

    private static final BatchResult EMPTY = new BatchResult(List.of());

    private final Engine engine;
    private final Admission admission;
    private final AtomicLong batchIds = new AtomicLong();
    /** Held for the uploader's life: gauges keep what they read weakly. */
    private final UploaderEvent event;

    /**
     * The uploader over a blocking storage: what {@code ConcurrentAttachmentUploader.create} returns.
     *
     * @param storage the storage
     * @param config bounds and policies
     * @return a new uploader
     */
    public static ConcurrentAttachmentUploader create(FileUploader storage, UploaderConfig config) {
        return new DefaultConcurrentAttachmentUploader(Storage.of(storage), config);
    }

    /**
     * The uploader over a non-blocking storage: what {@code ConcurrentAttachmentUploader.create} returns.
     *
     * @param storage the storage
     * @param config bounds and policies
     * @return a new uploader
     */
    public static ConcurrentAttachmentUploader create(AsyncFileUploader storage, UploaderConfig config) {
        return new DefaultConcurrentAttachmentUploader(Storage.of(storage), config);
    }

    private DefaultConcurrentAttachmentUploader(Storage storage, UploaderConfig config) {
        this.engine = new Engine(storage, Objects.requireNonNull(config, "config"));
        this.admission = Admission.of(engine);
        this.event = new UploaderEvent(engine.name, config.maxConcurrentUploads(), engine.ownExecutor != null,
                this::stats);
        engine.listener.uploaderCreated(event, engine.executor);
    }

    @Override
    public BatchResult uploadAll(List<Attachment> attachments) {
        Objects.requireNonNull(attachments, "attachments");
        if (attachments.isEmpty()) {
            return EMPTY;
        }
        Batch batch = submit(attachments, true, engine.listener);
        BatchResult result;
        try {
            result = batch.done.get();
        } catch (InterruptedException e) {
            batch.cancel(new CancellationException("the thread waiting for the batch was interrupted"));
            Thread.currentThread().interrupt();
            throw new UploadException("interrupted while waiting for " + batch.event
                    + "; the batch is cancelled and what it stored is deleted again", e);
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        }
        batch.keep();
        return result;
    }

    @Override
    public CompletableFuture<BatchResult> uploadAllAsync(List<Attachment> attachments) {
        return uploadAllAsync(attachments, null);
    }

    @Override
    public CompletableFuture<BatchResult> uploadAllAsync(List<Attachment> attachments,
            @Nullable UploadListener listener) {
        try {
            Objects.requireNonNull(attachments, "attachments");
            if (attachments.isEmpty()) {
                return CompletableFuture.completedFuture(EMPTY);
            }
            Batch batch = submit(attachments, false, listener == null ? engine.listener
                    : new Listeners(List.of(engine.listener, listener)));
            batch.done.whenComplete((result, failure) -> {
                if (batch.done.isCancelled()) {
                    batch.cancel(new CancellationException("the batch's future was cancelled"));
                }
            });
            return batch.done;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public List<String> check(List<Attachment> attachments) {
        Objects.requireNonNull(attachments, "attachments");
        return attachments.isEmpty() ? List.of() : List.of(BatchCheck.of(attachments, engine.config).keys);
    }

    @Override
    public String name() {
        return engine.name;
    }

    @Override
    public UploaderConfig config() {
        return engine.config;
    }

    @Override
    public UploaderStats stats() {
        engine.lock.lock();
        try {
            return new UploaderStats(engine.dispatcher.inFlight(), engine.queued,
                    engine.dispatcher.bytesInFlight(), engine.running.size(), engine.closed,
                    engine.rollbacks.pending(), engine.stuck,
                    engine.config.concurrencyLimit().isPresent() ? engine.dispatcher.limit() : 0);
        } finally {
            engine.lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "ConcurrentAttachmentUploader[" + engine.name + " on " + engine.storage + "]";
    }

    // ---- admission ------------------------------------------------------------------------------------------

    /**
     * Checks, journals and admits a batch. With {@code keepOnCaller}, the caller keeps the batch in the journal
     * ({@link Batch#keep()}) on its own thread once it has the result.
     */
    private Batch submit(List<Attachment> attachments, boolean keepOnCaller, UploadListener listener) {
        ContextPropagator.Captured context = engine.config.contextPropagator().capture();
        long submitted = System.nanoTime();
        BatchCheck checked = BatchCheck.of(attachments, engine.config);
        int size = checked.attachments.size();
        BatchEvent event = new BatchEvent(engine.name, batchIds.incrementAndGet(), size);
        UploadJournal.@Nullable Entry entry = begin(event, checked);
        Effects effects = new Effects();
        Batch batch = null;
        UploaderSaturatedException rejected = null;
        RuntimeException refused = null;
        engine.lock.lock();
        try {
            Admission.Verdict verdict = admission.admit(size, submitted);
            if (engine.closed) {
                throw new UploaderClosedException(engine.name, "it takes no new batch");
            }
            if (verdict == Admission.Verdict.REFUSED) {
                rejected = new UploaderSaturatedException(engine.name, size, engine.queued,
                        engine.config.maxQueuedUploads(), engine.config.rejectionPolicy());
            } else {
                batch = new Batch(engine, event, checked, context, submitted, verdict == Admission.Verdict.ON_CALLER,
                        entry, keepOnCaller, listener);
                batch.admit(effects);
            }
        } catch (RuntimeException e) {
            refused = e;
        } finally {
            engine.lock.unlock();
        }
        if (refused != null) {
            if (entry != null) {
                Batch.forget(entry, event, refused); // outside the lock: the journal may write to its database
            }
            throw refused;
        }
        if (batch == null) {
            if (entry != null) {
                Batch.forget(entry, event, null);
            }
            UploaderSaturatedException exception = Objects.requireNonNull(rejected);
            Engine.inContext(context, () -> listener.batchRejected(event, exception));
            throw exception;
        }
        effects.run();
        if (batch.callerRuns) {
            batch.drainOnCaller();
        }
        return batch;
    }

    /** Records the batch in the journal, if there is one, before anything is written; failing refuses the batch. */
    private UploadJournal.@Nullable Entry begin(BatchEvent event, BatchCheck checked) {
        UploadJournal journal = engine.config.journal().orElse(null);
        if (journal == null) {
            return null;
        }
        Duration maxRunTime = engine.config.batchTimeout().plus(engine.config.stopTimeout().multipliedBy(2));
        try {
            return Objects.requireNonNull(journal.begin(event, List.of(checked.keys), maxRunTime), "journal entry");
        } catch (RuntimeException e) {
            throw new UploadException("could not record " + event + " in the upload journal, so nothing of it was"
                    + " started: " + (e instanceof UploadException ? e.getMessage() : SafeText.describe(e)), e);
        }
    }

    // ---- shutdown -------------------------------------------------------------------------------------------

    /**
     * Takes no new batch; lets running batches and rollbacks finish within the grace period; then cancels the batches
     * still running (rolling them back under all-or-nothing) and gives them two stop timeouts to finish: one for
     * cancelled calls to stop (or be given up on), one for the first try of their deletes. Whatever is left after
     * that (deletes waiting for another try, calls that do not return) is given up and reported, every batch is
     * complete, and the threads are stopped. Returns within the grace period plus two stop timeouts (plus the time
     * listeners and the storage take to return from calls that do not block).
     */
    @Override
    public void close() {
        engine.lock.lock();
        try {
            if (engine.closed) {
                return;
            }
            engine.closed = true;
            engine.changed.signalAll();
        } finally {
            engine.lock.unlock();
        }
        UploaderConfig config = engine.config;
        long graceEnd = System.nanoTime() + config.shutdownGracePeriod().toNanos();
        if (!awaitQuiet(graceEnd)) {
            UploaderClosedException reason = new UploaderClosedException(engine.name,
                    "the batch did not finish within the shutdown grace period of " + config.shutdownGracePeriod());
            Effects effects = new Effects();
            engine.lock.lock();
            try {
                for (Batch batch : new ArrayList<>(engine.running)) {
                    batch.stop(i -> reason, Status.CANCELLED,
                            engine.policy.rollsBackWhenStopped(), effects);
                }
            } finally {
                engine.lock.unlock();
            }
            effects.run();
        }
        long end = System.nanoTime() + 2 * config.stopTimeout().toNanos();
        awaitBatches(end);
        stopEverything();
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
                            + " stuck", engine.name, stats().stuckUploads());
                }
            }
        } catch (InterruptedException e) {
            if (engine.ownExecutor != null) {
                engine.ownExecutor.shutdownNow();
            }
            Thread.currentThread().interrupt();
        }
        engine.listener.uploaderClosed(event);
    }

    /** Waits until no batch runs and no rollback is pending, or the deadline passes; whether it got there. */
    private boolean awaitQuiet(long deadline) {
        engine.lock.lock();
        try {
            return awaitLocked(() -> engine.running.isEmpty() && engine.rollbacks.pending() == 0, deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            engine.lock.unlock();
        }
    }

    /** Waits until no batch runs (their awaited deletes included), or the deadline passes. */
    private void awaitBatches(long deadline) {
        engine.lock.lock();
        try {
            awaitLocked(engine.running::isEmpty, deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            engine.lock.unlock();
        }
    }

    /**
     * The end of waiting: deletes waiting for a retry are given up, and calls still running are given up on, so that
     * every batch completes now and what is left is reported.
     */
    private void stopEverything() {
        Effects effects = new Effects();
        List<Call> running;
        engine.lock.lock();
        try {
            engine.stopping = true;
            engine.rollbacks.giveUpWaiting(effects);
            running = engine.dispatcher.running();
        } finally {
            engine.lock.unlock();
        }
        effects.run();
        UploaderClosedException reason = new UploaderClosedException(engine.name,
                "it stopped waiting for its calls to the storage");
        for (Call call : running) {
            call.cancel(reason, Status.CANCELLED);
            call.abandon();
        }
        engine.lock.lock();
        try {
            if (!engine.running.isEmpty()) {
                Engine.LOG.error("uploader '{}' closed while batches had not completed: {}; please report this",
                        engine.name, engine.running);
            }
        } finally {
            engine.lock.unlock();
        }
    }

    /** Under the lock: waits until the condition holds or the deadline passes; whether it holds. */
    private boolean awaitLocked(BooleanSupplier condition, long deadline) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            engine.changed.awaitNanos(left);
        }
        return true;
    }

    private static RuntimeException rethrow(@Nullable Throwable failure) {
        if (failure == null) {
            return new UploadException("the batch failed without a cause", null);
        }
        if (failure instanceof RuntimeException) {
            return (RuntimeException) failure;
        }
        if (failure instanceof Error) {
            throw (Error) failure;
        }
        return new UploadException(SafeText.describe(failure), failure);
    }
}
