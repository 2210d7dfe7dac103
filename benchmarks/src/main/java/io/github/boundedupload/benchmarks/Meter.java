package io.github.boundedupload.benchmarks;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * What one measured run costs the JVM, besides time:
 *
 * <ul>
 *   <li><b>peak heap used</b>: {@code MemoryMXBean} heap used, sampled every 5 ms, garbage included (so it depends on
 *       when the collector runs as much as on the strategy);</li>
 *   <li><b>peak heap after GC</b>: the most heap still used right after any collection during the run (from the
 *       collectors' notifications) or after a full collection at its end: what the run really held;</li>
 *   <li><b>peak live threads</b>: {@code ThreadMXBean}'s peak, reset at the start. It counts platform threads only:
 *       virtual threads are not in it;</li>
 *   <li><b>CPU time</b>: the whole process's, from the operating system (native threads such as the CRT client's
 *       included): what the client side cost on the cores it shares with the server and the proxy.</li>
 * </ul>
 */
final class Meter {

    /** One run's figures. */
    record Usage(long peakHeapUsed, long peakHeapAfterGc, int peakThreads, long cpuNanos) {
    }

    private static final long SAMPLE_MILLIS = 5;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName)
            .collect(Collectors.toSet());
    private final AtomicLong peakUsed = new AtomicLong();
    private final AtomicLong peakAfterGc = new AtomicLong();
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private volatile boolean running;
    private long cpuAtStart;
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
        cpuAtStart = os.getProcessCpuTime();
        sampler.start();
    }

    /** Ends the run and returns its figures. */
    Usage stop() {
        long cpu = os.getProcessCpuTime() - cpuAtStart;
        int peakThreads = threads.getPeakThreadCount();
        running = false;
        try {
            sampler.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        peakUsed.accumulateAndGet(heapUsed(), Math::max);
        System.gc();
        return new Usage(peakUsed.get(), Math.max(peakAfterGc.get(), heapUsed()), peakThreads, cpu);
    }

    private static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
