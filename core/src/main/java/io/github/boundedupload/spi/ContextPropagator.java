package io.github.boundedupload.spi;

import io.github.boundedupload.internal.MdcContextPropagator;

/**
 * Carries thread-local context (logging MDC, tracing, security) from the thread that submits a batch to the threads
 * that upload it, and removes it again afterwards. The default is {@link #mdc()}.
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
        return MdcContextPropagator.INSTANCE;
    }

    /**
     * Propagates nothing.
     *
     * @return a propagator that does nothing
     */
    static ContextPropagator none() {
        return () -> () -> () -> { };
    }
}
