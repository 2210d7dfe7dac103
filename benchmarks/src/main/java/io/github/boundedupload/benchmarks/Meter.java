package io.github.boundedupload.benchmarks;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * What one measured run costs the JVM, besides time. Changes when what is measured of that cost, or how, changes.
 * The measures:
 *
 * <ul>
 *   <li><b>peak heap used</b>: {@code MemoryMXBean} heap used, sampled every 5 ms, garbage included (so it depends on
 *       when the collector runs as much as on the strategy);</li>
 *   <li><b>peak heap after GC</b>: the most heap still used right after any collection during the run (from the
 *       collectors' notifications) or after a full collection at its end: what the run really held;</li>
 *   <li><b>peak live threads</b>: {@code ThreadMXBean}'s peak, reset at the start. It counts platform threads only:
 *       virtual threads are not in it;</li>
 *   <li><b>CPU time</b>: the whole process's, from the operating system (native threads such as the CRT client's
 *       included): what the client side cost on the cores it shares with the server and the proxy;</li>
 *   <li><b>of it, the JIT's</b>: the CPU time of the JVM's compiler threads ({@link CompilerThreads}). The JIT goes on
 *       compiling long after a warm-up of a few hundred uploads (the SDK's per-request methods reach C2 after thousands
 *       of calls, and the clean-up between runs, other S3 operations through the same SDK code, sends some of them
 *       back), so a run catches an arbitrary part of it: the CPU without it is what an upload costs in steady state;</li>
 *   <li><b>bytes allocated</b>: on the heap, by every thread ({@code ThreadMXBean.getTotalThreadAllocatedBytes}); the
 *       CRT client's native memory is not in it.</li>
 * </ul>
 */
final class Meter {

    /** One run's figures. */
    record Usage(long peakHeapUsed, long peakHeapAfterGc, int peakThreads, long cpuNanos, long jitCpuNanos,
            long allocatedBytes) {
    }

    private static final long SAMPLE_MILLIS = 5;
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /**
     * {@code ThreadMXBean.getTotalThreadAllocatedBytes}, of Java 21 and 17.0.9 on: looked up, as it is not in Java 17's
     * API that javac 21 and later compile against for {@code --release 17}.
     */
    private static final MethodHandle TOTAL_ALLOCATED = totalAllocated();

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName)
            .collect(Collectors.toSet());
    private final AtomicLong peakUsed = new AtomicLong();
    private final AtomicLong peakAfterGc = new AtomicLong();
    private volatile boolean running;
    private long cpuAtStart;
    private long jitAtStart;
    private long allocatedAtStart;
    private Thread sampler;

    Meter() {
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) collector).addNotificationListener((notification, handback) -> {
                if (running && notification.getType()
                        .equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                    Map<String, MemoryUsage> after = GarbageCollectionNotificationInfo
                            .from((CompositeData) notification.getUserData()).getGcInfo().getMemoryUsageAfterGc();
                    peakAfterGc.accumulateAndGet(after.entrySet().stream()
                            .filter(pool -> heapPools.contains(pool.getKey()))
                            .mapToLong(pool -> pool.getValue().getUsed()).sum(), Math::max);
                }
            }, null, null);
        }
    }

    /** Starts a run: a full collection first, so that no earlier garbage is counted. */
    void start() {
        System.gc();
        threads.resetPeakThreadCount();
        peakUsed.set(heapUsed());
        peakAfterGc.set(0);
        running = true;
        sampler = new Thread(() -> {
            while (running) {
                peakUsed.accumulateAndGet(heapUsed(), Math::max);
                try {
                    Thread.sleep(SAMPLE_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "meter-heap-sampler");
        sampler.setDaemon(true);
        jitAtStart = CompilerThreads.cpuNanos();
        allocatedAtStart = totalAllocated(threads);
        cpuAtStart = processCpuNanos();
        sampler.start();
    }

    /** Ends the run and returns its figures. */
    Usage stop() {
        long cpu = processCpuNanos() - cpuAtStart;
        long allocated = totalAllocated(threads) - allocatedAtStart;
        long jit = CompilerThreads.cpuNanos() - jitAtStart;
        int peakThreads = threads.getPeakThreadCount();
        running = false;
        try {
            sampler.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        peakUsed.accumulateAndGet(heapUsed(), Math::max);
        System.gc();
        return new Usage(peakUsed.get(), Math.max(peakAfterGc.get(), heapUsed()), peakThreads, cpu, jit, allocated);
    }

    /** The whole process's CPU time so far, in nanoseconds. */
    static long processCpuNanos() {
        return OS.getProcessCpuTime();
    }

    private static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static MethodHandle totalAllocated() {
        try {
            return MethodHandles.publicLookup().findVirtual(com.sun.management.ThreadMXBean.class,
                    "getTotalThreadAllocatedBytes", MethodType.methodType(long.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the benchmarks need Java 21 (or 17.0.9) or later", e);
        }
    }

    private static long totalAllocated(com.sun.management.ThreadMXBean threads) {
        try {
            return (long) TOTAL_ALLOCATED.invokeExact(threads);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("ThreadMXBean.getTotalThreadAllocatedBytes failed", e);
        }
    }
}
