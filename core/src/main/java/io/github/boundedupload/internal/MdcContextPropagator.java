package io.github.boundedupload.internal;

import io.github.boundedupload.spi.ContextPropagator;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

/** Carries the SLF4J MDC to upload threads and restores theirs afterwards. */
public enum MdcContextPropagator implements ContextPropagator {
    INSTANCE;

    @Override
    public Captured capture() {
        Map<String, String> captured = MDC.getCopyOfContextMap();
        return () -> {
            Map<String, String> previous = MDC.getCopyOfContextMap();
            install(captured);
            return () -> install(previous);
        };
    }

    private static void install(@Nullable Map<String, String> context) {
        if (context == null || context.isEmpty()) {
            MDC.clear();
        } else {
            MDC.setContextMap(context);
        }
    }
}
