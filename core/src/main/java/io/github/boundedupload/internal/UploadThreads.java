package io.github.boundedupload.internal;

import io.github.boundedupload.ExecutorType;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.support.Threads;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The uploader's own threads: a named pool of platform threads, or virtual threads, and one timer thread. Every
 * thread it creates is tracked until it ends, so that {@link #join(long)} can make sure none is left behind. All are
 * daemon threads: a call to the storage that ignores interrupts, given up on at {@code close()}, cannot keep the JVM
 * from exiting. Changes when the kinds of threads an uploader makes change.
 *
 * <p>Threads start clean: they do not inherit the creating thread's inheritable thread-locals. Threads are created
 * lazily, from whichever thread submits work at that moment; inheriting would give every upload thread the first
 * caller's MDC (SLF4J's {@code BasicMDCAdapter}, log4j2 when configured so) or security context for good.
 */
final class UploadThreads {

    private static final int FIRST_RELEASE_WITHOUT_PINNING = 24;
    private final Set<Thread> alive = ConcurrentHashMap.newKeySet();

    /** Whether the thread is one this factory created (a worker of the uploader's own executor, or its timer). */
    boolean owns(Thread thread) {
        return alive.contains(thread);
    }

    /** Waits up to {@code nanos} for every thread this factory created to end; {@code true} when none is left. */
    boolean join(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        for (Thread thread : alive) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            TimeUnit.NANOSECONDS.timedJoin(thread, left);
        }
        alive.removeIf(thread -> thread.getState() == Thread.State.TERMINATED);
        return alive.stream().noneMatch(Thread::isAlive); // (one made but never started is not left behind)
    }

    /**
     * Tracks each thread the factory creates until it has ended, not only its task: a thread whose task has returned
     * is still alive for a moment, and {@link #join(long)} must wait for that too. Threads that ended are forgotten
     * when the next one is made, so the set stays as large as the pool.
     */
    private ThreadFactory tracked(ThreadFactory factory) {
        return task -> {
            alive.removeIf(thread -> thread.getState() == Thread.State.TERMINATED);
            Thread thread = factory.newThread(task);
            alive.add(thread);
            return thread;
        };
    }

    /**
     * Whether a supplied executor is the JDK's executor that starts a new thread for each task and does nothing else
     * ({@code Executors.newVirtualThreadPerTaskExecutor()}, {@code Executors.newThreadPerTaskExecutor(factory)} of Java
     * 21): it cannot decorate its tasks, so a call run on a thread it made for an earlier call runs as it would on a
     * thread of its own, made by the same factory. Known by its class, which only the JDK makes: an executor of another
     * class, or of a later JDK that renames it, simply gets a task per call.
     */
    static boolean makesAThreadPerTask(Executor executor) {
        return executor instanceof ExecutorService
                && executor.getClass().getName().equals("java.util.concurrent.ThreadPerTaskExecutor");
    }

    /** What {@link ExecutorType#AUTO} means for a blocking or a non-blocking storage; other types stay as asked. */
    static ExecutorType resolve(ExecutorType type, boolean blockingStorage) {
        if (type == ExecutorType.AUTO) {
            return !blockingStorage && Runtime.version().feature() >= FIRST_RELEASE_WITHOUT_PINNING
                    ? ExecutorType.VIRTUAL : ExecutorType.PLATFORM;
        }
        return type; // VIRTUAL before Java 21 is refused by UploaderConfig.Builder.build()
    }

    /**
     * An executor for at most {@code maxConcurrentUploads} tasks at once: the uploader never hands it more, because
     * every task holds a permit. A blocking storage needs a thread per permit; a non-blocking one only needs threads
     * to start requests, so its pool stays small however many uploads are in flight. The queue is bounded by the
     * permits too.
     */
    ExecutorService create(UploaderConfig config, boolean blockingStorage) {
        String prefix = "bounded-upload-" + config.name() + "-";
        if (resolve(config.executorType(), blockingStorage) == ExecutorType.VIRTUAL) {
            return virtual(prefix);
        }
        int threads = blockingStorage ? config.maxConcurrentUploads()
                : Math.min(config.maxConcurrentUploads(), Math.max(2, Runtime.getRuntime().availableProcessors()));
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(config.maxConcurrentUploads()), tracked(Threads.platform(prefix, true)),
                new ThreadPoolExecutor.AbortPolicy());
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /**
     * Grows ({@code delta > 0}) or shrinks an own pool of platform threads: a call given up on still holds its thread,
     * and the permit it freed needs one. Does nothing to virtual threads or a supplied executor.
     */
    static void resize(@Nullable ExecutorService executor, int delta) {
        if (!(executor instanceof ThreadPoolExecutor)) {
            return;
        }
        ThreadPoolExecutor pool = (ThreadPoolExecutor) executor;
        synchronized (pool) {
            if (pool.isShutdown()) {
                return;
            }
            if (delta > 0) {
                pool.setMaximumPoolSize(pool.getMaximumPoolSize() + delta);
                pool.setCorePoolSize(pool.getCorePoolSize() + delta);
            } else {
                pool.setCorePoolSize(pool.getCorePoolSize() + delta);
                pool.setMaximumPoolSize(pool.getMaximumPoolSize() + delta);
            }
        }
    }

    /** One daemon thread for timeouts, gone when idle. */
    ScheduledThreadPoolExecutor timer(UploaderConfig config) {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1,
                tracked(Threads.platform("bounded-upload-" + config.name() + "-timer-", true)));
        timer.setRemoveOnCancelPolicy(true);
        timer.setKeepAliveTime(10, TimeUnit.SECONDS);
        timer.allowCoreThreadTimeOut(true);
        return timer;
    }

    /** {@code Executors.newThreadPerTaskExecutor(factory)}, compiled for 17. */
    private ExecutorService virtual(String prefix) {
        ThreadFactory factory = tracked(Threads.virtual(prefix).orElseThrow(() -> new IllegalStateException(
                "virtual threads need Java 21 or later; this is " + Runtime.version())));
        try {
            return (ExecutorService) MethodHandles.publicLookup().findStatic(java.util.concurrent.Executors.class,
                    "newThreadPerTaskExecutor", MethodType.methodType(ExecutorService.class, ThreadFactory.class))
                    .invoke(factory);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("cannot create virtual threads on Java " + Runtime.version(), e);
        }
    }
}
