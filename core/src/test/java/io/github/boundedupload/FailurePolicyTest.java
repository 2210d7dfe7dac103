package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FailurePolicyTest {

    private final FakeStorage storage = new FakeStorage();

    private ConcurrentAttachmentUploader uploader(FailurePolicy policy) {
        return ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder()
                .maxConcurrentUploads(4).maxConcurrentUploadsPerBatch(4).failurePolicy(policy).build());
    }

    private void failOn(String... fileNames) {
        Set<String> failing = Set.of(fileNames);
        storage.behaviour = request -> {
            Thread.sleep(2); // latency of the fake storage, so that uploads overlap
            if (failing.contains(request.fileName())) {
                throw new IOException("disk full while writing " + request.fileName());
            }
        };
    }

    @Test
    void allOrNothingLeavesNothingStoredAfterAFailureInTheMiddle() {
        failOn("a-10.txt");
        try (ConcurrentAttachmentUploader uploader = uploader(FailurePolicy.ALL_OR_NOTHING)) {
            List<Attachment> batch = Batches.of("a", 20);

            assertThatThrownBy(() -> uploader.uploadAll(batch))
                    .isInstanceOfSatisfying(BatchFailedException.class, e -> {
                        assertThat(e.failures()).singleElement().satisfies(r -> {
                            assertThat(r.index()).isEqualTo(10);
                            assertThat(r.failure()).get().isInstanceOf(IOException.class);
                        });
                        assertThat(e).hasMessageContaining("#10 'a-10.txt': IOException: disk full")
                                .hasMessageContaining("nothing of the batch is kept")
                                .hasCauseInstanceOf(IOException.class);
                        assertThat(e.notDeleted()).isEmpty();
                        assertThat(e.result().results()).extracting(UploadResult::status)
                                .doesNotContain(Status.STORED)
                                .contains(Status.DELETED);
                        assertThat(e.result().results()).extracting(UploadResult::index)
                                .containsExactlyElementsOf(() -> java.util.stream.IntStream.range(0, 20).iterator());
                    });
            assertThat(storage.objects).isEmpty();
            assertThat(storage.started).hasSizeLessThan(20);
        }
    }

    @Test
    void allOrNothingNamesEveryFailedAttachment() {
        CyclicBarrier bothBadOnesStarted = new CyclicBarrier(2);
        storage.behaviour = request -> {
            if (request.fileName().startsWith("bad")) {
                bothBadOnesStarted.await(1, TimeUnit.MINUTES);
                throw new IOException("refused " + request.fileName());
            }
        };
        try (ConcurrentAttachmentUploader uploader = uploader(FailurePolicy.ALL_OR_NOTHING)) {
            List<Attachment> batch = List.of(Attachment.of("bad-1.txt", new byte[1]),
                    Attachment.of("good.txt", new byte[1]), Attachment.of("bad-2.txt", new byte[1]));

            assertThatThrownBy(() -> uploader.uploadAll(batch))
                    .isInstanceOfSatisfying(BatchFailedException.class, e -> {
                        assertThat(e.failures()).extracting(UploadResult::index).containsExactly(0, 2);
                        assertThat(e).hasMessageStartingWith("uploader 'default': 2 of 3 attachments failed:"
                                + " #0 'bad-1.txt': IOException: refused bad-1.txt;"
                                + " #2 'bad-2.txt': IOException: refused bad-2.txt")
                                .hasMessageEndingWith("nothing of the batch is kept");
                        assertThat(e.getSuppressed()).hasSize(1);
                        assertThat(e.result().results().get(1).status()).isIn(Status.DELETED, Status.CANCELLED);
                    });
            assertThat(storage.objects).isEmpty();
        }
    }

    @Test
    void anUploadThatSucceedsAfterTheBatchFailedIsDeletedToo() {
        java.util.concurrent.CountDownLatch lateStarted = new java.util.concurrent.CountDownLatch(1);
        storage.behaviour = request -> {
            if (request.fileName().equals("late.txt")) {
                lateStarted.countDown();
                // Runs until the batch stops and interrupts it, then completes anyway, like a storage client that
                // was already past the point of no return.
                try {
                    new java.util.concurrent.CountDownLatch(1).await(1, TimeUnit.MINUTES);
                    throw new IllegalStateException("never interrupted");
                } catch (InterruptedException expected) {
                    Thread.interrupted();
                }
            } else {
                lateStarted.await(1, TimeUnit.MINUTES);
                throw new IOException("refused");
            }
        };
        try (ConcurrentAttachmentUploader uploader = uploader(FailurePolicy.ALL_OR_NOTHING)) {
            List<Attachment> batch = List.of(Attachment.of("late.txt", new byte[1]), Attachment.of("bad.txt",
                    new byte[1]));

            assertThatThrownBy(() -> uploader.uploadAll(batch))
                    .isInstanceOfSatisfying(BatchFailedException.class, e -> assertThat(e.result().results())
                            .extracting(UploadResult::status).containsExactly(Status.DELETED, Status.FAILED));
            assertThat(storage.objects).isEmpty();
            assertThat(storage.deleted).hasSize(1);
        }
    }

    /** The storage stored the object, but its answer was lost: it says so with {@code mayBeStored()}. */
    private static final class LostAnswer extends UploadException {
        LostAnswer() {
            super("no answer after the whole content was sent", null);
        }

        @Override
        public boolean mayBeStored() {
            return true;
        }
    }

    @Test
    void allOrNothingDeletesTheKeyOfAnUploadWhoseAnswerWasLost() {
        FakeStorage.Behaviour lostAnswer = request -> {
            if (request.fileName().equals("lost.txt")) {
                storage.objects.put(request.key(), new byte[1]); // it arrived, the answer did not
                throw new LostAnswer();
            }
        };
        storage.behaviour = lostAnswer;
        try (ConcurrentAttachmentUploader uploader = uploader(FailurePolicy.ALL_OR_NOTHING)) {
            assertThatThrownBy(() -> uploader.uploadAll(List.of(Attachment.of("lost.txt", new byte[1]))))
                    .isInstanceOfSatisfying(BatchFailedException.class, e -> assertThat(e.failures())
                            .singleElement().satisfies(r -> assertThat(r.status()).isEqualTo(Status.FAILED)));
            assertThat(storage.objects).isEmpty();
            assertThat(storage.deleted).hasSize(1);
        }
    }

    @Test
    void collectLeavesAnUploadWhoseAnswerWasLostAsItIsAndSaysSo() {
        storage.behaviour = request -> {
            storage.objects.put(request.key(), new byte[1]);
            throw new LostAnswer();
        };
        try (ConcurrentAttachmentUploader uploader = uploader(FailurePolicy.COLLECT)) {
            BatchResult result = uploader.uploadAll(List.of(Attachment.of("lost.txt", new byte[1])));

            assertThat(result.results().get(0).failure()).get()
                    .isInstanceOfSatisfying(UploadException.class, e -> assertThat(e.mayBeStored()).isTrue());
            assertThat(storage.deleted).isEmpty();
        }
    }

    @Test
    void collectGivesEveryAttachmentItsOwnOutcome() {
        failOn("c-3.txt", "c-7.txt");
        try (ConcurrentAttachmentUploader uploader = uploader(FailurePolicy.COLLECT)) {
            BatchResult result = uploader.uploadAll(Batches.of("c", 10));

            assertThat(result.results()).extracting(UploadResult::status).containsExactly(
                    Status.STORED, Status.STORED, Status.STORED, Status.FAILED, Status.STORED,
                    Status.STORED, Status.STORED, Status.FAILED, Status.STORED, Status.STORED);
            assertThat(result.notStored()).extracting(UploadResult::index).containsExactly(3, 7);
            assertThat(result.storedObjects()).hasSize(8);
            assertThat(storage.objects).hasSize(8).containsOnlyKeys(
                    result.storedObjects().stream().map(StoredObject::key).toList());
            assertThat(storage.deleted).isEmpty();
        }
    }

    @Test
    void anObjectThatCannotBeDeletedAgainIsReportedAsStillStored() {
        failOn("d-5.txt");
        storage.deleteBehaviour = request -> {
            if (request.key().endsWith("d-1.txt")) {
                throw new IOException("storage unreachable");
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploads(1).maxConcurrentUploadsPerBatch(1).build())) {
            assertThatThrownBy(() -> uploader.uploadAll(Batches.of("d", 8)))
                    .isInstanceOfSatisfying(BatchFailedException.class, e -> {
                        assertThat(e.notDeleted()).singleElement()
                                .satisfies(r -> assertThat(r.key()).endsWith("d-1.txt"));
                        assertThat(e).hasMessageContaining("COULD NOT DELETE 1, still stored: ")
                                .hasMessageContaining("d-1.txt");
                    });
            assertThat(storage.objects.keySet()).singleElement()
                    .satisfies(key -> assertThat(key).endsWith("d-1.txt"));
        }
    }
}
