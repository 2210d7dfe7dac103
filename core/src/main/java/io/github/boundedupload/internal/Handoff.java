package io.github.boundedupload.internal;

import java.util.concurrent.ExecutorService;
import org.jspecify.annotations.Nullable;

/**
 * A thread of the uploader's own executor that finishes a call runs the call its end started, instead of waking
 * another thread for it and going to sleep: in a saturated pipeline (a batch larger than its permits) every upload
 * would otherwise cost two context switches, one thread parking and another waking, which on a busy machine is CPU
 * taken from the rest of the application (benchmark scenario E: the p99 of an unrelated task next to a 14,000-upload
 * batch). Only the first call a step starts is handed off; others go to the executor, so concurrency is what the
 * permits say. Only the uploader's own executor: a supplied one may decorate its tasks (a Spring {@code TaskDecorator}
 * binding a security context), which a handed-off call would skip. Changes when how a call gets its thread changes.
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
        // Ownership first: on a thread that is not the uploader's (a supplied executor's, perhaps a fresh virtual
        // thread per call), ThreadLocal.get() would create the thread's map of thread-locals, for nothing.
        if (first.runOn() != engine.ownExecutor || !engine.threads.owns(Thread.currentThread())
                || CURRENT.get() != null) {
            first.runHere();
            return;
        }
        Handoff handoff = new Handoff(engine);
        CURRENT.set(handoff);
        try {
            Call call = first;
            while (call != null) {
                handoff.next = null;
                call.runHere();
                call = handoff.next;
                if (call != null && (Thread.currentThread().isInterrupted() || isShutdown(engine.ownExecutor))) {
                    // Stopping: the call goes the usual way, where a refusal is reported.
                    Call refused = call;
                    call = null;
                    CURRENT.remove();
                    refused.start();
                }
            }
        } finally {
            CURRENT.remove();
        }
    }

    /** Whether this thread takes the call next, because it is one of its uploader's own, finishing a call. */
    static boolean offer(Call call) {
        if (call.runOn() != call.engine.ownExecutor) {
            return false;
        }
        Handoff handoff = CURRENT.get();
        if (handoff == null || handoff.next != null || handoff.engine != call.engine) {
            return false;
        }
        handoff.next = call;
        return true;
    }

    private static boolean isShutdown(@Nullable ExecutorService executor) {
        return executor != null && executor.isShutdown();
    }
}
