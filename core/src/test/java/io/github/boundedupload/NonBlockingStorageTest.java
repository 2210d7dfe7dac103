package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeAsyncStorage;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Source 004: 500 calls of 2 s took 16 s on 64 threads and 2 s with non-blocking I/O. With a non-blocking storage,
 * uploads in flight are bounded by permits, not threads: all 500 are in flight at once on a handful of threads.
 */
class NonBlockingStorageTest {

    private static long threadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix)).count();
    }

    @Test
    void fiveHundredUploadsAreInFlightAtOnceOnAHandfulOfThreads() {
        FakeAsyncStorage storage = new FakeAsyncStorage();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("permits").executorType(ExecutorType.PLATFORM)
                        .maxConcurrentUploads(500).maxConcurrentUploadsPerBatch(500).maxAttachmentsPerBatch(500)
                        .build())) {
            CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(Batches.of("p", 500));

            await().until(() -> storage.inFlight.get() == 500);
            assertThat(uploader.stats().inFlightUploads()).isEqualTo(500);
            assertThat(threadsNamed("bounded-upload-permits-") - 1 /* timer */)
                    .isLessThanOrEqualTo(Math.max(2, Runtime.getRuntime().availableProcessors()));

            assertThat(storage.completeAll()).isEqualTo(500);
            assertThat(batch.join().storedObjects()).hasSize(500);
            assertThat(storage.maxInFlight).hasValue(500);
        }
    }

    @Test
    void permitsStillBoundANonBlockingStorage() {
        FakeAsyncStorage storage = new FakeAsyncStorage();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploads(8).maxConcurrentUploadsPerBatch(8).build())) {
            CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(Batches.of("q", 50));

            while (!batch.isDone()) {
                await().until(() -> storage.inFlight.get() == 8 || batch.isDone()
                        || storage.inFlight.get() == 50 - storage.objects.size());
                assertThat(storage.inFlight.get()).isLessThanOrEqualTo(8);
                storage.completeAll();
            }
            assertThat(batch.join().storedObjects()).hasSize(50);
            assertThat(storage.maxInFlight).hasValue(8);
        }
    }

    // ---- issue 11, defect 3: CANCELLED that is not empty (non-blocking storage) ------------------------------

    /**
     * Fails {@code bad.txt} at once; any other upload leaves "parts" and, when cancelled, removes them only when the
     * test lets it, and only then completes its future.
     */
    private static final class SlowCleanUp implements io.github.boundedupload.spi.AsyncFileUploader {
        final java.util.Map<String, String> parts = new java.util.concurrent.ConcurrentHashMap<>();
        final java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch cleaning = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch mayFinish = new java.util.concurrent.CountDownLatch(1);

        @Override
        public CompletableFuture<StoredObject> upload(io.github.boundedupload.spi.UploadRequest request) {
            if (request.fileName().equals("bad.txt")) {
                // Fails once the other upload has started, so that there is something to cancel and clean up.
                return CompletableFuture.runAsync(() -> {
                    try {
                        started.await(1, java.util.concurrent.TimeUnit.MINUTES);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }).thenCompose(x -> CompletableFuture.failedFuture(new java.io.IOException("refused")));
            }
            parts.put(request.key(), "part 1");
            started.countDown();
            CompletableFuture<StoredObject> result = new CompletableFuture<>();
            request.cancellation().thenRun(() -> CompletableFuture.runAsync(() -> {
                cleaning.countDown();
                try {
                    mayFinish.await(1, java.util.concurrent.TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                parts.remove(request.key());
                result.completeExceptionally(new java.util.concurrent.CancellationException("aborted"));
            }));
            return result;
        }

        @Override
        public CompletableFuture<Void> delete(String key) {
            parts.remove(key);
            return CompletableFuture.completedFuture(null);
        }
    }

    @Test
    void aCancelledUploadIsReportedOnlyOnceTheStorageHasRemovedWhatItStarted() throws Exception {
        SlowCleanUp storage = new SlowCleanUp();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.defaults())) {
            CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(java.util.List.of(
                    Attachment.of("big.bin", new byte[1]), Attachment.of("bad.txt", new byte[1])));

            assertThat(storage.cleaning.await(1, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
            assertThat(batch).isNotDone();
            storage.mayFinish.countDown();

            BatchFailedException failed = (BatchFailedException) batch.handle((r, e) -> e).join();
            UploadResult big = failed.result().results().get(0);
            assertThat(big.status()).isEqualTo(UploadResult.Status.CANCELLED);
            assertThat(storage.parts).doesNotContainKey(big.key());
        }
    }

    @Test
    void aStorageCannotSignalACancelOfItsOwnUpload() {
        java.util.List<CompletableFuture<Void>> signals = new java.util.concurrent.CopyOnWriteArrayList<>();
        io.github.boundedupload.spi.AsyncFileUploader storage = new io.github.boundedupload.spi.AsyncFileUploader() {
            @Override
            public CompletableFuture<StoredObject> upload(io.github.boundedupload.spi.UploadRequest request) {
                CompletableFuture<Void> signal = request.cancellation().toCompletableFuture();
                signals.add(signal);
                boolean completed = signal.complete(null) | signal.completeExceptionally(new IllegalStateException())
                        | signal.cancel(true);
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> signal.obtrudeValue(null))
                        .isInstanceOf(UnsupportedOperationException.class);
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> signal.completeAsync(() -> null))
                        .isInstanceOf(UnsupportedOperationException.class);
                signal.completeOnTimeout(null, 0, java.util.concurrent.TimeUnit.NANOSECONDS);
                return completed || signal.isDone()
                        ? CompletableFuture.failedFuture(new IllegalStateException("the storage completed the signal"))
                        : CompletableFuture.completedFuture(StoredObject.builder(request.key(), 1).build());
            }

            @Override
            public CompletableFuture<Void> delete(String key) {
                return CompletableFuture.completedFuture(null);
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.defaults())) {
            BatchResult result = uploader.uploadAllAsync(Batches.of("s", 3)).join();

            assertThat(result.storedObjects()).hasSize(3);
            assertThat(signals).hasSize(3).allSatisfy(signal -> assertThat(signal).isNotDone());
        }
    }
}
