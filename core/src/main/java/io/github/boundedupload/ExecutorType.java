package io.github.boundedupload;

/**
 * Which threads the uploader creates for itself when no executor is supplied. Changes when the uploader can create
 * another kind of thread.
 */
public enum ExecutorType {
    /**
     * For a blocking storage ({@link io.github.boundedupload.spi.FileUploader}), {@link #PLATFORM}: on the SDK's
     * blocking clients, whose reads have a socket timeout, virtual threads cost 5 to 8 % more CPU per upload (measured
     * in the project's benchmark: the JDK backs each read that waits with a timer task), and on Java 21 to 23 they pin
     * their carrier in the clients' {@code synchronized} blocks. For a non-blocking storage
     * ({@link io.github.boundedupload.spi.AsyncFileUploader}), whose threads only start requests, virtual threads on a
     * JVM where they do not pin their carrier (Java 24 and later, JEP 491), platform threads otherwise. Ask for
     * {@link #VIRTUAL} to have virtual threads in every case.
     */
    AUTO,
    /** A bounded pool of platform threads, one per permitted upload, that shrinks when idle. */
    PLATFORM,
    /** One new virtual thread per upload (Java 21 and later); the permits bound how many exist at once. */
    VIRTUAL
}
