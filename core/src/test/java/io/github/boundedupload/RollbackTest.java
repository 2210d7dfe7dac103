package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Issue 11, defect 2: a rollback that meets an outage. The deletes that undo a failed batch are tried again with
 * growing pauses until the storage confirms them, also after the batch has reported; what cannot be deleted before
 * the rollback deadline is reported, never dropped.
 */
class RollbackTest {

    private final FakeStorage storage = new FakeStorage();
    private final Recorder recorder = new Recorder();

    /** Fails every upload named {@code *-bad.txt}; deletes fail while {@link #down} is above zero. */
    private final AtomicInteger down = new AtomicInteger();

    RollbackTest() {
        storage.behaviour = request -> {
            if (request.fileName().endsWith("bad.txt")) {
                throw new IOException("refused " + request.fileName());
            }
        };
        storage.deleteBehaviour = request -> {
            if (down.get() > 0) {
                down.decrementAndGet();
                throw new IOException("storage unreachable");
            }
        };
    }

    private ConcurrentAttachmentUploader uploader(Duration rollbackDeadline) {
        return ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder().name("rollback")
                .maxConcurrentUploads(1).maxConcurrentUploadsPerBatch(1).rollbackDeadline(rollbackDeadline)
                .listener(recorder).build());
    }

    private static List<Attachment> storedThenBad() {
        List<Attachment> batch = new java.util.ArrayList<>(Batches.of("r", 3));
        batch.add(Attachment.of("r-bad.txt", new byte[1]));
        return batch;
    }

    @Test
    void deletesThatFailDuringAnOutageAreRetriedUntilTheStorageConfirmsThem() {
        down.set(9); // the three deletes fail three times each, then the storage is back
        try (ConcurrentAttachmentUploader uploader = uploader(Duration.ofMinutes(1))) {
            assertThatThrownBy(() -> uploader.uploadAll(storedThenBad()))
                    .isInstanceOfSatisfying(BatchFailedException.class, e -> {
                        // Reported after the first try of each delete, true at that moment and afterwards: being
                        // deleted, never STORED.
                        assertThat(e.notDeleted()).hasSize(3).extracting(UploadResult::status)
                                .containsOnly(UploadResult.Status.DELETING);
                        assertThat(e.result().results()).noneMatch(UploadResult::isStored);
                        assertThat(e).hasMessageContaining("NOT DELETED YET: 3 (")
                                .hasMessageContaining("being deleted in the background until the rollback deadline");
                        assertThat(storage.objects).hasSize(3);

                        BatchResult settled = e.settled().toCompletableFuture().join();
                        assertThat(settled.results()).extracting(UploadResult::status).containsExactly(
                                UploadResult.Status.DELETED, UploadResult.Status.DELETED, UploadResult.Status.DELETED,
                                UploadResult.Status.FAILED);
                        assertThat(storage.objects).isEmpty();
                    });

            await().until(() -> uploader.stats().pendingRollbacks() == 0);
            assertThat(recorder.retried).hasSizeGreaterThanOrEqualTo(6);
            assertThat(recorder.rolledBack).hasSize(3).allSatisfy(failure -> assertThat(failure).isEqualTo("none"));
            assertThat(recorder.abandoned).isEmpty();
            assertThat(uploader.stats().queuedUploads()).isZero();
        }
    }

    @Test
    void deletesThatCannotBeDoneBeforeTheRollbackDeadlineAreReportedNotDropped() {
        down.set(Integer.MAX_VALUE);
        try (ConcurrentAttachmentUploader uploader = uploader(Duration.ofMillis(500))) {
            assertThatThrownBy(() -> uploader.uploadAll(storedThenBad())).isInstanceOf(BatchFailedException.class);

            await().atMost(Duration.ofSeconds(30)).until(() -> uploader.stats().pendingRollbacks() == 0);
            assertThat(recorder.abandoned).hasSize(3).allSatisfy(key -> assertThat(key).contains("r-"));
            assertThat(recorder.rolledBack).hasSize(3)
                    .allSatisfy(failure -> assertThat(failure).contains("storage unreachable"));
            assertThat(storage.objects).hasSize(3); // what the reports say is left
        }
    }

    @Test
    void closeWaitsForPendingDeletesWithinTheGracePeriod() {
        down.set(6);
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder()
                .name("rollback").maxConcurrentUploads(1).maxConcurrentUploadsPerBatch(1)
                .shutdownGracePeriod(Duration.ofMinutes(1)).listener(recorder).build());
        assertThatThrownBy(() -> uploader.uploadAll(storedThenBad())).isInstanceOf(BatchFailedException.class);
        assertThat(uploader.stats().pendingRollbacks()).isPositive();

        uploader.close();

        assertThat(storage.objects).isEmpty();
        assertThat(uploader.stats().pendingRollbacks()).isZero();
    }

    /** Records the rollback callbacks. */
    private static final class Recorder implements UploadListener {
        final List<String> retried = new CopyOnWriteArrayList<>();
        final List<String> abandoned = new CopyOnWriteArrayList<>();
        final List<String> rolledBack = new CopyOnWriteArrayList<>();

        @Override
        public void rollbackRetried(UploadEvent upload, Throwable failure, Duration retryIn) {
            retried.add(upload.key());
        }

        @Override
        public void rollbackAbandoned(UploadEvent upload, Throwable failure) {
            abandoned.add(upload.key());
        }

        @Override
        public void uploadRolledBack(UploadEvent upload, StoredObject stored, @Nullable Throwable failure) {
            rolledBack.add(failure == null ? "none" : String.valueOf(failure.getMessage()));
        }
    }
}
