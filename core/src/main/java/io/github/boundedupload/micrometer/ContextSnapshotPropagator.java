package io.github.boundedupload.micrometer;

import io.github.boundedupload.spi.ContextPropagator;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import java.util.Objects;

/**
 * Carries every thread-local that Micrometer's context-propagation library knows (the current observation, and so the
 * tracing span; Spring Security's context; whatever the application registered with its {@code ContextRegistry})
 * from the submitting thread to the upload threads, and restores theirs afterwards. Combine it with the MDC:
 * {@code ContextPropagator.of(ContextPropagator.mdc(), new ContextSnapshotPropagator())} (the Spring Boot starter
 * does, when {@code io.micrometer:context-propagation} is on the class path). Changes when the way Micrometer's context
 * snapshots are taken and restored changes.
 */
public final class ContextSnapshotPropagator implements ContextPropagator {

    private final ContextSnapshotFactory snapshots;

    /** A propagator of every thread-local in the global {@code ContextRegistry}. */
    public ContextSnapshotPropagator() {
        this(ContextSnapshotFactory.builder().build());
    }

    /**
     * A propagator that captures with a factory of the application's (another registry, or a filter).
     *
     * @param snapshots the factory
     */
    public ContextSnapshotPropagator(ContextSnapshotFactory snapshots) {
        this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
    }

    @Override
    public Captured capture() {
        ContextSnapshot snapshot = snapshots.captureAll();
        return () -> snapshot.setThreadLocals()::close;
    }

    @Override
    public String toString() {
        return "ContextSnapshotPropagator";
    }
}
