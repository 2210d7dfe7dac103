package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.s3.Adapters.Kind;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A 64 MiB upload goes multipart without holding its content in memory. Runs in a JVM of its own (-Xmx128m, see the
 * pom) while a poller samples the heap: used heap as it is, and live heap (what the collector left after a forced
 * full GC, so that garbage does not count). Each measured upload is the second of the same content with the same
 * client, so that what a client sets up once (connections, Netty's pooled buffer arenas: 4 MiB each, one per
 * event-loop thread in use) is in the baseline. Parts of a file are read from disk by position: the live heap grows by far less than one part.
 * Parts of a stream are buffered: at most {@code partSize × (partsInFlight + 1)}.
 */
class MultipartHeapIT {

    static final S3TestServices services = S3TestServices.get();
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucket("multipart-heap");
    static final long SIZE = 64L * 1024 * 1024;
    static final long MIB = 1024 * 1024;
    static Path file;
    static String digest;

    @BeforeAll
    static void setUp(@TempDir Path dir) {
        file = TestData.file(dir.resolve("64mib.bin"), 64, SIZE);
        digest = TestData.sha256(file);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aFileGoesUpInPartsReadFromDisk(Kind kind) throws Exception {
        // 8 MiB parts, 4 in flight (the defaults), and a threshold that sends the 64 MiB file in parts.
        S3UploadOptions options = S3UploadOptions.builder().multipartThreshold(16L << 20).build();
        try (Adapters adapters = new Adapters(services.s3Endpoint(), s3.bucket().name(), options)) {
            String key = "heap/file-" + kind;
            upload(adapters, kind, UploadRequest.of(key + "-warm-up", Attachment.of(file)));
            HeapPeak peak = measure(() -> upload(adapters, kind, UploadRequest.of(key, Attachment.of(file))));
            System.out.printf("MultipartHeapIT %s file: live +%.1f MiB, used +%.1f MiB (parts %d MiB x %d in flight)%n",
                    kind, peak.live / (double) MIB, peak.used / (double) MIB, options.partSize() / MIB,
                    options.partsInFlight());
            assertThat(peak.stored.eTag()).hasValueSatisfying(eTag -> assertThat(eTag).endsWith("-8\""));
            assertThat(s3.bucket().sha256(key)).contains(digest);
            assertThat(s3.bucket().incompleteUploads()).isEmpty();
            // Holding the parts in flight would take partSize x partsInFlight (32 MiB), the file 64 MiB. What is live
            // is the HTTP clients' own buffers, per request and not per byte: measured 0-3 MiB blocking, 3-14 MiB
            // non-blocking with 4 requests in flight; with one 32 MiB part in flight, 4-6 MiB, also with the network
            // 8 times slower than the disk (a probe while writing this test).
            long partsInFlight = options.partSize() * options.partsInFlight();
            assertThat(peak.live).as("extra live heap").isLessThan(partsInFlight);
            if (kind == Kind.BLOCKING) {
                // The blocking client streams each part from disk: less than one part live, all parts in flight.
                assertThat(peak.live).as("extra live heap, blocking client").isLessThan(options.partSize());
            }
            assertThat(peak.used).as("extra used heap, garbage included").isLessThan(SIZE / 2);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aStreamGoesUpInBufferedPartsBoundedByPartsInFlight(Kind kind) throws Exception {
        S3UploadOptions options = Adapters.smallParts().toBuilder().partsInFlight(2).build();
        // The adapter buffers the parts in flight and the one being read (both adapters send partsInFlight parts at
        // once); the SDK's request pipeline holds about one more part per request in flight (measured; the adapter's
        // own buffers never exceed inFlight + 1, checked while writing this test).
        int inFlight = options.partsInFlight();
        long bound = options.partSize() * (2L * inFlight + 1);
        try (Adapters adapters = new Adapters(services.s3Endpoint(), s3.bucket().name(), options)) {
            String key = "heap/stream-" + kind;
            Attachment attachment = Attachment.of("stream.bin",
                    AttachmentContent.ofStream(() -> Files.newInputStream(file), SIZE));
            upload(adapters, kind, UploadRequest.of(key + "-warm-up", attachment));
            HeapPeak peak = measure(() -> upload(adapters, kind, UploadRequest.of(key, attachment)));
            System.out.printf("MultipartHeapIT %s stream: live +%.1f MiB, used +%.1f MiB (bound %d MiB)%n", kind,
                    peak.live / (double) MIB, peak.used / (double) MIB, bound / MIB);
            assertThat(s3.bucket().sha256(key)).contains(digest);
            assertThat(s3.bucket().incompleteUploads()).isEmpty();
            assertThat(peak.live).as("extra live heap").isLessThan(bound + 4 * MIB).isLessThan(SIZE / 2);
            assertThat(peak.used).as("extra used heap, garbage included").isLessThan(SIZE);
        }
    }

    private static StoredObject upload(Adapters adapters, Kind kind, UploadRequest request) throws Exception {
        return kind == Kind.BLOCKING ? adapters.blocking.upload(request)
                : adapters.nonBlocking.upload(request).get(2, TimeUnit.MINUTES);
    }

    interface Upload {
        StoredObject run() throws Exception;
    }

    record HeapPeak(long live, long used, StoredObject stored) {
    }

    /** Runs the upload while a poller samples the heap every few milliseconds until the upload ends. */
    private static HeapPeak measure(Upload upload) throws Exception {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        long baseline = liveAfterLastGc();
        long usedBaseline = memory.getHeapMemoryUsage().getUsed();
        AtomicLong peakLive = new AtomicLong(baseline);
        AtomicLong peakUsed = new AtomicLong(usedBaseline);
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch sampled = new CountDownLatch(3);
        Thread poller = new Thread(() -> {
            try {
                do {
                    peakUsed.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                    System.gc();
                    peakLive.accumulateAndGet(liveAfterLastGc(), Math::max);
                    sampled.countDown();
                } while (!stop.await(20, TimeUnit.MILLISECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "heap-poller");
        poller.start();
        StoredObject stored;
        try {
            stored = upload.run();
            assertThat(sampled.await(10, TimeUnit.SECONDS)).as("the poller sampled during the upload").isTrue();
        } finally {
            stop.countDown();
            poller.join();
        }
        return new HeapPeak(peakLive.get() - baseline, peakUsed.get() - usedBaseline, stored);
    }

    /**
     * The heap in use right after the last collection, as the collector itself recorded it. Reading the used heap
     * after {@code System.gc()} instead counts whatever the upload's threads allocated between the collection and the
     * reading: on a loaded machine that read up to 10 MiB of garbage as live (CI failed on it once).
     */
    private static long liveAfterLastGc() {
        long live = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage afterGc = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
            if (afterGc != null) {
                live += afterGc.getUsed();
            }
        }
        return live;
    }
}
