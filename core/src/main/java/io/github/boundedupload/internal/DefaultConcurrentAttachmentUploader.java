package io.github.boundedupload.internal;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.RejectionPolicy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploadTimeoutException;
import io.github.boundedupload.UploaderClosedException;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.UploaderSaturatedException;
import io.github.boundedupload.UploaderStats;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.ContextPropagator;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadRequest;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The uploader. All waiting is data, not threads: a batch is a cursor over its attachments that offers at most
 * {@code maxConcurrentUploadsPerBatch} of them at a time to one FIFO queue shared by all batches; a unit leaves the
 * queue when a permit (and its bytes) is free, and only then takes a thread. Deletes that undo a failed batch go to
 * the front of the queue and take permits too, so every call to the storage is bounded.
 *
 * <p>One lock guards all of it; nothing slow happens under the lock. Work decided under the lock (starting units,
 * calling listeners, completing futures) is collected as {@link Effects} and run after unlocking.
 */
public final class DefaultConcurrentAttachmentUploader implements ConcurrentAttachmentUploader {

    private static final Logger LOG = LoggerFactory.getLogger(ConcurrentAttachmentUploader.class);
    private static final BatchResult EMPTY = new BatchResult(List.of());
    private static final Runnable WAKE_UP = () -> { };

    private final Storage storage;
    private final UploaderConfig config;
    private final String name;
    private final Listeners listener;
    private final Executor executor;
    private final @Nullable ExecutorService ownExecutor;
    private final ScheduledThreadPoolExecutor timer;
    private final UploadThreads threads = new UploadThreads();
    private final AtomicLong batchIds = new AtomicLong();

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when queue space frees up or a batch finishes. */
    private final Condition changed = lock.newCondition();
    // Guarded by lock:
    private final ArrayDeque<Unit> ready = new ArrayDeque<>();
    private final Set<Batch> batches = new LinkedHashSet<>();
    private int inFlight;
    private long bytesInFlight;
    private int queued;
    private boolean closed;

    public DefaultConcurrentAttachmentUploader(Storage storage, UploaderConfig config) {
        this.storage = Objects.requireNonNull(storage, "storage");
        this.config = Objects.requireNonNull(config, "config");
        this.name = config.name();
        this.listener = new Listeners(config.listeners());
        this.ownExecutor = config.executor().isPresent() ? null : threads.create(config, storage.blocking());
        this.executor = config.executor().orElse(ownExecutor);
        this.timer = threads.timer(config);
        listener.uploaderCreated(this, executor);
    }

    @Override
    public BatchResult uploadAll(List<Attachment> attachments) {
        Objects.requireNonNull(attachments, "attachments");
        if (attachments.isEmpty()) {
            return EMPTY;
        }
        Batch batch = submit(attachments);
        try {
            return batch.done.get();
        } catch (InterruptedException e) {
            cancel(batch, new CancellationException("the thread waiting for the batch was interrupted"));
            Thread.currentThread().interrupt();
            throw new UploadException("interrupted while waiting for " + batch.event
                    + "; the batch is cancelled and what it stored is deleted again", e);
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        }
    }

