package io.github.boundedupload;

/**
 * Which threads the uploader creates for itself when no executor is supplied. Changes when the uploader can create
 * another kind of thread.
 */
public enum ExecutorType {
    /**
     * Virtual threads on a JVM where they do not pin their carrier in {@code synchronized} blocks (Java 24 and
     * later, JEP 491), platform threads otherwise. Blocking HTTP clients synchronise internally, and pinned virtual
     * threads on Java 21 to 23 can cut the number of uploads really in flight to the number of cores. On a blocking
     * client whose reads have a socket timeout, virtual threads cost some more CPU per upload than {@link #PLATFORM}
     * (about 5 % on the SDK's Apache client, measured in the project's benchmark): the JDK backs each read that
     * waits with a timer task.
     */
    AUTO,
    /** A bounded pool of platform threads, one per permitted upload, that shrinks when idle. */
    PLATFORM,
    /** One new virtual thread per upload (Java 21 and later); the permits bound how many exist at once. */
    VIRTUAL
}
