package io.github.boundedupload.autoconfigure;

/** Settings of the logging MDC propagation. Changes when the MDC propagation gets another setting. */
public class MdcProperties {

    /**
     * Whether the upload threads see the SLF4J MDC of the thread that submitted the batch, so that what storage
     * clients and listeners log carries the request's context. Ignored when the application defines a
     * ContextPropagator bean.
     */
    private boolean enabled = true;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }
}
