package io.github.boundedupload.internal;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploaderClosedException;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.UploaderSaturatedException;
import io.github.boundedupload.UploaderStats;
import io.github.boundedupload.internal.queue.CallQueue;
import io.github.boundedupload.internal.step.InContext;
import io.github.boundedupload.internal.step.StepLock;
import io.github.boundedupload.internal.step.Ticker;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.ContextPropagator;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.spi.UploaderEvent;
import io.github.boundedupload.support.SafeText;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The uploader's face, and the one factory of its engine: submission (check, admission, journal, start) and the way in
 * to shutdown ({@link Shutdown}). A batch then lives in its rooms: {@link BatchCheck}, {@link Admission},
 * {@link JournalRecord}, {@link Batch} and its {@link Upload}s, the {@link StepLock} and its {@link CallQueue}, the storage; the walk is drawn
 * in {@code docs/design.md}. Changes when the API's entry points or the order of submission change.
 */
public final class DefaultConcurrentAttachmentUploader implements ConcurrentAttachmentUploader {

    private static final BatchResult EMPTY = new BatchResult(List.of());

    private final Engine engine;
    private final Admission admission;
    private final Shutdown shutdown;
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
        return new DefaultConcurrentAttachmentUploader(Storage.of(storage), config, Ticker.SYSTEM, null);
    }

    /**
     * The uploader over a non-blocking storage: what {@code ConcurrentAttachmentUploader.create} returns.
     *
     * @param storage the storage
     * @param config bounds and policies
     * @return a new uploader
     */
    public static ConcurrentAttachmentUploader create(AsyncFileUploader storage, UploaderConfig config) {
        return new DefaultConcurrentAttachmentUploader(Storage.of(storage), config, Ticker.SYSTEM, null);
    }

    /**
     * For the model-checked tests: the uploader over a blocking storage, on the test's clock and timer (whose tasks run
     * when the test moves its clock, which then wakes the lock's waiters: {@link #steps()}).
     */
    static DefaultConcurrentAttachmentUploader create(FileUploader storage, UploaderConfig config, Ticker ticker,
            ScheduledExecutorService timer) {
        return new DefaultConcurrentAttachmentUploader(Storage.of(storage), config, ticker, timer);
    }

    private DefaultConcurrentAttachmentUploader(Storage storage, UploaderConfig config, Ticker ticker,
            @Nullable ScheduledExecutorService timer) {
        this.engine = new Engine(storage, Objects.requireNonNull(config, "config"), ticker, timer);
        this.admission = new Admission(engine);
        this.event = new UploaderEvent(engine.name, config.maxConcurrentUploads(), engine.ownExecutor != null,
                this::stats);
        this.shutdown = new Shutdown(engine);
        engine.listener.uploaderCreated(event, engine.executor);
    }

    /** For tests: the uploader's own executor, or null with a supplied one. */
    java.util.concurrent.@Nullable ExecutorService ownExecutor() {
        return engine.ownExecutor;
    }

    /** For tests: the engine's step lock. */
    StepLock steps() {
        return engine.steps;
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
        batch.settlement.keepInJournal();
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
        return BatchCheck.of(attachments, engine.config).stream().map(BatchCheck.Checked::key).toList();
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
        CallQueue<Call> queue = engine.queue;
        return engine.steps.read(() -> new UploaderStats(queue.inFlight(), queue.queued(),
                queue.bytesInFlight(), engine.running.size(), engine.closed(), engine.rollbacks.pending(),
                engine.stuck(), engine.config.concurrencyLimit().isPresent() ? queue.limit() : 0));
    }

    @Override
    public void close() {
        if (shutdown.close()) {
            engine.listener.uploaderClosed(event);
        }
    }

    @Override
    public String toString() {
        return "ConcurrentAttachmentUploader[" + engine.name + " on " + engine.storage + "]";
    }

    // ---- submission ---------------------------------------------------------------------------------------------

    /**
     * Checks a batch, admits it (the queue's bound and the rejection policy), records it in the journal if there is
     * one, and starts it; a refused batch has touched neither the journal nor the storage. With {@code keepOnCaller},
     * the caller keeps the batch in the journal ({@link Settlement#keepInJournal()}) on its own thread once it has the result.
     */
    private Batch submit(List<Attachment> attachments, boolean keepOnCaller, UploadListener listener) {
        ContextPropagator.Captured context = engine.config.contextPropagator().capture();
        long submitted = engine.ticker.nanoTime();
        List<BatchCheck.Checked> checked = BatchCheck.of(attachments, engine.config);
        int size = checked.size();
        BatchEvent batchEvent = new BatchEvent(engine.name, batchIds.incrementAndGet(), size);
        boolean journaled = engine.config.journal().isPresent();
        // Without a journal, a batch that fits starts in the step that admits it: made before, outside the lock.
        Batch ready = journaled ? null
                : new Batch(engine, batchEvent, checked, context, submitted, false, null, keepOnCaller, listener);
        UploaderSaturatedException[] rejected = new UploaderSaturatedException[1];
        Admission.Verdict verdict = engine.steps.compute(effects -> {
            Admission.Verdict v = admission.admit(size, submitted);
            if (v == Admission.Verdict.REFUSED) {
                rejected[0] = new UploaderSaturatedException(engine.name, size, engine.queue.queued(),
                        engine.config.maxQueuedUploads(), engine.config.rejectionPolicy());
            } else if (v == Admission.Verdict.QUEUED && ready != null) {
                ready.admit(false, effects);
            } else if (v == Admission.Verdict.QUEUED) {
                engine.queue.reservePlaces(size); // its places, held while the journal records it
            }
            return v;
        });
        if (verdict == Admission.Verdict.REFUSED) {
            UploaderSaturatedException exception = Objects.requireNonNull(rejected[0]);
            InContext.run(context, () -> listener.batchRejected(batchEvent, exception));
            throw exception;
        }
        if (verdict == Admission.Verdict.QUEUED && ready != null) {
            return ready;
        }
        boolean placesTaken = verdict == Admission.Verdict.QUEUED;
        JournalRecord record;
        try {
            record = JournalRecord.begin(engine, batchEvent, checked.stream().map(BatchCheck.Checked::key).toList());
        } catch (RuntimeException e) {
            if (placesTaken) {
                giveBack(size);
            }
            throw e;
        }
        Batch batch = new Batch(engine, batchEvent, checked, context, submitted, !placesTaken, record, keepOnCaller,
                listener);
        boolean started = engine.steps.compute(effects -> {
            if (engine.closed()) {
                if (placesTaken) {
                    engine.queue.freePlaces(size);
                }
                return false;
            }
            batch.admit(placesTaken, effects);
            return true;
        });
        if (!started) {
            UploaderClosedException closed = new UploaderClosedException(engine.name, "it takes no new batch");
            if (record != null) {
                record.forget(closed); // nothing of it was written
            }
            throw closed;
        }
        if (record != null) {
            record.whenLost(batch);
        }
        if (batch.callerRuns) {
            batch.drainOnCaller();
        }
        return batch;
    }

    private void giveBack(int places) {
        engine.steps.run(effects -> engine.queue.freePlaces(places)); // which wakes the waiters
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
