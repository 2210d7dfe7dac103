package io.github.boundedupload.internal.step;

import io.github.boundedupload.ConcurrentAttachmentUploader;

import io.github.boundedupload.spi.ContextPropagator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an action with a batch's context (its MDC, trace, security), so that every listener call and every storage call
 * happens as if on the submitting thread. A failing propagator costs the context, never the action: an action the
 * context did not run (it failed first, or dropped the action) runs without it, and the action's own failure is the
 * one that propagates. Changes when what a context propagator may do to an action changes.
 */
public final class InContext implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ConcurrentAttachmentUploader.class);

    private final Runnable action;
    private boolean started;
    private @Nullable Throwable failure;

    private InContext(Runnable action) {
        this.action = action;
    }

    /** Runs {@code action} once, in {@code context}; its own failure propagates. */
    public static void run(ContextPropagator.Captured context, Runnable action) {
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

    private void rethrow() {
        if (failure instanceof RuntimeException) {
            throw (RuntimeException) failure;
        }
        if (failure instanceof Error) {
            throw (Error) failure;
        }
    }
}
