package io.github.boundedupload.support;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads for work a storage adapter splits off an upload (the parts of a multipart upload, for example) without a
 * pool of its own: a thread per task, virtual where the JDK has them. Compiled for Java 17, so the virtual threads of
 * Java 21 are reached by method handles. Changes when the way an adapter's split-off work gets a thread changes.
 *
 * <p>No thread inherits the creating thread's inheritable thread-locals: threads are created from whichever thread
 * asks at that moment, and would otherwise carry its MDC or security context into unrelated work.
 */
public final class Threads {

    private static final Optional<MethodHandlesHolder> VIRTUAL = MethodHandlesHolder.find();

    private Threads() {
    }

    /**
     * Virtual threads named {@code prefix1}, {@code prefix2}, ..., when the JDK has them (Java 21 and later).
     *
     * @param prefix the start of every thread's name
     * @return the factory, or empty before Java 21
     */
    public static Optional<ThreadFactory> virtual(String prefix) {
        return VIRTUAL.map(handles -> handles.factory(prefix));
    }

    /**
     * Virtual threads where the JDK has them, else daemon platform threads; named {@code prefix1}, {@code prefix2},
     * and so on.
     *
     * @param prefix the start of every thread's name
     * @return the factory
     */
    public static ThreadFactory virtualOrDaemon(String prefix) {
        return virtual(prefix).orElseGet(() -> platform(prefix, true));
    }

    /**
     * Platform threads named {@code prefix1}, {@code prefix2}, and so on.
     *
     * @param prefix the start of every thread's name
     * @param daemon whether the threads are daemon threads
     * @return the factory
     */
    public static ThreadFactory platform(String prefix, boolean daemon) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(null, task, prefix + count.incrementAndGet(), 0, false);
            thread.setDaemon(daemon);
            return thread;
        };
    }

    /**
     * {@code Thread.ofVirtual().name(prefix, 1).inheritInheritableThreadLocals(false).factory()}, by method
     * handles.
     */
    private static final class MethodHandlesHolder {
        private final java.lang.invoke.MethodHandle ofVirtual;
        private final java.lang.invoke.MethodHandle name;
        private final java.lang.invoke.MethodHandle inherit;
        private final java.lang.invoke.MethodHandle factory;

        private MethodHandlesHolder(Class<?> builder, Class<?> ofVirtualClass) throws ReflectiveOperationException {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            ofVirtual = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtualClass));
            name = lookup.findVirtual(ofVirtualClass, "name",
                    MethodType.methodType(ofVirtualClass, String.class, long.class));
            inherit = lookup.findVirtual(builder, "inheritInheritableThreadLocals",
                    MethodType.methodType(builder, boolean.class));
            factory = lookup.findVirtual(builder, "factory", MethodType.methodType(ThreadFactory.class));
        }

        static Optional<MethodHandlesHolder> find() {
            if (Runtime.version().feature() < 21) {
                return Optional.empty();
            }
            try {
                return Optional.of(new MethodHandlesHolder(Class.forName("java.lang.Thread$Builder"),
                        Class.forName("java.lang.Thread$Builder$OfVirtual")));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot create virtual threads on Java " + Runtime.version(), e);
            }
        }

        ThreadFactory factory(String prefix) {
            try {
                Object builder = name.invoke(ofVirtual.invoke(), prefix, 1L);
                return (ThreadFactory) factory.invoke(inherit.invoke(builder, false));
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException("cannot create virtual threads on Java " + Runtime.version(), e);
            }
        }
    }
}
