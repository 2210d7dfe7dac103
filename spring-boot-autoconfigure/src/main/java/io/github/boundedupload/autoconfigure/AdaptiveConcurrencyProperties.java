package io.github.boundedupload.autoconfigure;

/**
 * Settings of the adaptive limit on uploads in flight: the default of
 * {@link io.github.boundedupload.limits.AdaptiveConcurrency#create(int, int)}, on Netflix concurrency-limits.
 * Changes when the adaptive limit gets another setting.
 */
public class AdaptiveConcurrencyProperties {

    /** Default {@link #getInitialLimit()}. */
    public static final int DEFAULT_INITIAL_LIMIT = 8;

    /**
     * Whether the number of uploads in flight follows the storage: it grows while answers come as fast as before,
     * and shrinks when they slow down, time out, ask to slow down (S3's 503 SlowDown) or lose their connection;
     * never above max-concurrent-uploads. Needs com.netflix.concurrency-limits:concurrency-limits-core on the
     * classpath.
     */
    private boolean enabled = false;

    /**
     * Limit to start from, before the storage has answered; at most max-concurrent-uploads (a larger value starts
     * there).
     */
    private int initialLimit = DEFAULT_INITIAL_LIMIT;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public int getInitialLimit() {
        return initialLimit;
    }

    public void setInitialLimit(int initialLimit) {
        this.initialLimit = initialLimit;
    }
}
