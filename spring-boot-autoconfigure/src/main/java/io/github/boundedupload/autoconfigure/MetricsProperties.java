package io.github.boundedupload.autoconfigure;

/** Settings of the Micrometer metrics. */
public class MetricsProperties {

    /**
     * Whether to publish the uploader's meters (bounded.upload.*, and executor.* for its own thread pool) to the
     * application's MeterRegistry.
     */
    private boolean enabled = true;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }
}
