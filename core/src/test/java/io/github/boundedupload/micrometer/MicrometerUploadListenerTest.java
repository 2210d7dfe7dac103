package io.github.boundedupload.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.ExecutorType;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.RejectionPolicy;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import io.github.boundedupload.fakes.Gate;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class MicrometerUploadListenerTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final FakeStorage storage = new FakeStorage();

    /** As Spring Boot has it: the meters, and the observations, whose timers Micrometer's meter handler makes. */
    private ConcurrentAttachmentUploader uploader(UploaderConfig.Builder config) {
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(registry));
        return ConcurrentAttachmentUploader.create(storage, config.name("metered")
                .listener(new MicrometerUploadListener(registry))
                .listener(new ObservationUploadListener(observations)).build());
    }

    @Test
    void uploadsBatchesAndBytesAreTimedAndCounted() {
        storage.behaviour = request -> {
            if (request.fileName().equals("m-2.txt")) {
                throw new IOException("refused");
            }
        };
        try (ConcurrentAttachmentUploader uploader = uploader(UploaderConfig.builder()
                .failurePolicy(FailurePolicy.COLLECT))) {
            BatchResult result = uploader.uploadAll(Batches.of("m", 4, 100));
            assertThat(result.storedObjects()).hasSize(3);

            assertThat(registry.get("bounded.upload").tags("uploader", "metered", "outcome", "success",
                    "error", "none").timer().count()).isEqualTo(3);
            assertThat(registry.get("bounded.upload").tags("outcome", "failure", "error", "IOException")
                    .timer().count()).isEqualTo(1);
            assertThat(registry.get("bounded.upload.wait").tag("uploader", "metered").timer().count())
                    .isEqualTo(4);
            assertThat(registry.get("bounded.upload.batch").tags("uploader", "metered", "outcome", "partial")
                    .timer().count()).isEqualTo(1);
            assertThat(registry.get("bounded.upload.bytes").counter().count()).isEqualTo(300);
            assertThat(registry.get("bounded.upload.bytes").counter().getId().getBaseUnit()).isEqualTo("bytes");
        }
    }

    @Test
    void countersShowZeroBeforeAnythingHappensAndOnlyBytesCarryAUnit() {
        try (ConcurrentAttachmentUploader uploader = uploader(UploaderConfig.builder())) {
            for (String counter : List.of("bounded.upload.rejected", "bounded.upload.bytes",
                    "bounded.upload.rollbacks.retried", "bounded.upload.rollbacks.abandoned")) {
                assertThat(registry.get(counter).tag("uploader", "metered").counter().count()).as(counter).isZero();
            }
            assertThat(registry.get("bounded.upload.rollbacks").counters()).hasSize(2);
            // Base units end up in Prometheus names (bounded_upload_rejected_uploads_total): bytes only.
            assertThat(registry.getMeters()).filteredOn(m -> m.getId().getName().startsWith("bounded.upload"))
                    .allSatisfy(m -> assertThat(m.getId().getBaseUnit()).as(m.getId().getName())
                            .isIn(null, "bytes", "seconds"));
        }
    }

    @Test
    void gaugesFollowTheUploaderAndTheExecutorIsMonitored() {
        Gate gate = new Gate();
        storage.behaviour = request -> gate.pass();
        try (ConcurrentAttachmentUploader uploader = uploader(UploaderConfig.builder()
                .executorType(ExecutorType.PLATFORM) // a thread pool has pool metrics; virtual threads have none
                .maxConcurrentUploads(2).maxConcurrentUploadsPerBatch(2))) {
            CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(Batches.of("g", 5, 10));
            await().until(() -> storage.inFlight.get() == 2);

            assertThat(registry.get("bounded.upload.in.flight").gauge().value()).isEqualTo(2);
            assertThat(registry.get("bounded.upload.queued").gauge().value()).isEqualTo(3);
            assertThat(registry.get("bounded.upload.in.flight.bytes").gauge().value()).isEqualTo(20);
            assertThat(registry.get("bounded.upload.in.flight.batches").gauge().value()).isEqualTo(1);
            assertThat(registry.find("executor.pool.size").tag("name", "bounded-upload-metered").gauge())
                    .isNotNull();
            gate.open();
            batch.join();
            assertThat(registry.get("bounded.upload.in.flight").gauge().value()).isZero();
        }
        assertThat(registry.find("bounded.upload.in.flight").gauge()).isNull();
        assertThat(registry.find("executor.pool.size").tag("name", "bounded-upload-metered").gauge()).isNull();
    }

    @Test
    void rejectedUploadsAreCounted() {
        Gate gate = new Gate();
        storage.behaviour = request -> gate.pass();
        try (ConcurrentAttachmentUploader uploader = uploader(UploaderConfig.builder()
                .maxConcurrentUploads(1).maxConcurrentUploadsPerBatch(1).maxQueuedUploads(3)
                .maxAttachmentsPerBatch(3).rejectionPolicy(RejectionPolicy.ABORT))) {
            CompletableFuture<BatchResult> first = uploader.uploadAllAsync(Batches.of("a", 3));
            await().until(() -> storage.inFlight.get() == 1);
            assertThat(uploader.uploadAllAsync(Batches.of("b", 2))).isCompletedExceptionally();

            assertThat(registry.get("bounded.upload.rejected").counter().count()).isEqualTo(2);
            gate.open();
            first.join();
        }
    }

    /** Every meter of this listener's: the observations' timers are Micrometer's meter handler's, with none. */
    @Test
    void everyMeterHasADescription() {
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage, UploaderConfig
                .builder().name("metered").listener(new MicrometerUploadListener(registry)).build())) {
            uploader.uploadAll(Batches.of("d", 1));
            assertThat(registry.getMeters()).filteredOn(m -> m.getId().getName().startsWith("bounded.upload"))
                    .isNotEmpty()
                    .extracting(Meter::getId).allSatisfy(id -> assertThat(id.getDescription()).isNotBlank());
        }
    }

    @Test
    void rollbackRetriesAndGiveUpsAreCountedAndPendingOnesGauged() {
        storage.behaviour = request -> {
            if (request.fileName().equals("bad.txt")) {
                throw new IOException("refused");
            }
        };
        storage.deleteBehaviour = request -> {
            throw new IOException("storage unreachable");
        };
        try (ConcurrentAttachmentUploader uploader = uploader(UploaderConfig.builder().maxConcurrentUploads(1)
                .maxConcurrentUploadsPerBatch(1).rollbackDeadline(java.time.Duration.ofSeconds(2)))) {
            CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(java.util.List.of(
                    io.github.boundedupload.Attachment.of("good.txt", new byte[1]),
                    io.github.boundedupload.Attachment.of("bad.txt", new byte[1])));
            batch.handle((r, e) -> null).join();

            assertThat(registry.get("bounded.upload.rollbacks.pending").gauge().value()).isEqualTo(1);
            await().until(() -> registry.find("bounded.upload.rollbacks.abandoned").counters().stream()
                    .mapToDouble(io.micrometer.core.instrument.Counter::count).sum() == 1);
            assertThat(registry.get("bounded.upload.rollbacks.retried").counter().count()).isGreaterThanOrEqualTo(1);
            assertThat(registry.get("bounded.upload.rollbacks.pending").gauge().value()).isZero();
            assertThat(registry.get("bounded.upload.stuck").gauge().value()).isZero();
        }
    }
}
