package io.github.boundedupload.autoconfigure;

import java.time.Duration;

/**
 * Settings of the Actuator health indicator ({@code boundedUpload}). Spring Boot's own switch turns it off:
 * {@code management.health.bounded-upload.enabled=false}, or {@code management.health.defaults.enabled=false}.
 * Changes when the health indicator gets another setting.
 */
public class HealthProperties {

    /**
     * How long the health check waits for the storage to answer (S3's HeadBucket, retries included) before it
     * reports the storage DOWN.
     */
    private Duration timeout = Duration.ofSeconds(5);

    /**
     * How long the answer of the storage's check (S3's HeadBucket) is reused by later probes, so that a probe every few
     * seconds in every instance does not become a request to S3 each; 0 checks at every probe.
     */
    private Duration cacheTime = Duration.ofSeconds(5);

    public Duration getCacheTime() {
        return cacheTime;
    }

    public void setCacheTime(Duration cacheTime) {
        this.cacheTime = cacheTime;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }
}
