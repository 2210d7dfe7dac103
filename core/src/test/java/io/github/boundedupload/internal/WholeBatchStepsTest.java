package io.github.boundedupload.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.ExecutorType;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.fakes.Gate;
import io.github.boundedupload.internal.step.StepLock;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.spi.UploadRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Whole-batch operations never stall other batches (issue 26, item 4): when a batch of 100,000 attachments is
 * cancelled, times out, or fails and is rolled back, the work over all its attachments is done in slices, each a short
 * hold of the uploader's lock, and a batch of one submitted at that moment runs to its end while that work is still
 * going on. Measured without a wall clock: each hold's CPU time on the thread that held the lock (a noisy machine, a
 * garbage collection or a descheduled thread do not count), and the order of events.
 */
class WholeBatchStepsTest {

    private static final int BIG = 100_000;
    /** In the failure case: stored before the failure, and so deleted again by the rollback. */
    private static final int FAILS_AT = 50_000;

    /** How the big batch stops. */
    enum Stop {
        CANCEL, TIMEOUT, FAILURE
    }

    private final Gate gate = new Gate();
    private final Gate warmGate = new Gate();
    private final Storage storage = new Storage();

    @AfterEach
    void openGate() {
        gate.open();
        warmGate.open();
    }

    /** A storage in memory: the big batch's uploads wait at the gate (or one fails), everything else goes through. */
    private final class Storage implements FileUploader {
        final Map<String, Integer> objects = new ConcurrentHashMap<>();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger deleted = new AtomicInteger();
        volatile Stop stop = Stop.CANCEL;

        @Override
        public StoredObject upload(UploadRequest request) throws IOException {
            inFlight.incrementAndGet();
            try {
                String name = request.fileName();
                if (name.equals("big-" + FAILS_AT)) {
                    throw new IOException("refused");
                }
                if (name.startsWith("warm-")) {
                    waitAt(warmGate);
                } else if (name.startsWith("big-") && stop != Stop.FAILURE) {
                    waitAt(gate);
                }
                int length;
                try (InputStream in = request.openStream()) {
                    length = in.readAllBytes().length;
                }
                objects.put(request.key(), length);
                return StoredObject.builder(request.key(), length).build();
            } finally {
                inFlight.decrementAndGet();
            }
        }

        private void waitAt(Gate gate) throws IOException {
            try {
                gate.pass();
            } catch (InterruptedException e) {
                throw new InterruptedIOException("interrupted");
            }
        }

        @Override
        public void delete(String key) {
            objects.remove(key);
            deleted.incrementAndGet();
        }
    }

    /** Every hold of the lock, by CPU time of the thread that held it. */
    private static final class Holds implements StepLock.LockWatch {
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final AtomicLong total = new AtomicLong();
        final AtomicLong longest = new AtomicLong();
        final AtomicInteger count = new AtomicInteger();
        /** Holds by the thread that stops the big batch after the small batch finished. */
        final AtomicInteger afterSmall = new AtomicInteger();
        volatile Thread stopper;
        volatile boolean smallFinished;

        @Override
        public long now() {
            return threads.getCurrentThreadCpuTime();
        }

        @Override
        public void held(long duration) {
            total.addAndGet(duration);
            longest.accumulateAndGet(duration, Math::max);
            count.incrementAndGet();
            if (smallFinished && Thread.currentThread() == stopper) {
                afterSmall.incrementAndGet();
            }
        }
    }