    @Override
    public CompletableFuture<BatchResult> uploadAllAsync(List<Attachment> attachments) {
        try {
            Objects.requireNonNull(attachments, "attachments");
            if (attachments.isEmpty()) {
                return CompletableFuture.completedFuture(EMPTY);
            }
            Batch batch = submit(attachments);
            batch.done.whenComplete((result, failure) -> {
                if (batch.done.isCancelled()) {
                    cancel(batch, new CancellationException("the batch's future was cancelled"));
                }
            });
            return batch.done;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public UploaderConfig config() {
        return config;
    }

    @Override
    public UploaderStats stats() {
        lock.lock();
        try {
            return new UploaderStats(inFlight, queued, bytesInFlight, batches.size(), closed);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "ConcurrentAttachmentUploader[" + name + " on " + storage + "]";
    }

    // ---- admission ------------------------------------------------------------------------------------------

    private Batch submit(List<Attachment> attachments) {
        ContextPropagator.Captured context = config.contextPropagator().capture();
        long submitted = System.nanoTime();
        BatchCheck checked = BatchCheck.of(attachments, config);
        int size = checked.attachments.size();
        BatchEvent event = new BatchEvent(name, batchIds.incrementAndGet(), size);
        Effects effects = new Effects();
        Batch batch = null;
        UploaderSaturatedException rejected = null;
        lock.lock();
        try {
            boolean callerRuns = false;
            if (!closed && !fits(size)) {
                RejectionPolicy policy = config.rejectionPolicy();
                callerRuns = policy == RejectionPolicy.CALLER_RUNS;
                if (!callerRuns && (policy == RejectionPolicy.ABORT || !awaitSpace(size, submitted))) {
                    rejected = new UploaderSaturatedException(name, size, queued, config.maxQueuedUploads(), policy);
                }
            }
            if (closed) {
                throw new UploaderClosedException(name, "it takes no new batch");
            }
            if (rejected == null) {
                batch = new Batch(event, checked, context, submitted, callerRuns);
                admit(batch, effects);
            }
        } finally {
            lock.unlock();
        }
        if (rejected != null) {
            UploaderSaturatedException exception = rejected;
            inContext(context, () -> listener.batchRejected(event, exception));
            throw exception;
        }
        effects.run();
        if (batch.callerRuns) {
            batch.drainOnCaller();
        }
        return batch;
    }

    private boolean fits(int size) {
        return queued + size <= config.maxQueuedUploads();
    }

    /** Waits for queue space under {@link RejectionPolicy#BLOCK}; {@code false} when it did not come in time. */
    private boolean awaitSpace(int size, long submitted) {
        long deadline = submitted + Math.min(config.blockTimeout().toNanos(), config.batchTimeout().toNanos());
        try {
            return awaitLocked(() -> fits(size) || closed, deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UploadException("interrupted while waiting for queue space; nothing was started", e);
        }
    }

    /** Under the lock. */
    private void admit(Batch batch, Effects effects) {
        batches.add(batch);
        if (!batch.callerRuns) {
            queued += batch.size;
        }
        effects.add(() -> inContext(batch.context, () -> listener.batchStarted(batch.event)));
        long left = batch.submitted + config.batchTimeout().toNanos() - System.nanoTime();
        batch.deadline = timer.schedule(() -> deadlinePassed(batch), Math.max(0, left), TimeUnit.NANOSECONDS);
        fill(batch);
        dispatch(effects);
    }

    // ---- scheduling (all under the lock) --------------------------------------------------------------------

    /** Offers the batch's next attachments to the queue, up to its window. */
    private void fill(Batch batch) {
        while (!batch.stopped && batch.open < batch.window && batch.next < batch.size) {
            int index = batch.next++;
            Unit unit = new Unit(batch, index, false, batch.weights[index]);
            batch.open++;
            batch.live.put(index, unit);
            ready.addLast(unit);
        }
    }

    /** Starts queued units while permits and bytes allow, in FIFO order (a big upload is not overtaken). */
    private void dispatch(Effects effects) {
        while (!ready.isEmpty() && inFlight < config.maxConcurrentUploads()) {
            Unit unit = ready.peekFirst();
            if (unit.weight > 0 && bytesInFlight > 0 && bytesInFlight + unit.weight > config.maxBytesInFlight()) {
                break;
            }
            ready.pollFirst();
            unit.dispatched = true;
            inFlight++;
            bytesInFlight += unit.weight;
            if (!unit.delete && !unit.batch.callerRuns) {
                queued--;
            }
            effects.add(unit::start);
        }
        changed.signalAll();
    }

    private void release(Unit unit) {
        inFlight--;
        bytesInFlight -= unit.weight;
        if (!unit.delete) {
            unit.batch.open--;
            unit.batch.live.remove(unit.index);
        }
    }

    /**
     * Stops a batch: attachments not started end at once with {@code status} and the reason for them; running ones
     * are cancelled; with {@code rollback}, stored objects are deleted again. Stopping again can only add the
     * rollback.
     */
    private void stop(Batch batch, IntFunction<Throwable> reasons, Status status, boolean rollback,
            Effects effects) {
        if (batch.finished) {
            return;
        }
        if (!batch.stopped) {
            batch.stopped = true;
            for (int i = batch.next; i < batch.size; i++) {
                skip(batch, i, reasons.apply(i), status, effects);
            }
            batch.next = batch.size;
            for (Unit unit : new ArrayList<>(batch.live.values())) {
                if (unit.dispatched) {
                    Throwable reason = reasons.apply(unit.index);
                    effects.add(() -> unit.attempt.cancel(reason, status));
                } else {
                    ready.remove(unit);
                    batch.open--;
                    batch.live.remove(unit.index);
                    skip(batch, unit.index, reasons.apply(unit.index), status, effects);
                }
            }
        }
        if (rollback && !batch.rollback) {
            batch.rollback = true;
            for (int i = 0; i < batch.size; i++) {
                if (batch.results[i] != null && mustDelete(batch.results[i])) {
                    enqueueDelete(batch, i);
                }
            }
        }
        dispatch(effects);
        checkDone(batch, effects);
    }

    private void skip(Batch batch, int index, Throwable reason, Status status, Effects effects) {
        batch.results[index] = UploadResult.notStored(index, batch.attachments.get(index), batch.keys[index],
                status, reason);
        if (!batch.callerRuns) {
            queued--;
        }
        UploadEvent event = batch.event(index);
        effects.add(() -> inContext(batch.context, () -> listener.uploadSkipped(event, reason)));
    }

    private void enqueueDelete(Batch batch, int index) {
        batch.pendingDeletes++;
        ready.addFirst(new Unit(batch, index, true, 0));
    }

    private void record(Batch batch, UploadResult result, Effects effects) {
        int index = result.index();
        batch.results[index] = result;
        if (batch.rollback && mustDelete(result)) {
            enqueueDelete(batch, index);
        } else if (result.status() == Status.FAILED && config.failurePolicy() == FailurePolicy.ALL_OR_NOTHING
                && !batch.stopped) {
            CancellationException reason = new CancellationException("cancelled because #" + index + " "
                    + Names.quote(result.attachment().fileName()) + " failed");
            stop(batch, i -> reason, Status.CANCELLED, true, effects);
        }
    }

    /** What a rollback deletes: stored objects, and the keys of failed uploads the storage may hold anyway. */
    private static boolean mustDelete(UploadResult result) {
        if (result.isStored()) {
            return true;
        }
        if (result.status() != Status.FAILED) {
            return false;
        }
        Throwable t = result.failure().orElse(null);
        for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
            if (t instanceof UploadException && ((UploadException) t).mayBeStored()) {
                return true;
            }
        }
        return false;
    }

    private void checkDone(Batch batch, Effects effects) {
        if (batch.finished || batch.pendingDeletes > 0 || batch.next < batch.size || !batch.live.isEmpty()) {
            return;
        }
        batch.finished = true;
        batches.remove(batch);
        if (batch.deadline != null) {
            batch.deadline.cancel(false);
        }
        changed.signalAll();
        effects.add(() -> inContext(batch.context, batch::complete));
    }

    // ---- outside events -------------------------------------------------------------------------------------

    private void deadlinePassed(Batch batch) {
        Effects effects = new Effects();
        lock.lock();
        try {
            stop(batch, i -> new UploadTimeoutException("#" + i + " " + Names.quote(batch.attachments.get(i)
                            .fileName()) + " did not finish within the batch timeout of " + config.batchTimeout()),
                    Status.FAILED, config.failurePolicy() == FailurePolicy.ALL_OR_NOTHING, effects);
        } finally {
            lock.unlock();
        }
        effects.run();
    }

    private void cancel(Batch batch, CancellationException reason) {
        Effects effects = new Effects();
        lock.lock();
        try {
            stop(batch, i -> reason, Status.CANCELLED, true, effects);
        } finally {
            lock.unlock();
        }
        effects.run();
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        long grace = config.shutdownGracePeriod().toNanos();
        if (!awaitNoBatches(grace)) {
            UploaderClosedException reason = new UploaderClosedException(name,
                    "the batch did not finish within the shutdown grace period of " + config.shutdownGracePeriod());
            Effects effects = new Effects();
            lock.lock();
            try {
                for (Batch batch : new ArrayList<>(batches)) {
                    stop(batch, i -> reason, Status.CANCELLED,
                            config.failurePolicy() == FailurePolicy.ALL_OR_NOTHING, effects);
                }
            } finally {
                lock.unlock();
            }
            effects.run();
            if (!awaitNoBatches(grace)) {
                lock.lock();
                try {
                    LOG.error("uploader '{}' closed while {} batches were still running after being cancelled: {};"
                            + " their uploads did not stop within {} and objects they stored may remain", name,
                            batches.size(), batches, config.shutdownGracePeriod());
                } finally {
                    lock.unlock();
                }
            }
        }
        timer.shutdownNow();
        if (ownExecutor != null) {
            ownExecutor.shutdown();
        }
        try {
            if (!threads.join(Math.max(grace, TimeUnit.SECONDS.toNanos(1)))) {
                if (ownExecutor != null) {
                    ownExecutor.shutdownNow();
                }
                if (!threads.join(TimeUnit.SECONDS.toNanos(5))) {
                    LOG.error("uploader '{}': some of its threads did not stop after being interrupted", name);
                }
            }
        } catch (InterruptedException e) {
            if (ownExecutor != null) {
                ownExecutor.shutdownNow();
            }
            Thread.currentThread().interrupt();
        }
        listener.uploaderClosed(this);
    }

    private boolean awaitNoBatches(long nanos) {
        lock.lock();
        try {
            return awaitLocked(batches::isEmpty, System.nanoTime() + nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return batches.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    // ---- helpers --------------------------------------------------------------------------------------------

    /** Under the lock: waits until the condition holds or the deadline passes; whether it holds. */
    private boolean awaitLocked(BooleanSupplier condition, long deadline) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            changed.awaitNanos(left);
        }
        return true;
    }

    /** Runs with the batch's context; a failing propagator costs the context, never the action. */
    private static void inContext(ContextPropagator.Captured context, Runnable action) {
        ContextPropagator.Scope scope;
        try {
            scope = context.apply();
        } catch (RuntimeException e) {
            LOG.warn("the context propagator failed to apply a context", e);
            scope = () -> { };
        }
        try {
            action.run();
        } finally {
            try {
                scope.close();
            } catch (RuntimeException e) {
                LOG.warn("the context propagator failed to restore a context", e);
            }
        }
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** Whether a failure is (or was caused by) an interrupt or cancellation, rather than a failure of its own. */
    private static boolean isInterruption(Throwable failure, Throwable cancelReason) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
            if (t == cancelReason || t instanceof InterruptedException || t instanceof InterruptedIOException
                    || t instanceof ClosedByInterruptException || t instanceof CancellationException) {
                return true;
            }
        }
        return false;
    }

    private static RuntimeException rethrow(Throwable failure) {
        if (failure instanceof RuntimeException) {
            return (RuntimeException) failure;
        }
        if (failure instanceof Error) {
            throw (Error) failure;
        }
        return new UploadException(Names.describe(failure), failure);
    }

    /** Schedules a timeout; returns what cancels it. */
    private Runnable schedule(Runnable action, Duration after) {
        try {
            ScheduledFuture<?> scheduled = timer.schedule(action, after.toNanos(), TimeUnit.NANOSECONDS);
            return () -> scheduled.cancel(false);
        } catch (RejectedExecutionException e) {
            // Only after close() gave up waiting for this work: time it out at once rather than never.
            action.run();
            return () -> { };
        }
    }

    /** Work decided under the lock, done after unlocking. */
    private static final class Effects {
        private final List<Runnable> actions = new ArrayList<>();

        void add(Runnable action) {
            actions.add(action);
        }

        void run() {
            for (Runnable action : actions) {
                try {
                    action.run();
                } catch (RuntimeException e) {
                    LOG.error("internal error in bounded-upload; please report it", e);
                }
            }
            actions.clear();
        }
    }

    /** One batch: its checked input, its cursor and window, and every attachment's result. */
    private final class Batch {
        final BatchEvent event;
        final List<Attachment> attachments;
        final String[] keys;
        final long[] weights;
        final int size;
        final ContextPropagator.Captured context;
        final long submitted;
        final boolean callerRuns;
        final int window;
        final Executor runOn;
        final @Nullable LinkedBlockingQueue<Runnable> callerQueue;
        final CompletableFuture<BatchResult> done = new CompletableFuture<>();
        // Guarded by the uploader's lock:
        final UploadResult[] results;
        final Map<Integer, Unit> live = new HashMap<>();
        int next;
        int open;
        int pendingDeletes;
        boolean stopped;
        boolean rollback;
        boolean finished;
        @Nullable ScheduledFuture<?> deadline;

        Batch(BatchEvent event, BatchCheck checked, ContextPropagator.Captured context, long submitted,
                boolean callerRuns) {
            this.event = event;
            this.attachments = checked.attachments;
            this.keys = checked.keys;
            this.weights = checked.weights;
            this.size = attachments.size();
            this.results = new UploadResult[size];
            this.context = context;
            this.submitted = submitted;
            this.callerRuns = callerRuns;
            // On the caller, one after another; in the pool, up to the per-batch bound at once.
            this.window = callerRuns ? 1 : config.maxConcurrentUploadsPerBatch();
            this.callerQueue = callerRuns ? new LinkedBlockingQueue<>() : null;
            this.runOn = callerRuns ? callerQueue::add : executor;
        }

        UploadEvent event(int index) {
            return new UploadEvent(event, index, attachments.get(index), keys[index]);
        }

        /** {@link RejectionPolicy#CALLER_RUNS}: the submitting thread runs the batch's units until it is done. */
        void drainOnCaller() {
            boolean interrupted = false;
            while (!done.isDone()) {
                try {
                    callerQueue.take().run();
                } catch (InterruptedException e) {
                    interrupted = true;
                    cancel(this, new CancellationException("the calling thread was interrupted"));
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        void complete() {
            BatchResult result = new BatchResult(Arrays.asList(results));
            listener.batchFinished(event, result, Duration.ofNanos(System.nanoTime() - submitted));
            if (config.failurePolicy() == FailurePolicy.ALL_OR_NOTHING && !result.allStored()) {
                done.completeExceptionally(new BatchFailedException(name, result));
            } else {
                done.complete(result);
            }
            if (callerQueue != null) {
                callerQueue.add(WAKE_UP);
            }
        }

        @Override
        public String toString() {
            return event.toString();
        }
    }

    /** One call to the storage: an upload of one attachment, or the delete that undoes it. */
    private final class Unit implements Runnable {
        final Batch batch;
        final int index;
        final boolean delete;
        final long weight;
        final Attempt attempt = new Attempt();
        boolean dispatched; // guarded by the lock
        long started;

        Unit(Batch batch, int index, boolean delete, long weight) {
            this.batch = batch;
            this.index = index;
            this.delete = delete;
            this.weight = weight;
        }

        void start() {
            try {
                batch.runOn.execute(this);
            } catch (RejectedExecutionException e) {
                // A supplied executor refused, or ours is shutting down: the unit ends now, reported, not dropped.
                started = System.nanoTime();
                ended(null, closed ? new UploaderClosedException(name, "its threads are stopped") : e);
            }
        }

        @Override
        public void run() {
            started = System.nanoTime();
            inContext(batch.context, delete ? this::runDelete : this::runUpload);
        }

        private void runUpload() {
            UploadEvent event = batch.event(index);
            Duration queuedFor = Duration.ofNanos(started - batch.submitted);
            long left = batch.submitted + config.batchTimeout().toNanos() - started;
            UploadRequest request = UploadRequest.builder(batch.keys[index], event.attachment())
                    .timeout(Duration.ofNanos(Math.max(1, Math.min(config.uploadTimeout().toNanos(), left))))
                    .progress(bytes -> listener.bytesSent(event, bytes))
                    .maxBytes(config.maxAttachmentSize())
                    .build();
            Runnable cancelTimeout = schedule(() -> attempt.cancel(new UploadTimeoutException("#" + index + " "
                    + Names.quote(event.attachment().fileName()) + " did not finish within the upload timeout of "
                    + config.uploadTimeout()), Status.FAILED), config.uploadTimeout());
            storage.upload(request, attempt, () -> listener.uploadStarted(event, queuedFor))
                    .whenComplete((stored, failure) -> {
                        cancelTimeout.run();
                        inContext(batch.context, () -> ended(stored, failure));
                    });
        }

        private void runDelete() {
            String key = currentResult().key();
            Runnable cancelTimeout = schedule(() -> attempt.cancel(new UploadTimeoutException("deleting "
                    + key + " did not finish within the upload timeout of " + config.uploadTimeout()),
                    Status.FAILED), config.uploadTimeout());
            storage.delete(key, attempt)
                    .whenComplete((ignored, failure) -> {
                        cancelTimeout.run();
                        inContext(batch.context, () -> deleted(key, failure));
                    });
        }

        private UploadResult currentResult() {
            lock.lock();
            try {
                return batch.results[index];
            } finally {
                lock.unlock();
            }
        }

        /** An upload ended (or never started): report it, free its permit, and move the batch on. */
        private void ended(@Nullable StoredObject stored, @Nullable Throwable failure) {
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            UploadEvent event = batch.event(index);
            Attachment attachment = event.attachment();
            UploadResult result;
            if (failure == null && stored != null) {
                listener.uploadSucceeded(event, stored, took);
                result = UploadResult.stored(index, attachment, stored);
            } else {
                Attempt.Cancel cancel = attempt.cancelled();
                Throwable own = failure != null ? unwrap(failure)
                        : new IllegalStateException("the storage returned no result");
                // A cancelled upload that then fails for a reason of its own (not the interrupt) failed by itself.
                boolean cancelled = cancel != null && (!attempt.started() || isInterruption(own, cancel.reason()));
                Throwable reason = cancelled ? cancel.reason() : own;
                Status status = cancelled ? cancel.status() : Status.FAILED;
                if (attempt.started()) {
                    listener.uploadFailed(event, reason, took);
                } else {
                    listener.uploadSkipped(event, reason);
                }
                result = UploadResult.notStored(index, attachment, batch.keys[index], status, reason);
            }
            Effects effects = new Effects();
            lock.lock();
            try {
                release(this);
                record(batch, result, effects);
                fill(batch);
                dispatch(effects);
                checkDone(batch, effects);
            } finally {
                lock.unlock();
            }
            effects.run();
        }

        private void deleted(String key, @Nullable Throwable failure) {
            Attempt.Cancel cancel = attempt.cancelled();
            Throwable reason = cancel != null ? cancel.reason() : failure == null ? null : unwrap(failure);
            UploadResult result = currentResult();
            if (reason != null) {
                LOG.error("uploader '{}': could not delete {} after {} stopped; the object {} stored", name, key,
                        batch.event, result.isStored() ? "is still" : "may still be", reason);
                result.failure().ifPresent(f -> f.addSuppressed(reason));
            }
            result.storedObject().ifPresent(stored -> listener.uploadRolledBack(batch.event(index), stored, reason));
            Effects effects = new Effects();
            lock.lock();
            try {
                release(this);
                batch.pendingDeletes--;
                if (reason == null && batch.results[index].isStored()) {
                    batch.results[index] = batch.results[index].deleted();
                }
                dispatch(effects);
                checkDone(batch, effects);
            } finally {
                lock.unlock();
            }
            effects.run();
        }
    }
}
