package io.github.boundedupload.internal.step;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.spi.ContextPropagator;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flat combining of the ends of calls on virtual threads. A virtual thread that finds the lock held parks, leaves its
 * carrier, and mounts again when the lock is handed to it: when many uploads end at once, every end paid that, one
 * after the other (JMH, a batch of 10,000 on virtual threads: 15 % of the samples in the lock). Such an end is handed
 * over instead ({@link StepLock#runOrCombine}): pushed on a stack, and run under the lock, its effects after, by the one
 * thread combining (the first to hand a step over while none was), which runs every step handed over until none is;
 * the thread that handed it over goes on at once. Changes when how the ends of calls on virtual threads take the lock
 * changes.
 */
public final class Combiner {

    private static final Logger LOG = LoggerFactory.getLogger(ConcurrentAttachmentUploader.class);

    /** The bottom of the stack of steps handed over while a thread combines; never run. */
    private static final Step COMBINING = new Step() {
        @Override
        protected void runCombined(Effects effects) {
            throw new IllegalStateException("the bottom of the stack of steps handed over is never run");
        }

        @Override
        protected ContextPropagator.Captured stepContext() {
            throw new IllegalStateException("the bottom of the stack of steps handed over has no context");
        }

        @Override
        protected boolean takesNextCall() {
            return false;
        }
    };

    private final StepLock lock;
    /**
     * The stack of steps handed over ({@link #combine}: the ends of uploads on virtual threads), at most one per upload
     * in flight: {@code null} while no thread combines; while one does, never empty: {@link #COMBINING}, with the steps
     * handed over since its last take above it.
     */
    private final AtomicReference<@Nullable Step> handedOver = new AtomicReference<>();

    Combiner(StepLock lock) {
        this.lock = lock;
    }

    /**
     * A step that can be combined: the end of a call to the storage. It is its own node of the stack of steps handed over, so
     * that handing one over allocates nothing.
     */
    public abstract static class Step {
        /** Below it on the stack; once taken, the next in the order the steps came in; {@code null} once run. */
        @Nullable Step nextStep;

        /** Under the lock, by the combining thread (or, on a platform thread, by its own): the step. */
        protected abstract void runCombined(Effects effects);

        /** The context the step's effects run in. */
        protected abstract ContextPropagator.Captured stepContext();

        /** Whether this thread takes the next call the step starts (the hand-off of the uploader's own threads). */
        protected abstract boolean takesNextCall();
    }

    /**
     * Hands a step over, or combines: pushed on a stack (the step is its own node: nothing is allocated per step); then,
     * if no thread was combining, this thread takes every step handed over (one swap for all of them), runs them under
     * the lock in the order they came in, in holds of at most {@value StepLock#SLICE}, and takes again until none is
     * left; then, no longer combining (a step handed over meanwhile finds a thread of its own), their effects, in the
     * order they were decided, each in its step's context (the effects of steps of one context in a row share one
     * application of it; none for this thread's own, {@code step}'s, which it is in). Effects come after, because they
     * run foreign code (listeners, whatever waits for a batch's future, even a batch of this uploader submitted from
     * there), which must never hold up the ends of other uploads. Combining ends: each step frees a permit, and the call
     * that permit goes to starts only with the effects, so the calls that can still end run out. A step that fails is
     * reported as an internal error and does not stop the others.
     */
    void combine(Step step) {
        Step top;
        do {
            top = handedOver.get();
            step.nextStep = top;
        } while (!handedOver.compareAndSet(top, step));
        if (top != null) {
            return; // a thread combines (the stack is never empty while one does): it takes this one
        }
        Combined combined = new Combined();
        do {
            // Everything pushed since the last take, down to the mark (or, the first time, to the end).
            runAll(inOrder(handedOver.getAndSet(COMBINING)), combined);
        } while (!handedOver.compareAndSet(COMBINING, null));
        combined.runEffects(step.stepContext());
    }

    /** Reverses steps taken from the stack into the order they came in, ending in {@code null}. */
    private static Step inOrder(Step top) {
        Step ordered = null;
        Step next = top;
        while (next != null && next != COMBINING) {
            Step below = next.nextStep;
            next.nextStep = ordered;
            ordered = next;
            next = below;
        }
        return Objects.requireNonNull(ordered);
    }

    /** Runs steps under the lock, in holds of at most {@value StepLock#SLICE}. */
    private void runAll(@Nullable Step first, Combined combined) {
        Step next = first;
        while (next != null) {
            long start = lock.lock();
            try {
                for (int i = 0; i < StepLock.SLICE && next != null; i++) {
                    Step step = next;
                    next = step.nextStep;
                    step.nextStep = null;
                    runOne(step, combined);
                }
            } finally {
                lock.unlock(start);
            }
        }
    }

    /** Runs a step under the lock. One that fails is reported and does not stop the others. */
    private void runOne(Step step, Combined combined) {
        try {
            lock.runCombinedStep(step, combined.effectsFor(step.stepContext()));
        } catch (RuntimeException | Error e) {
            LOG.error("internal error in bounded-upload; please report it", e);
            combined.failed(e);
        }
    }

    /**
     * What a combining thread has run: the effects of its steps in the order they were decided, in groups of steps in a
     * row with one context (one batch), each applied once; and the first {@link Error} of a step.
     */
    private static final class Combined {
        private @Nullable InContextEffects first;
        private @Nullable InContextEffects last;
        private @Nullable Error fatal;

        /** The effects of a step in {@code context}: those of the step before it, if it had the same context. */
        Effects effectsFor(ContextPropagator.Captured context) {
            InContextEffects group = last;
            if (group == null || group.context != context) {
                group = new InContextEffects(context);
                if (last == null) {
                    first = group;
                } else {
                    last.next = group;
                }
                last = group;
            }
            return group.effects;
        }

        void failed(Throwable failure) {
            if (fatal == null && failure instanceof Error) {
                fatal = (Error) failure;
            }
        }

        /**
         * After combining: runs the effects, each group in its context, except {@code own}, which this thread is in
         * already; then throws the first {@link Error} of a step, if there was one.
         */
        void runEffects(ContextPropagator.Captured own) {
            for (InContextEffects group = first; group != null; group = group.next) {
                if (group.context == own) {
                    group.effects.run();
                } else {
                    InContext.run(group.context, group.effects::run);
                }
            }
            if (fatal != null) {
                throw fatal;
            }
        }
    }

    /** Effects of steps combined in a row with one context, and run in it. */
    private static final class InContextEffects {
        final ContextPropagator.Captured context;
        final Effects effects = new Effects();
        @Nullable InContextEffects next;

        InContextEffects(ContextPropagator.Captured context) {
            this.context = context;
        }
    }
}
