package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
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
                        assertThat(e).hasMessageContaining("file 11 'a-10.txt': IOException: disk full")
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
                                + " file 1 'bad-1.txt': IOException: refused bad-1.txt;"
                                + " file 3 'bad-2.txt': IOException: refused bad-2.txt")
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

    // ---- issue 28: FAILED means nothing stored, in COLLECT too -----------------------------------------------

    /** The answer to {@code lost.txt} is lost after the storage stored it; other uploads go through. */
    private void answersLost() {
        storage.behaviour = request -> {
            if (request.fileName().equals("lost.txt")) {
                storage.objects.put(request.key(), new byte[1]); // it arrived, the answer did not
                throw new LostAnswer();
            }
        };
    }

    @Test
    void collectDeletesTheKeyOfAnUploadWhoseAnswerWasLostBeforeItReportsItFailed() {
        answersLost();
        try (ConcurrentAttachmentUploader uploader = uploader(FailurePolicy.COLLECT)) {
            BatchResult result = uploader.uploadAll(List.of(Attachment.of("lost.txt", new byte[1]),
                    Attachment.of("kept.txt", new byte[1])));

            UploadResult lost = result.results().get(0);
            assertThat(lost.status()).isEqualTo(Status.FAILED);
            assertThat(lost.failure()).get().isInstanceOf(LostAnswer.class);
            assertThat(result.results().get(1).isStored()).isTrue();
            assertThat(storage.objects).containsOnlyKeys(result.results().get(1).key());
            assertThat(storage.deleted).containsExactly(lost.key());
            assertThat(result.settled()).isCompletedWithValue(result);
        }
    }

    @Test
    void collectKeepsAnUnknownOutcomeWhenTheApplicationAsksAndSaysItIsPossiblyStored() {
        answersLost();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().failurePolicy(FailurePolicy.COLLECT).keepUnknownOutcomes(true).build())) {
            BatchResult result = uploader.uploadAll(List.of(Attachment.of("lost.txt", new byte[1])));

            UploadResult lost = result.results().get(0);
            assertThat(lost.status()).isEqualTo(Status.POSSIBLY_STORED);
            assertThat(lost.isStored()).isFalse();
            assertThat(lost.failure()).get().isInstanceOf(LostAnswer.class);
            assertThat(storage.objects).containsKey(lost.key());
            assertThat(storage.deleted).isEmpty();
        }
    }

    @Test
    void anUnknownOutcomeWhoseDeleteMeetsAnOutageIsDeletingUntilTheStorageConfirmsItThenFailed() {
        answersLost();
        java.util.concurrent.atomic.AtomicInteger down = new java.util.concurrent.atomic.AtomicInteger(3);
        storage.deleteBehaviour = request -> {
            if (down.getAndDecrement() > 0) {
                throw new IOException("storage unreachable");
            }
        };
        List<BatchResult> settledHeard = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().failurePolicy(FailurePolicy.COLLECT)
                        .listener(new io.github.boundedupload.spi.UploadListener() {
                            @Override
                            public void batchSettled(io.github.boundedupload.spi.BatchEvent batch,
                                    BatchResult result) {
                                settledHeard.add(result);
                            }
                        }).build())) {
            BatchResult result = uploader.uploadAll(List.of(Attachment.of("lost.txt", new byte[1])));

            // Reported after the first try of its delete, true at that moment and afterwards: not stored, not kept.
            UploadResult lost = result.results().get(0);
            assertThat(lost.status()).isEqualTo(Status.DELETING);
            assertThat(lost.isStored()).isFalse();
            assertThat(lost.failure()).get().isInstanceOf(LostAnswer.class);
            assertThat(result.notStored()).containsExactly(lost);
            assertThat(uploader.stats().pendingRollbacks()).isEqualTo(1);

            BatchResult settled = result.settled().toCompletableFuture().join();
            assertThat(settled.results()).extracting(UploadResult::status).containsExactly(Status.FAILED);
            assertThat(settled.results().get(0).failure()).get().isInstanceOf(LostAnswer.class);
            assertThat(storage.objects).isEmpty();
            assertThat(settledHeard).containsExactly(settled);
            assertThat(uploader.stats().pendingRollbacks()).isZero();
        }
    }

    @Test
    void anUnknownOutcomeThatCannotBeDeletedBeforeTheDeadlineEndsPossiblyStoredAndReported() {
        answersLost();
        storage.deleteBehaviour = request -> {
            throw new IOException("storage unreachable");
        };
        List<String> abandoned = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().failurePolicy(FailurePolicy.COLLECT).rollbackDeadline(Duration.ofMillis(300))
                        .listener(new io.github.boundedupload.spi.UploadListener() {
                            @Override
                            public void rollbackAbandoned(io.github.boundedupload.spi.UploadEvent upload,
                                    Throwable failure) {
                                abandoned.add(upload.key());
                            }
                        }).build())) {
            BatchResult result = uploader.uploadAll(List.of(Attachment.of("lost.txt", new byte[1])));
            assertThat(result.results().get(0).status()).isEqualTo(Status.DELETING);

            UploadResult settled = result.settled().toCompletableFuture().join().results().get(0);
            assertThat(settled.status()).isEqualTo(Status.POSSIBLY_STORED);
            assertThat(settled.failure()).get().isInstanceOf(LostAnswer.class);
            assertThat(abandoned).containsExactly(settled.key());
            assertThat(storage.objects).containsKey(settled.key()); // what the reports say may be left
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
    void anObjectThatCannotBeDeletedAgainIsReportedDeletingNeverStored() {
        failOn("d-5.txt");
        storage.deleteBehaviour = request -> {
            if (request.key().endsWith("d-1.txt")) {
                throw new IOException("storage unreachable");
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploads(1).maxConcurrentUploadsPerBatch(1)
                        // The delete fails for good: retries stop soon, so that close() need not wait for them.
                        .rollbackDeadline(Duration.ofMillis(300)).build())) {
            assertThatThrownBy(() -> uploader.uploadAll(Batches.of("d", 8)))
                    .isInstanceOfSatisfying(BatchFailedException.class, e -> {
                        assertThat(e.notDeleted()).singleElement().satisfies(r -> {
                            assertThat(r.key()).endsWith("d-1.txt");
                            assertThat(r.status()).isEqualTo(Status.DELETING);
                            assertThat(r.isStored()).isFalse();
                            assertThat(r.storedObject()).isPresent();
                            assertThat(r.failure().orElseThrow()).hasMessage("storage unreachable");
                        });
                        assertThat(e.result().results()).extracting(UploadResult::status)
                                .doesNotContain(Status.STORED);
                        assertThat(e).hasMessageContaining("nothing of the batch is kept; NOT DELETED YET: 1 (")
                                .hasMessageContaining("d-1.txt");
                        // Given up at the deadline: reported, and the settled result says so.
                        UploadResult settled = e.settled().toCompletableFuture().join().results().get(1);
                        assertThat(settled.status()).isEqualTo(Status.POSSIBLY_STORED);
                        assertThat(settled.storedObject()).isPresent();
                    });
            assertThat(storage.objects.keySet()).singleElement()
                    .satisfies(key -> assertThat(key).endsWith("d-1.txt"));
        }
    }

    // ---- issue 11, defect 1: cancelled uploads reported as failures ------------------------------------------

    /** What a storage client may wrap an interrupt in: here an exception of its own that says so. */
    private static final class Aborted extends UploadException {
        Aborted() {
            super("aborted: the thread was interrupted", null);
        }

        @Override
        public boolean isCancellation() {
            return true;
        }
    }

    @Test
    void uploadsInterruptedBecauseOfAFailureAreCancelledWhateverTheStorageWrapsTheInterruptIn() {
        CountDownLatch othersStarted = new CountDownLatch(5);
        storage.behaviour = request -> {
            if (request.fileName().equals("w-5.txt")) {
                othersStarted.await(1, TimeUnit.MINUTES);
                throw new IOException("refused w-5.txt");
            }
            othersStarted.countDown();
            try {
                new CountDownLatch(1).await(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                throw new Aborted(); // the interrupt, as a storage client reports it
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploads(6).maxConcurrentUploadsPerBatch(6).build())) {
            assertThatThrownBy(() -> uploader.uploadAll(Batches.of("w", 6)))
                    .isInstanceOfSatisfying(BatchFailedException.class, e -> {
                        assertThat(e.failures()).extracting(UploadResult::index).containsExactly(5);
                        assertThat(e.getCause()).isInstanceOf(IOException.class).hasMessage("refused w-5.txt");
                        assertThat(e.getSuppressed()).isEmpty();
                        assertThat(e.result().results()).extracting(UploadResult::status).containsExactly(
                                Status.CANCELLED, Status.CANCELLED, Status.CANCELLED, Status.CANCELLED,
                                Status.CANCELLED, Status.FAILED);
                    });
        }
    }

    @Test
    void theCauseIsTheFailureThatStoppedTheBatchNotTheFirstByPosition() {
        CountDownLatch slowOneStarted = new CountDownLatch(1);
        storage.behaviour = request -> {
            if (request.fileName().equals("p-3.txt")) {
                slowOneStarted.await(1, TimeUnit.MINUTES);
                throw new IOException("refused p-3.txt, first");
            }
            if (request.fileName().equals("p-1.txt")) {
                slowOneStarted.countDown();
                try {
                    new CountDownLatch(1).await(1, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    // Interrupted by the stop, then failing for a reason of its own: a real failure, a later one.
                    throw new IOException("refused p-1.txt, later");
                }
            }
        };
        try (ConcurrentAttachmentUploader uploader = uploader(FailurePolicy.ALL_OR_NOTHING)) {
            assertThatThrownBy(() -> uploader.uploadAll(Batches.of("p", 4)))
                    .isInstanceOfSatisfying(BatchFailedException.class, e -> {
                        assertThat(e.failures()).extracting(UploadResult::index).containsExactly(1, 3);
                        assertThat(e.getCause()).hasMessage("refused p-3.txt, first");
                        assertThat(e.getSuppressed()).singleElement().satisfies(s -> assertThat(s)
                                .hasMessage("refused p-1.txt, later"));
                    });
        }
    }

    // ---- issue 11, defect 3: CANCELLED that is not empty -----------------------------------------------------

    /** What a storage reports when it was stopped and could not remove what it started (parts of a multipart). */
    private static final class StoppedWithLeftovers extends UploadException {
        StoppedWithLeftovers() {
            super("stopped, and its parts could not be removed", new java.io.InterruptedIOException());
        }

        @Override
        public boolean mayBeStored() {
            return true;
        }
    }

    @Test
    void aCancelledUploadThatLeftSomethingIsDeletedBeforeItIsReportedCancelled() {
        CountDownLatch leftoverWritten = new CountDownLatch(1);
        storage.behaviour = request -> {
            if (request.fileName().equals("bad.txt")) {
                leftoverWritten.await(1, TimeUnit.MINUTES);
                throw new IOException("refused");
            }
            storage.objects.put(request.key(), new byte[] {1}); // the parts of an upload in progress
            leftoverWritten.countDown();
            try {
                new CountDownLatch(1).await(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                throw new StoppedWithLeftovers();
            }
        };
        try (ConcurrentAttachmentUploader uploader = uploader(FailurePolicy.ALL_OR_NOTHING)) {
            List<Attachment> batch = List.of(Attachment.of("big.bin", new byte[1]), Attachment.of("bad.txt",
                    new byte[1]));

            assertThatThrownBy(() -> uploader.uploadAll(batch))
                    .isInstanceOfSatisfying(BatchFailedException.class, e -> {
                        UploadResult big = e.result().results().get(0);
                        assertThat(big.status()).isEqualTo(Status.CANCELLED);
                        assertThat(storage.objects).doesNotContainKey(big.key());
                        assertThat(storage.deleted).containsExactly(big.key());
                        assertThat(e.failures()).extracting(UploadResult::index).containsExactly(1);
                    });
        }
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "keepUnknownOutcomes {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void aCancelledUploadThatLeftSomethingInCollectIsDeletedOrSaysItIsPossiblyStored(boolean keepUnknownOutcomes) {
        CountDownLatch leftoverWritten = new CountDownLatch(1);
        storage.behaviour = request -> {
            storage.objects.put(request.key(), new byte[] {1});
            leftoverWritten.countDown();
            try {
                new CountDownLatch(1).await(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                throw new StoppedWithLeftovers();
            }
        };
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder()
                .failurePolicy(FailurePolicy.COLLECT).keepUnknownOutcomes(keepUnknownOutcomes)
                .shutdownGracePeriod(Duration.ZERO).build());
        java.util.concurrent.CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(
                List.of(Attachment.of("big.bin", new byte[1])));
        try {
            leftoverWritten.await(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }

        uploader.close(); // cancels the batch; COLLECT does not roll back what it stored

        UploadResult big = batch.join().results().get(0);
        if (keepUnknownOutcomes) {
            assertThat(big.status()).isEqualTo(Status.POSSIBLY_STORED);
            assertThat(big.failure()).get().isInstanceOfSatisfying(UploadException.class,
                    f -> assertThat(f.mayBeStored()).isTrue());
            assertThat(storage.objects).containsKey(big.key());
        } else {
            // What it may have left is deleted before the batch reports: then it is what the cancel says it is.
            assertThat(big.status()).isEqualTo(Status.CANCELLED);
            assertThat(storage.objects).doesNotContainKey(big.key());
            assertThat(storage.deleted).containsExactly(big.key());
        }
    }

    // ---- issue 11, defect 7: a rollback deletes another batch's object ---------------------------------------

    @Test
    void aRollbackNeverDeletesAnObjectAnotherBatchWroteUnderTheSameKey() throws Exception {
        CountDownLatch failNow = new CountDownLatch(1);
        storage.behaviour = request -> {
            if (request.fileName().equals("a-bad.txt")) {
                failNow.await(1, TimeUnit.MINUTES);
                throw new IOException("refused");
            }
        };
        try (ConcurrentAttachmentUploader uploader = uploader(FailurePolicy.ALL_OR_NOTHING)) {
            java.util.concurrent.CompletableFuture<BatchResult> a = uploader.uploadAllAsync(List.of(
                    Attachment.builder("a.txt", AttachmentContent.ofBytes("from A".getBytes(
                            java.nio.charset.StandardCharsets.UTF_8))).key("shared/k").build(),
                    Attachment.of("a-bad.txt", new byte[1])));
            org.awaitility.Awaitility.await().until(() -> storage.objects.containsKey("shared/k")
                    && storage.started.size() == 2);

            java.util.concurrent.CompletableFuture<BatchResult> b = uploader.uploadAllAsync(List.of(
                    Attachment.builder("b.txt", AttachmentContent.ofBytes("from B".getBytes(
                            java.nio.charset.StandardCharsets.UTF_8))).key("shared/k").build()));
            // A fails only once B has either written the key (what broke: A's rollback then deleted B's object) or is
            // held back waiting for it, so that the order is the same in every run.
            org.awaitility.Awaitility.await().until(() -> uploader.stats().queuedUploads() == 1
                    || java.util.Arrays.equals(storage.objects.get("shared/k"),
                            "from B".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            failNow.countDown();

            assertThatThrownBy(a::join).cause().isInstanceOf(BatchFailedException.class);
            assertThat(b.get(1, TimeUnit.MINUTES).allStored()).isTrue();
            assertThat(storage.objects.get("shared/k")).asString(java.nio.charset.StandardCharsets.UTF_8)
                    .isEqualTo("from B");
        }
    }
}
