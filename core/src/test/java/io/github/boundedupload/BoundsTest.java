package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import io.github.boundedupload.fakes.Gate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Concurrency never exceeds a bound, and does reach it: the maximum observed in flight is recorded by the storage. */
class BoundsTest {

    private final FakeStorage storage = new FakeStorage();

    private static void simulatedLatency() throws InterruptedException {
        Thread.sleep(5); // latency of the fake storage, not synchronisation
    }

    @Test
    void uploadsInFlightNeverExceedTheGlobalBound() {
        storage.behaviour = request -> simulatedLatency();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploads(4).maxConcurrentUploadsPerBatch(4).build())) {
            List<CompletableFuture<BatchResult>> batches = new ArrayList<>();
            for (int b = 0; b < 5; b++) {
                batches.add(uploader.uploadAllAsync(Batches.of("b" + b, 20)));
            }
            batches.forEach(CompletableFuture::join);

            assertThat(storage.objects).hasSize(100);
            assertThat(storage.maxInFlight).hasValue(4);
        }
    }

    @Test
    void uploadsOfOneBatchInFlightNeverExceedThePerBatchBound() {
        storage.behaviour = request -> simulatedLatency();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploads(12).maxConcurrentUploadsPerBatch(3).build())) {
            List<CompletableFuture<BatchResult>> batches = new ArrayList<>();
            for (int b = 0; b < 4; b++) {
                batches.add(uploader.uploadAllAsync(Batches.of("b" + b, 30)));
            }
            batches.forEach(CompletableFuture::join);

            for (int b = 0; b < 4; b++) {
                assertThat(storage.maxInFlight("b" + b)).as("batch b%d", b).isEqualTo(3);
            }
            assertThat(storage.maxInFlight.get()).isLessThanOrEqualTo(12).isGreaterThan(3);
        }
    }

    @Test
    void bytesInFlightNeverExceedTheBytesBound() {
        storage.behaviour = request -> simulatedLatency();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploads(16).maxConcurrentUploadsPerBatch(16)
                        .maxBytesInFlight(10_000).build())) {
            uploader.uploadAll(Batches.of("big", 24, 4_000));

            assertThat(storage.objects).hasSize(24);
            assertThat(storage.maxBytesInFlight.get()).isEqualTo(8_000);
            assertThat(storage.maxInFlight).hasValue(2);
        }
    }

    @Test
    void anAttachmentLargerThanTheBytesBoundRunsAlone() {
        storage.behaviour = request -> simulatedLatency();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxBytesInFlight(1_000).build())) {
            List<Attachment> batch = new ArrayList<>(Batches.of("small", 6, 100));
            batch.add(3, Attachment.of("huge.bin", new byte[5_000]));

            BatchResult result = uploader.uploadAll(batch);

            assertThat(result.allStored()).isTrue();
            assertThat(storage.maxBytesInFlight.get()).isLessThanOrEqualTo(5_000);
            assertThat(storage.objects).hasSize(7);
        }
    }

    @Test
    void aBatchOfOneIsNotStarvedByABatchOfAThousand() {
        Gate gate = new Gate();
        storage.behaviour = request -> {
            if (request.metadata().get("batch").equals("bulk")) {
                gate.pass();
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploads(8).maxConcurrentUploadsPerBatch(4).build())) {
            CompletableFuture<BatchResult> bulk = uploader.uploadAllAsync(Batches.of("bulk", 1_000));
            await().until(() -> storage.inFlight.get() == 4);

            BatchResult single = uploader.uploadAll(Batches.of("single", 1));

            assertThat(single.allStored()).isTrue();
            assertThat(bulk).isNotDone();
            assertThat(storage.objects).containsOnlyKeys(single.storedObjects().get(0).key());
            gate.open();
            assertThat(bulk.join().size()).isEqualTo(1_000);
            assertThat(storage.maxInFlight("bulk")).isEqualTo(4);
        }
    }

    @Test
    void statsShowWhatIsInFlightAndQueued() {
        Gate gate = new Gate();
        storage.behaviour = request -> gate.pass();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploads(2).maxConcurrentUploadsPerBatch(2).build())) {
            CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(Batches.of("a", 5, 10));
            await().until(() -> storage.inFlight.get() == 2);

            assertThat(uploader.stats()).isEqualTo(new UploaderStats(2, 3, 20, 1, false));
            gate.open();
            batch.join();
            assertThat(uploader.stats()).isEqualTo(new UploaderStats(0, 0, 0, 0, false));
        }
    }
}
