package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeAsyncStorage;
import io.github.boundedupload.fakes.FakeStorage;
import io.github.boundedupload.fakes.Gate;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TimeoutTest {

    private final FakeStorage storage = new FakeStorage();
    private final Gate never = new Gate();

    @AfterEach
    void openGate() {
        never.open();
    }

    @Test
    void anUploadThatTakesTooLongIsInterruptedAndFailsWithATimeout() {
        storage.behaviour = request -> {
            if (request.fileName().equals("t-1.txt")) {
                never.pass();
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().uploadTimeout(Duration.ofMillis(200)).failurePolicy(FailurePolicy.COLLECT)
                        .build())) {
            BatchResult result = uploader.uploadAll(Batches.of("t", 3));

            assertThat(result.results()).extracting(UploadResult::status)
                    .containsExactly(Status.STORED, Status.FAILED, Status.STORED);
            assertThat(result.results().get(1).failure()).get()
                    .isInstanceOf(UploadTimeoutException.class)
                    .hasToString("io.github.boundedupload.UploadTimeoutException: file 2 't-1.txt' did not finish within"
                            + " the upload timeout of PT0.2S");
            assertThat(storage.interrupted).containsExactly(result.results().get(1).key());
        }
    }

    @Test
    void theBatchTimeoutFailsWhatIsRunningAndWhatIsQueued() {
        storage.behaviour = request -> never.pass();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploads(2).maxConcurrentUploadsPerBatch(2)
                        .batchTimeout(Duration.ofMillis(300)).failurePolicy(FailurePolicy.COLLECT).build())) {
            BatchResult result = uploader.uploadAll(Batches.of("q", 5));

            assertThat(result.results()).allSatisfy(r -> {
                assertThat(r.status()).isEqualTo(Status.FAILED);
                assertThat(r.failure()).get().isInstanceOf(UploadTimeoutException.class);
                assertThat(r.failure().get().getMessage()).contains("batch timeout of PT0.3S");
            });
            assertThat(storage.started).hasSize(2);
            assertThat(storage.interrupted).hasSize(2);
            assertThat(uploader.stats()).isEqualTo(new UploaderStats(0, 0, 0, 0, false));
        }
    }

    @Test
    void theBatchTimeoutUnderAllOrNothingDeletesWhatWasStored() {
        storage.behaviour = request -> {
            if (!request.fileName().equals("r-0.txt")) {
                never.pass();
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().batchTimeout(Duration.ofMillis(300)).build())) {
            assertThatThrownBy(() -> uploader.uploadAll(Batches.of("r", 3)))
                    .isInstanceOfSatisfying(BatchFailedException.class, e -> {
                        assertThat(e.result().results()).extracting(UploadResult::status)
                                .containsExactly(Status.DELETED, Status.FAILED, Status.FAILED);
                        assertThat(e.failures()).hasSize(2);
                    });
            assertThat(storage.objects).isEmpty();
        }
    }

    @Test
    void aNonBlockingUploadThatTakesTooLongIsCancelled() {
        FakeAsyncStorage async = new FakeAsyncStorage();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(async,
                UploaderConfig.builder().uploadTimeout(Duration.ofMillis(200)).build())) {
            assertThatThrownBy(() -> uploader.uploadAll(Batches.of("n", 2)))
                    .isInstanceOfSatisfying(BatchFailedException.class, e ->
                            assertThat(e.failures()).allSatisfy(r -> assertThat(r.failure()).get()
                                    .isInstanceOf(UploadTimeoutException.class)));
            assertThat(async.cancelled).hasSize(2);
            assertThat(async.objects).isEmpty();
        }
    }

    // ---- issue 11, defect 6: one stuck stream takes the whole uploader ---------------------------------------

    /** A stream whose read() ignores interrupts, like a socket without a read timeout, until the test releases it. */
    private static java.io.InputStream stuckStream(java.util.concurrent.CountDownLatch release) {
        return new java.io.InputStream() {
            @Override
            public int read() {
                boolean interrupted = false;
                while (true) {
                    try {
                        if (release.await(1, java.util.concurrent.TimeUnit.MINUTES)) {
                            break;
                        }
                    } catch (InterruptedException e) {
                        interrupted = true; // ignored, as a blocking socket read does
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                return -1;
            }
        };
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = ExecutorType.class, names = {"PLATFORM", "VIRTUAL"})
    void aStreamThatIgnoresInterruptsNeitherHoldsItsCallerNorStarvesTheUploader(ExecutorType type) {
        org.junit.jupiter.api.Assumptions.assumeTrue(type != ExecutorType.VIRTUAL
                || Runtime.version().feature() >= 21, "virtual threads need Java 21");
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        try {
            ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                    UploaderConfig.builder().name("stuck-" + type).executorType(type).maxConcurrentUploads(2)
                            .maxConcurrentUploadsPerBatch(2).uploadTimeout(Duration.ofMillis(200))
                            .stopTimeout(Duration.ofMillis(300)).shutdownGracePeriod(Duration.ofMillis(100))
                            .failurePolicy(FailurePolicy.COLLECT).build());
            // Unknown length: counts with the largest size it may have, the whole bytes-in-flight budget.
            Attachment stuck = Attachment.of("stuck.bin", AttachmentContent.ofStream(() -> stuckStream(release)));

            BatchResult result = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofMinutes(1),
                    () -> uploader.uploadAll(java.util.List.of(stuck)));

            assertThat(result.results().get(0).status()).isEqualTo(Status.FAILED);
            assertThat(result.results().get(0).failure()).get().isInstanceOfSatisfying(UploadStuckException.class,
                    e -> {
                        assertThat(e.mayBeStored()).isTrue();
                        assertThat(e).hasMessageContaining("'stuck.bin'").hasMessageContaining("did not stop")
                                .hasCauseInstanceOf(UploadTimeoutException.class);
                    });
            assertThat(uploader.stats().stuckUploads()).isEqualTo(1);
            assertThat(uploader.stats().bytesInFlight()).isZero();

            // The rest of the uploader is not starved: the stuck call holds neither a permit nor bytes.
            BatchResult next = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofMinutes(1),
                    () -> uploader.uploadAll(Batches.of("after", 4)));
            assertThat(next.allStored()).isTrue();

            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofMinutes(1), uploader::close);
            assertThat(uploader.stats().stuckUploads()).isEqualTo(1);
        } finally {
            release.countDown();
        }
    }
}
