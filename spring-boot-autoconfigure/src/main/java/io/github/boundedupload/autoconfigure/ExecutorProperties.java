package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ExecutorType;
import org.jspecify.annotations.Nullable;

/** Settings of the uploader's own threads. Changes when the uploader's threads get another setting. */
public class ExecutorProperties {

    /**
     * Which threads the uploader creates for itself when the application defines no 'boundedUploadExecutor'
     * bean: 'platform' (a bounded pool of named platform threads), 'virtual' (Java 21 or later) or 'auto'
     * (platform threads for a blocking storage; for a non-blocking one, virtual threads from Java 24 on, platform
     * threads before). When not set: 'virtual' if spring.threads.virtual.enabled is true and the JVM has virtual
     * threads, 'auto' otherwise.
     */
    private @Nullable ExecutorType type;

    public @Nullable ExecutorType getType() {
        return type;
    }

    public void setType(@Nullable ExecutorType type) {
        this.type = type;
    }
}
