package io.github.boundedupload.internal;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * A thread of the uploader's own executor that finishes a call runs the call its end started, instead of waking
 * another thread for it and going to sleep: in a saturated pipeline (a batch larger than its permits) every upload
 * would otherwise cost two context switches, one thread parking and another waking, which on a busy machine is CPU
 * taken from the rest of the application (benchmark scenario E: the p99 of an unrelated task next to a 14,000-upload
 * batch). Only the first call a step starts is handed off; others go to the executor, so concurrency is what the
 * permits say. Only the uploader's own executor, and a supplied one that only makes a thread per task (the JDK's
 * {@code Executors.newVirtualThreadPerTaskExecutor()}: {@link UploadThreads#makesAThreadPerTask}), where it saves a
 * thread per call (JMH, 10,000 on supplied virtual threads: +0.45 µs per upload over bare futures, +0.25-0.28 so):
 * another supplied one may decorate its tasks (a Spring {@code TaskDecorator} binding a security context), which a
 * handed-off call would skip. A supplied executor's hand-off stops, as the own one's does, once it is shut down.
 *
 * <p>A non-blocking storage answers on a thread of its own (the SDK's completion thread), never on ours: there the
 * answer's thread starts the next call itself, since a non-blocking storage's calls return at once (its contract).
 * Waking one of our threads per upload for one non-blocking call put the library on the CRT client at 1.17x the CRT
 * Transfer Manager's CPU per upload; without it, 1.08-1.13x (scenario B, two strategies in one JVM:
 * docs/performance.md). A listener or context propagator that blocks there holds the storage client's thread (the
 * application's {@code S3AsyncClient}'s future-completion threads): under {@code keepWorkOnUploaderThreads} the answer
 * is handed to the uploader's executor instead ({@link #handOver}). Changes when how a call gets its thread changes.
 */
final class Handoff {

    private static final ThreadLocal<Handoff> CURRENT = new ThreadLocal<>();

    private final Engine engine;
    private @Nullable Call next;

    private Handoff(Engine engine) {
        this.engine = engine;
    }

    /**
     * Runs a call on this thread, then, while the calls it ran started one that was handed to this thread, that one,
     * and so on.
     */
    static void runFrom(Call first) {
        Engine engine = first.engine;
        // Ownership first: on a thread that is not the executor's (another supplied executor's, perhaps a fresh
        // virtual thread per call), ThreadLocal.get() would create the thread's map of thread-locals, for nothing.
        if (first.runOn() != engine.handsOff || !isItsThread(engine) || CURRENT.get() != null) {
            first.runHere();
            return;
        }
        runHandingOff(engine, first::runHere);
    }

    /**
     * Runs a non-blocking storage's answer to {@code call} on the thread that brought it, then, like
     * {@link #runFrom}, the call the answer started (and the ones those start). Only for calls on the uploader's own
     * executor. (A blocking storage answers on the call's own thread, which {@link #runFrom} already runs.)
     */
    static void runAnswer(Call call, Runnable answer) {
        if (!handOver(call, answer)) {
            runAnswerHere(call, answer);
        }
    }

    /**
     * Under {@link io.github.boundedupload.UploaderConfig#keepWorkOnUploaderThreads()}: hands a non-blocking storage's
     * answer to the uploader's executor, where it runs as {@link #runAnswer} runs it (and a thread of the own executor
     * takes the call it starts), so that no listener, context propagator or storage call runs on the storage client's
     * thread, which may be the application's. Not when this thread runs the uploader's calls already (the storage
     * answered inside the call). {@code false} when it did not hand it over: the option is off, or the executor refused
     * (it is shut down): then the answer runs here, as a refused call is reported where it was refused.
     */
    static boolean handOver(Call call, Runnable answer) {
        Engine engine = call.engine;
        if (!engine.config.keepWorkOnUploaderThreads() || CURRENT.get() != null) {
            return false;
        }
        try {
            engine.executor.execute(() -> runAnswerHere(call, answer));
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    private static void runAnswerHere(Call call, Runnable answer) {
        Engine engine = call.engine;
        if (call.runOn() != engine.handsOff || CURRENT.get() != null) {
            answer.run();
            return;
        }
        runHandingOff(engine, answer);
    }

    private static void runHandingOff(Engine engine, Runnable first) {
        Handoff handoff = new Handoff(engine);
        CURRENT.set(handoff);
        try {
            first.run();
            Call call = handoff.next;
            while (call != null) {
                if (Thread.currentThread().isInterrupted() || isShutdown(engine.handsOff)) {
                    // Stopping: the call goes the usual way, where a refusal is reported.
                    CURRENT.remove();
                    call.start();
                    return;
                }
                handoff.next = null;
                call.runHere();
                call = handoff.next;
            }
        } finally {
            CURRENT.remove();
        }
    }

    /** Whether this thread takes the call next, because it is one of its uploader's own, finishing a call. */
    static boolean offer(Call call) {
        Handoff handoff = open(call);
        if (handoff == null) {
            return false;
        }
        handoff.next = call;
        return true;
    }

    /**
     * Whether this thread, ending {@code call}, would take the next call of its executor that is started now: one of
     * the uploader's own threads, that has not taken one yet.
     */
    static boolean takesNext(Call call) {
        return open(call) != null;
    }

    private static @Nullable Handoff open(Call call) {
        if (call.runOn() != call.engine.handsOff) {
            return null; // before the thread-local: a thread that is not ours may have no map of them yet
        }
        Handoff handoff = CURRENT.get();
        return handoff == null || handoff.next != null || handoff.engine != call.engine ? null : handoff;
    }

    /**
     * Whether this thread, running a call of {@link Engine#handsOff}, is one of that executor's: one the uploader's own
     * made, or, on a supplied one, any thread that runs its call while it is not shut down (it runs calls on other
     * threads only when it refuses them: a refused delete runs where it was refused).
     */
    private static boolean isItsThread(Engine engine) {
        return engine.ownExecutor != null ? engine.threads.owns(Thread.currentThread()) : !isShutdown(engine.handsOff);
    }

    private static boolean isShutdown(@Nullable ExecutorService executor) {
        return executor != null && executor.isShutdown();
    }
}
