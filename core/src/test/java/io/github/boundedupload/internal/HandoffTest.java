package io.github.boundedupload.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.ExecutorType;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A thread of the uploader's own pool that frees a permit runs the upload the permit goes to, instead of waking another
 * thread for it and parking: in a batch larger than its permits, the pool is handed one task per permit, not one per
 * upload (benchmark scenario E measured what the wake-ups cost an unrelated task). A supplied executor is handed every
 * upload, since it may decorate its tasks.
 */
class HandoffTest {

    private static final int PERMITS = 4;
    private static final int UPLOADS = 400;

    @Test
    void theOwnPoolIsHandedOneTaskPerPermitNotOnePerUpload() {
        FakeStorage storage = new FakeStorage();
        try (ConcurrentAttachmentUploader uploader = DefaultConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("handoff").executorType(ExecutorType.PLATFORM)
                        .maxConcurrentUploads(PERMITS).maxConcurrentUploadsPerBatch(PERMITS).build())) {
            BatchResult result = uploader.uploadAll(Batches.of("saturated", UPLOADS));

            ThreadPoolExecutor pool = (ThreadPoolExecutor) ((DefaultConcurrentAttachmentUploader) uploader)
                    .ownExecutor();
            assertThat(result.allStored()).isTrue();
            assertThat(storage.objects).hasSize(UPLOADS);
            assertThat(storage.maxInFlight).hasValueLessThanOrEqualTo(PERMITS);
            // The submitting thread starts the first window; every later upload is started by the end of another, on
            // the thread that ran it.
            assertThat(pool.getTaskCount()).as("tasks handed to the pool").isEqualTo(PERMITS);
        }
    }

    @Test
    void aSuppliedExecutorIsHandedEveryUpload() {
        FakeStorage storage = new FakeStorage();
        AtomicInteger tasks = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(PERMITS);
        try (ConcurrentAttachmentUploader uploader = DefaultConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("supplied").executor(task -> {
                    tasks.incrementAndGet();
                    threads.execute(task);
                }).maxConcurrentUploads(PERMITS).maxConcurrentUploadsPerBatch(PERMITS).build())) {
            BatchResult result = uploader.uploadAll(Batches.of("saturated", UPLOADS));

            assertThat(result.allStored()).isTrue();
            assertThat(tasks).hasValue(UPLOADS);
        } finally {
            threads.shutdown();
        }
    }
}
