package io.github.boundedupload.internal.step;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.jspecify.annotations.Nullable;

/** {@code Thread.isVirtual()} of Java 21, for code compiled for 17. Changes when the baseline reaches Java 21. */
public final class VirtualThreads {

    /** {@code Thread.isVirtual()}, or {@code null} before Java 21. */
    private static final @Nullable MethodHandle IS_VIRTUAL = isVirtualHandle();

    private VirtualThreads() {
    }

    /** Whether {@code thread} is a virtual thread ({@code Thread.isVirtual()}, compiled for 17). */
    public static boolean isVirtual(Thread thread) {
        MethodHandle isVirtual = IS_VIRTUAL;
        if (isVirtual == null) {
            return false;
        }
        try {
            return (boolean) isVirtual.invokeExact(thread);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static @Nullable MethodHandle isVirtualHandle() {
        if (Runtime.version().feature() < 21) {
            return null;
        }
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual",
                    MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no Thread.isVirtual() on Java " + Runtime.version(), e);
        }
    }

}
