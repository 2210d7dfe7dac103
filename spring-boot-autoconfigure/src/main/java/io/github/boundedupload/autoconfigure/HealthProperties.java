package io.github.boundedupload.autoconfigure;

import java.time.Duration;

/** Settings of the Actuator health indicator. */
public class HealthProperties {

    /**
     * Whether to contribute the 'boundedUpload' health indicator: DOWN when the uploader is closed, its local
     * storage directory is not writable, or its S3 bucket cannot be found or reached (HeadBucket), with its load
     * and limits as details.
     */
    private boolean enabled = true;

    /**
     * How long the health check waits for the storage to answer (S3's HeadBucket, retries included) before it
     * reports the storage DOWN.
     */
    private Duration timeout = Duration.ofSeconds(5);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }
}
