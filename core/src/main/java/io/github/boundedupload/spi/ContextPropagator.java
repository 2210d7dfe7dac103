package io.github.boundedupload.spi;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

/**
 * Carries thread-local context (logging MDC, tracing, security) from the thread that submits a batch to the threads
 * that upload it, and removes it again afterwards. The default is {@link #mdc()}. Changes when the way context is
 * captured, applied and restored changes.
 *
 * <pre>{@code
 * ContextPropagator tenant = () -> {
 *     String captured = TenantHolder.get();          // on the submitting thread
 *     return () -> {                                 // on an upload thread, any number of times
 *         String previous = TenantHolder.get();
 *         TenantHolder.set(captured);
 *         return () -> TenantHolder.set(previous);   // restore
 *     };
 * };
 * }</pre>
 */
@FunctionalInterface
public interface ContextPropagator {

    /**
     * Captures the current thread's context. Called once per batch, on the submitting thread.
     *
     * @return the captured context
     */
    Captured capture();

    /** A captured context, applied on other threads. */
    @FunctionalInterface
    interface Captured {
        /**
         * Applies the captured context to the current thread.
         *
         * @return restores what the thread had before
         */
        Scope apply();

        /**
         * Runs an action with the captured context, and restores what the thread had afterwards. The uploader runs
         * all its work for a batch through this method. By default: {@link #apply()}, the action, then
         * {@link Scope#close()}. A context that can only wrap work, not be applied and restored apart from it (a
         * Spring {@code TaskDecorator}), overrides it, and may throw {@link UnsupportedOperationException} from
         * {@code apply()}.
         *
         * @param action the action, run once on the current thread
         */
        default void run(Runnable action) {
            Scope scope = apply();
            try {
                action.run();
            } finally {
                scope.close();
            }
        }
    }

    /** Restores a thread's previous context when closed. */
    @FunctionalInterface
    interface Scope extends AutoCloseable {
        /** Restores the previous context. */
        @Override
        void close();
    }

    /**
     * Propagates the SLF4J MDC: the upload threads see the submitter's MDC while they work on its batch, and their
     * own (usually empty) MDC again afterwards.
     *
     * @return the MDC propagator
     */
    static ContextPropagator mdc() {
        return Mdc.INSTANCE;
    }

    /**
     * Propagates several kinds of context: applied in this order, restored in the reverse.
     *
     * @param propagators the propagators, such as {@link #mdc()} and a tracing or security propagator
     * @return a propagator of all of them
     */
    static ContextPropagator of(ContextPropagator... propagators) {
        List<ContextPropagator> all = List.of(propagators);
        return () -> {
            List<Captured> captured = new ArrayList<>(all.size());
            for (ContextPropagator propagator : all) {
                captured.add(propagator.capture());
            }
            return new Captured() {
                @Override
                public Scope apply() {
                    Deque<Scope> scopes = new ArrayDeque<>(captured.size());
                    try {
                        for (Captured context : captured) {
                            scopes.push(context.apply());
                        }
                    } catch (RuntimeException e) {
                        scopes.forEach(Scope::close);
                        throw e;
                    }
                    return () -> scopes.forEach(Scope::close); // the last applied first
                }

                @Override
                public void run(Runnable action) {
                    run(0, action);
                }

                /** The first context outermost, so applied first and restored last. */
                private void run(int index, Runnable action) {
                    if (index == captured.size()) {
                        action.run();
                    } else {
                        captured.get(index).run(() -> run(index + 1, action));
                    }
                }
            };
        };
    }

    /**
     * Propagates nothing.
     *
     * @return a propagator that does nothing
     */
    static ContextPropagator none() {
        return () -> () -> () -> { };
    }

    /**
     * What {@link #mdc()} returns: carries the SLF4J MDC to upload threads and restores theirs afterwards. It lives
     * here, with the interface it implements, so that the default needs nothing else; use {@link #mdc()} to name it.
     */
    final class Mdc implements ContextPropagator {

        private static final Mdc INSTANCE = new Mdc();

        private Mdc() {
        }

        @Override
        public Captured capture() {
            Map<String, String> captured = MDC.getCopyOfContextMap();
            return () -> {
                Map<String, String> previous = MDC.getCopyOfContextMap();
                install(captured);
                return () -> install(previous);
            };
        }

        private static void install(@Nullable Map<String, String> context) {
            if (context == null || context.isEmpty()) {
                MDC.clear();
            } else {
                MDC.setContextMap(context);
            }
        }

        @Override
        public String toString() {
            return "ContextPropagator.mdc()";
        }
    }
}
