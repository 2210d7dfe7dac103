package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class ListenerTest {

    private final FakeStorage storage = new FakeStorage();
    private final List<String> events = new CopyOnWriteArrayList<>();

    private final UploadListener recorder = new UploadListener() {
        @Override
        public void batchStarted(BatchEvent batch) {
            events.add("batchStarted " + batch.size() + " " + MDC.get("requestId"));
        }

        @Override
        public void uploadStarted(UploadEvent upload, Duration queued) {
            events.add("started #" + upload.index() + " " + MDC.get("requestId"));
        }

        @Override
        public void bytesSent(UploadEvent upload, long bytesSoFar) {
            events.add("bytes #" + upload.index() + " " + bytesSoFar);
        }

        @Override
        public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
            events.add("succeeded #" + upload.index());
        }

        @Override
        public void uploadFailed(UploadEvent upload, Throwable failure, Duration took) {
            events.add("failed #" + upload.index() + " " + failure.getMessage());
        }

        @Override
        public void uploadSkipped(UploadEvent upload, Throwable reason) {
            events.add("skipped #" + upload.index());
        }

        @Override
        public void uploadRolledBack(UploadEvent upload, StoredObject stored, Throwable failure) {
            events.add("rolledBack #" + upload.index() + " " + (failure == null));
        }

        @Override
        public void batchFinished(BatchEvent batch, BatchResult result, Duration took) {
            events.add("batchFinished " + result.allStored() + " " + MDC.get("requestId"));
        }
    };

    @Test
    void everyAttachmentIsReportedOnceAndTheBatchAfterThem() {
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploadsPerBatch(1).listener(recorder).build())) {
            MDC.put("requestId", "r7");
            uploader.uploadAll(Batches.of("e", 2, 300_000));
        } finally {
            MDC.clear();
        }

        assertThat(events).containsExactly("batchStarted 2 r7",
                "started #0 r7", "bytes #0 262144", "bytes #0 300000", "succeeded #0",
                "started #1 r7", "bytes #1 262144", "bytes #1 300000", "succeeded #1",
                "batchFinished true r7");
    }

    @Test
    void aFailedBatchReportsTheFailureTheSkippedAndTheRolledBack() {
        storage.behaviour = request -> {
            if (request.fileName().equals("f-1.txt")) {
                throw new IOException("boom");
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploadsPerBatch(1).listener(recorder).build())) {
            org.assertj.core.api.Assertions.catchThrowable(() -> uploader.uploadAll(Batches.of("f", 3, 1)));
        }

        assertThat(events).containsExactly("batchStarted 3 null",
                "started #0 null", "bytes #0 1", "succeeded #0",
                "started #1 null", "failed #1 boom", "skipped #2", "rolledBack #0 true",
                "batchFinished false null");
    }

    @Test
    void aListenerThatThrowsCannotBreakAnUpload() {
        UploadListener broken = new UploadListener() {
            @Override
            public void uploadStarted(UploadEvent upload, Duration queued) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void batchFinished(BatchEvent batch, BatchResult result, Duration took) {
                throw new IllegalStateException("listener bug");
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().listener(broken).listener(recorder).build())) {
            assertThat(uploader.uploadAll(Batches.of("b", 3)).allStored()).isTrue();
        }
        assertThat(events).filteredOn(e -> e.startsWith("started")).hasSize(3);
    }
}
