package io.github.boundedupload.internal;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.internal.queue.CallQueue;
import io.github.boundedupload.internal.step.Effects;
import io.github.boundedupload.internal.step.StepLock;
import io.github.boundedupload.internal.step.Ticker;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the rooms of one uploader share: its settings, storage, listeners, threads and timers; the {@link StepLock},
 * which guards all mutable state, and the {@link CallQueue}; the {@link Rollbacks} and the {@link Sweep}; and the few facts about the whole
 * uploader that no room owns (its running batches, its calls given up on, whether it is closing). Changes when the
 * uploader gains or loses a shared part.
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
    /**
     * The executor whose threads run the next call themselves ({@link Handoff}): the uploader's own, or a supplied one
     * that only makes a thread per task ({@link UploadThreads#makesAThreadPerTask}); otherwise {@code null}.
     */
    final @Nullable ExecutorService handsOff;
    /** Where the engine reads the time: {@link Ticker#SYSTEM} but in the model-checked tests. */
    final Ticker ticker;
    final Timeouts timeouts;
    /** The lock every step takes; guards all mutable state of the uploader. */
    final StepLock steps;
    final CallQueue<Call> queue;
    final Policy policy;
    final Sweep sweep;
    final Rollbacks rollbacks = new Rollbacks(this);
    // Guarded by the step lock:
    /** Batches admitted and not yet finished. */
    final Set<Batch> running = new LinkedHashSet<>();
    /**
     * Batches that have finished and whose future is not complete yet (the thread that finished one completes it
     * outside the lock); read anywhere: close() waits for them.
     */
    final Set<Batch> completing = ConcurrentHashMap.newKeySet();
    /** Calls given up on that have not returned. */
    private int stuck;
    /** The calls {@link #stuck} counts, so that {@code close()} can name those it abandons. */
    final Set<Call> abandoned = new LinkedHashSet<>();
    /** No new batch is taken; written under the lock, read anywhere. */
    private volatile boolean closed;
    /** The end of {@code close()}: nothing waits or retries any more; what is left is reported. */
    private volatile boolean stopping;

    /**
     * @param ticker the engine's time ({@link Ticker#SYSTEM} but in the model-checked tests)
     * @param timer the timer's thread, or {@code null} for the uploader's own (the tests' runs when their clock moves)
     */
    Engine(Storage storage, UploaderConfig config, Ticker ticker, @Nullable ScheduledExecutorService timer) {
        this.storage = storage;
        this.config = config;
        this.name = config.name();
        this.listener = new Listeners(config.listeners());
        ExecutorService own = config.executor().isPresent() ? null : threads.create(config, storage.blocking());
        this.ownExecutor = own;
        this.executor = own != null ? own : config.executor().orElseThrow();
        this.handsOff = own != null ? own : UploadThreads.makesAThreadPerTask(executor) ? (ExecutorService) executor
                : null;
        this.ticker = ticker;
        this.timeouts = new Timeouts(timer != null ? timer : threads.timer(config));
        // After every step the queue starts what now fits; the queue wakes the lock's waiters where its count falls.
        this.steps = new StepLock(this::dispatch, ticker);
        this.queue = new CallQueue<>(steps, config.maxConcurrentUploads(), config.concurrencyLimit().orElse(null),
                config.maxBytesInFlight());
        this.policy = Policy.of(config.failurePolicy());
        this.sweep = new Sweep(this);
    }

    /** Under the lock, at the end of every step: the queue starts what now fits. */
    private void dispatch(Effects effects) {
        queue.dispatch(effects);
    }

    /** Under the lock: a call was given up on; how many are stuck now. */
    int givenUp(Call call) {
        abandoned.add(call);
        return ++stuck;
    }

    /** Under the lock: a call given up on returned after all. */
    void returnedLate(Call call) {
        abandoned.remove(call);
        stuck--;
    }

    /** Calls given up on that have not returned (under the lock). */
    int stuck() {
        return stuck;
    }

    /** Whether no new batch is taken (read anywhere). */
    boolean closed() {
        return closed;
    }

    /** Under the lock, at {@code close()}: no new batch is taken. Whether it was open until now. */
    boolean close() {
        boolean wasOpen = !closed;
        closed = true;
        return wasOpen;
    }

    /** Whether {@code close()} has reached its end: nothing waits or retries any more (read anywhere). */
    boolean stopping() {
        return stopping;
    }

    /** At the end of {@code close()}: nothing waits or retries any more. */
    void stop() {
        stopping = true;
    }

    /** A call was given up on ({@code +1}) or returned after all ({@code -1}): the own pool grows or shrinks. */
    void resizePool(int delta) {
        UploadThreads.resize(ownExecutor, delta);
    }
}
