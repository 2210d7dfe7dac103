package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/**
 * Source 004: a bulk job of 14,000 slow blocking calls on a shared pool starved every other I/O user for minutes.
 * Here the bulk batch runs on the uploader's own, bounded threads: an unrelated task on the JVM's shared pool and a
 * one-file batch on the same uploader both finish while every bulk upload the uploader started is still held.
 */
class IsolationTest {

    @Test
    void aBulkBatchOf14000SlowUploadsStarvesNeitherAnotherBatchNorAnUnrelatedTask() {
        FakeStorage storage = new FakeStorage();
        CountDownLatch bulkCallsAnswer = new CountDownLatch(1); // never counted down: slow calls that stay in flight
        storage.behaviour = request -> {
            if (request.metadata().get("batch").equals("bulk")) {
                bulkCallsAnswer.await(); // as the source's 2 s notification calls, only slower
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("bulk-isolation").maxConcurrentUploads(32)
                        .maxConcurrentUploadsPerBatch(16).maxAttachmentsPerBatch(14_000).maxQueuedUploads(20_000)
                        .failurePolicy(FailurePolicy.COLLECT).build())) {
            CompletableFuture<BatchResult> bulk = uploader.uploadAllAsync(Batches.of("bulk", 14_000, 8));
            await().until(() -> storage.inFlight.get() == 16);

            String unrelated = CompletableFuture.supplyAsync(() -> "done", ForkJoinPool.commonPool()).join();
            BatchResult single = uploader.uploadAll(Batches.of("single", 1));
            int bulkStartedMeanwhile = (int) storage.started.stream().filter(k -> k.contains("bulk-")).count();

            assertThat(unrelated).isEqualTo("done");
            assertThat(single.allStored()).isTrue();
            assertThat(bulk).isNotDone();
            assertThat(bulkStartedMeanwhile).isEqualTo(16);
            assertThat(storage.maxInFlight("bulk")).isEqualTo(16);
            assertThat(storage.threads).allSatisfy(t ->
                    assertThat(t.getName()).startsWith("bounded-upload-bulk-isolation-"));
            bulk.cancel(true);
        }
    }
}
