package io.github.boundedupload.internal;

import io.github.boundedupload.ExecutorType;
import io.github.boundedupload.UploaderConfig;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The uploader's own threads: a named pool of platform threads, or virtual threads, and one timer thread. */
final class UploadThreads {

    private static final int FIRST_RELEASE_WITHOUT_PINNING = 24;

    private UploadThreads() {
    }

    static boolean virtualThreadsAvailable() {
        return Runtime.version().feature() >= 21;
    }

    static ExecutorType resolve(ExecutorType type) {
        if (type == ExecutorType.AUTO) {
            return Runtime.version().feature() >= FIRST_RELEASE_WITHOUT_PINNING ? ExecutorType.VIRTUAL
                    : ExecutorType.PLATFORM;
        }
        if (type == ExecutorType.VIRTUAL && !virtualThreadsAvailable()) {
            throw new IllegalArgumentException("executorType VIRTUAL needs Java 21 or later, this is Java "
                    + Runtime.version().feature());
        }
        return type;
    }

    /**
     * An executor for at most {@code maxConcurrentUploads} tasks at once: the uploader never hands it more, because
     * every task holds a permit. Its queue is bounded by the same number for the moments a thread is still finishing
     * its previous task.
     */
    static ExecutorService create(UploaderConfig config) {
        String prefix = "bounded-upload-" + config.name() + "-";
        if (resolve(config.executorType()) == ExecutorType.VIRTUAL) {
            return virtual(prefix);
        }
        int threads = config.maxConcurrentUploads();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(threads), named(prefix, false), new ThreadPoolExecutor.AbortPolicy());
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** One daemon thread for timeouts, gone when idle. */
    static ScheduledThreadPoolExecutor timer(UploaderConfig config) {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1,
                named("bounded-upload-" + config.name() + "-timer-", true));
        timer.setRemoveOnCancelPolicy(true);
        timer.setKeepAliveTime(10, TimeUnit.SECONDS);
        timer.allowCoreThreadTimeOut(true);
        return timer;
    }

    private static ThreadFactory named(String prefix, boolean daemon) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, prefix + count.incrementAndGet());
            thread.setDaemon(daemon);
            return thread;
        };
    }

    /** {@code Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(prefix, 1).factory())}, compiled for 17. */
    private static ExecutorService virtual(String prefix) {
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Class<?> builderClass = Class.forName("java.lang.Thread$Builder");
            Class<?> ofVirtualClass = Class.forName("java.lang.Thread$Builder$OfVirtual");
            Object builder = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtualClass))
                    .invoke();
            builder = lookup.findVirtual(ofVirtualClass, "name",
                    MethodType.methodType(ofVirtualClass, String.class, long.class)).invoke(builder, prefix, 1L);
            ThreadFactory factory = (ThreadFactory) lookup.findVirtual(builderClass, "factory",
                    MethodType.methodType(ThreadFactory.class)).invoke(builder);
            return (ExecutorService) lookup.findStatic(java.util.concurrent.Executors.class,
                    "newThreadPerTaskExecutor", MethodType.methodType(ExecutorService.class, ThreadFactory.class))
                    .invoke(factory);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("cannot create virtual threads on Java " + Runtime.version(), e);
        }
    }
}