    private static List<Attachment> batch(String name, int size) {
        List<Attachment> attachments = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            attachments.add(Attachment.builder(name + "-" + i, AttachmentContent.ofBytes(new byte[] {(byte) i}))
                    .key(name + "/" + i).build());
        }
        return attachments;
    }

    @ParameterizedTest
    @EnumSource(Stop.class)
    void aBatchOfOneIsNotHeldUpWhileABatchOfAHundredThousandIsStopped(Stop stop) {
        assumeTrue(ManagementFactory.getThreadMXBean().isCurrentThreadCpuTimeSupported());
        storage.stop = stop;
        Holds holds = new Holds();
        try (ConcurrentAttachmentUploader uploader = DefaultConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxAttachmentsPerBatch(BIG).maxQueuedUploads(BIG + 10)
                        .maxConcurrentUploads(4).maxConcurrentUploadsPerBatch(1)
                        .failurePolicy(FailurePolicy.ALL_OR_NOTHING)
                        // Thread CPU time is measured on platform threads only (a virtual thread has none of its own).
                        .executorType(ExecutorType.PLATFORM)
                        .batchTimeout(stop == Stop.TIMEOUT ? Duration.ofSeconds(2) : Duration.ofMinutes(5))
                        .stopTimeout(Duration.ofSeconds(30)).build())) {
            StepLock steps = ((DefaultConcurrentAttachmentUploader) uploader).steps();
            warmUp(uploader);
            AtomicReference<BatchResult> small = new AtomicReference<>();
            // One upload of the big batch at a time: the one that fails, or the one at the gate; the rest is skipped.
            int trigger = (stop == Stop.FAILURE ? FAILS_AT : 0) + 10;
            BigBatchListener bigBatchListener = new BigBatchListener(upload -> {
                if (upload.index() == trigger) {
                    // The big batch is being stopped on this thread, slice by slice: a batch of one comes in now.
                    holds.stopper = Thread.currentThread();
                    CompletableFuture<BatchResult> one = CompletableFuture.supplyAsync(
                            () -> uploader.uploadAll(batch("small", 1)));
                    small.set(one.orTimeout(1, TimeUnit.MINUTES).join());
                    holds.smallFinished = true;
                }
            });
            AtomicInteger skipsHeard = bigBatchListener.skips;
            CompletableFuture<BatchResult> bigFinished = bigBatchListener.finished;
            CompletableFuture<BatchResult> big = uploader.uploadAllAsync(batch("big", BIG), bigBatchListener);
            if (stop != Stop.FAILURE) {
                await().until(() -> storage.inFlight.get() == 1);
            }
            steps.watch(holds);
            if (stop == Stop.CANCEL) {
                big.cancel(true);
            }
            BatchResult result = bigFinished.orTimeout(5, TimeUnit.MINUTES).join();
            steps.watch(null);

            assertThat(small.get()).as("the batch of one, submitted while the big one was being stopped").isNotNull();
            assertThat(small.get().allStored()).isTrue();
            // The stop still had work to do under the lock once the batch of one had finished: it was not behind it.
            assertThat(holds.afterSmall.get()).isGreaterThan(10);
            // No hold of the lock comes near the whole batch's work: every slice is a small part of it.
            assertThat(holds.longest.get()).as("the longest hold, of %s holds taking %s ns of CPU in all", holds.count,
                    holds.total).isLessThan(holds.total.get() / 10);
            assertThat(result.size()).isEqualTo(BIG);
            if (stop == Stop.FAILURE) {
                assertThat(skipsHeard.get()).isEqualTo(BIG - FAILS_AT - 1);
                assertThat(result.results()).filteredOn(r -> r.status() == Status.DELETED).hasSize(FAILS_AT);
                assertThat(storage.deleted.get()).isEqualTo(FAILS_AT);
            } else {
                assertThat(skipsHeard.get()).isEqualTo(BIG - 1);
                assertThat(result.results()).extracting(UploadResult::status).containsOnly(stop == Stop.CANCEL
                        ? Status.CANCELLED : Status.FAILED);
            }
            assertThat(storage.objects).containsOnlyKeys("small/0");
        }
    }

    /**
     * The big batch's listener, and the warm-up's: one class for both, so that the events the stop sends it are code
     * the JIT has compiled (with no listener, the warm-up made none; the first slices of the measured stop then ran
     * interpreted, and one hold took half the CPU of all 396: a CI run of session 56).
     */
    private static final class BigBatchListener implements UploadListener {
        final CompletableFuture<BatchResult> finished = new CompletableFuture<>();
        final AtomicInteger skips = new AtomicInteger();
        private final Consumer<UploadEvent> atSkip;

        BigBatchListener(Consumer<UploadEvent> atSkip) {
            this.atSkip = atSkip;
        }

        @Override
        public void batchFinished(BatchEvent batch, BatchResult result, Duration took) {
            finished.complete(result);
        }

        @Override
        public void uploadSkipped(UploadEvent upload, Throwable reason) {
            skips.incrementAndGet();
            atSkip.accept(upload);
        }
    }

    /**
     * Stops a batch of 20,000 first, with a listener of the big batch's class, so that what is measured is the
     * uploader's steady state, not the JIT compiling its first slices.
     */
    private void warmUp(ConcurrentAttachmentUploader uploader) {
        BigBatchListener listener = new BigBatchListener(upload -> { });
        CompletableFuture<BatchResult> warm = uploader.uploadAllAsync(batch("warm", 20_000), listener);
        await().until(() -> storage.inFlight.get() == 1);
        warm.cancel(true);
        listener.finished.orTimeout(5, TimeUnit.MINUTES).join();
        await().until(() -> uploader.stats().activeBatches() == 0 && storage.inFlight.get() == 0);
    }
}
