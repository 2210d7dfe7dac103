package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import io.github.boundedupload.fakes.Gate;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.UploadListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CancelAndCloseTest {

    private final FakeStorage storage = new FakeStorage();
    private final Gate gate = new Gate();

    @AfterEach
    void openGate() {
        gate.open();
    }

    private static List<Thread> threadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(prefix) && t.isAlive()).toList();
    }

    @Test
    void cancellingTheFutureCancelsWhatHasNotStartedAndDeletesWhatWasStored() {
        storage.behaviour = request -> {
            if (!request.fileName().equals("c-0.txt")) {
                gate.pass();
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploads(3).maxConcurrentUploadsPerBatch(3)
                        .failurePolicy(FailurePolicy.COLLECT).build())) {
            CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(Batches.of("c", 10));
            await().until(() -> storage.objects.size() == 1 && storage.inFlight.get() == 3);

            assertThat(batch.cancel(true)).isTrue();

            await().until(() -> uploader.stats().activeBatches() == 0);
            assertThat(storage.started).hasSize(4);
            assertThat(storage.interrupted).hasSize(3);
            assertThat(storage.objects).isEmpty();
            assertThat(storage.deleted).hasSize(1);
            assertThat(uploader.stats()).isEqualTo(new UploaderStats(0, 0, 0, 0, false));
        }
    }

    @Test
    void interruptingAWaitingCallerCancelsItsBatch() throws Exception {
        storage.behaviour = request -> gate.pass();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage)) {
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicReference<Boolean> interruptFlag = new AtomicReference<>();
            Thread caller = new Thread(() -> {
                try {
                    uploader.uploadAll(Batches.of("i", 3));
                } catch (Throwable t) {
                    thrown.set(t);
                    interruptFlag.set(Thread.currentThread().isInterrupted());
                }
            });
            caller.start();
            await().until(() -> storage.inFlight.get() == 3);

            caller.interrupt();
            caller.join();

            assertThat(thrown.get()).isInstanceOf(UploadException.class).hasMessageContaining("interrupted")
                    .hasCauseInstanceOf(InterruptedException.class);
            assertThat(interruptFlag.get()).isTrue();
            await().until(() -> uploader.stats().activeBatches() == 0);
            assertThat(storage.interrupted).hasSize(3);
            assertThat(storage.objects).isEmpty();
        }
    }

    @Test
    void closeLetsRunningUploadsFinishWithinTheGracePeriod() {
        storage.behaviour = request -> gate.pass();
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("graceful").shutdownGracePeriod(Duration.ofMinutes(1)).build());
        CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(Batches.of("g", 4));
        await().until(() -> storage.inFlight.get() == 4);

        CompletableFuture<Void> closing = CompletableFuture.runAsync(uploader::close);
        await().until(() -> uploader.stats().closed());
        assertThatThrownBy(() -> uploader.uploadAll(Batches.of("late", 1)))
                .isInstanceOf(UploaderClosedException.class).hasMessageContaining("'graceful' is closed");
        assertThat(closing).isNotDone();

        gate.open();
        closing.join();
        assertThat(batch.join().allStored()).isTrue();
        assertThat(storage.objects).hasSize(4);
        assertThat(threadsNamed("bounded-upload-graceful-")).isEmpty();
    }

    @Test
    void closeCancelsWhatIsStillRunningAfterTheGracePeriodAndLeavesNoThreadBehind() {
        storage.behaviour = request -> {
            if (!request.fileName().equals("s-0.txt")) {
                gate.pass();
            }
        };
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("stuck").maxConcurrentUploads(2).maxConcurrentUploadsPerBatch(2)
                        .shutdownGracePeriod(Duration.ofMillis(200)).build());
        CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(Batches.of("s", 5));
        await().until(() -> storage.objects.size() == 1 && storage.inFlight.get() == 2);

        uploader.close();

        assertThat(batch).isCompletedExceptionally();
        assertThatThrownBy(batch::join).cause().isInstanceOfSatisfying(BatchFailedException.class, e -> {
            assertThat(e.result().results()).extracting(UploadResult::status).containsExactly(
                    Status.DELETED, Status.CANCELLED, Status.CANCELLED, Status.CANCELLED, Status.CANCELLED);
            assertThat(e).hasMessageContaining("was stopped")
                    .hasCauseInstanceOf(UploaderClosedException.class);
        });
        assertThat(storage.objects).isEmpty();
        assertThat(threadsNamed("bounded-upload-stuck-")).isEmpty();
    }

    @Test
    void closeWithNothingRunningReturnsAndStopsEveryThread() {
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("idle").build());
        uploader.uploadAll(Batches.of("x", 20));
        assertThat(threadsNamed("bounded-upload-idle-")).isNotEmpty();

        uploader.close();
        uploader.close();

        assertThat(threadsNamed("bounded-upload-idle-")).isEmpty();
        assertThat(uploader.stats().closed()).isTrue();
    }

    @Test
    void closeReturnsOnlyOnceEveryBatchItSawRunningIsComplete() throws Exception {
        // The batch has finished (it left the running batches under the lock) and its thread is still telling the
        // listeners, before it completes the future: close() must not return before that future is complete. The
        // thread is the application's (as an S3 client's response thread would be), which close() does not join.
        CountDownLatch inListener = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        UploadListener slowListener = new UploadListener() {
            @Override
            public void batchFinished(BatchEvent batch, BatchResult result, Duration took) {
                inListener.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        ExecutorService application = Executors.newFixedThreadPool(2);
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("completing").executor(application).listener(slowListener).build());
        CompletableFuture<BatchResult> result = uploader.uploadAllAsync(Batches.of("x", 3));
        inListener.await();
        Thread releaser = new Thread(() -> {
            await().until(() -> uploader.stats().closed());
            release.countDown();
        });
        releaser.start();

        uploader.close();

        assertThat(result).isCompleted();
        releaser.join();
        application.shutdown();
    }

    @Test
    void aSuppliedExecutorIsUsedAndNotShutDown() {
        java.util.concurrent.ExecutorService supplied = java.util.concurrent.Executors.newFixedThreadPool(2,
                r -> new Thread(r, "host-pool"));
        try {
            ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                    UploaderConfig.builder().executor(supplied).build());
            uploader.uploadAll(Batches.of("h", 5));
            uploader.close();

            assertThat(storage.threads).extracting(Thread::getName).containsOnly("host-pool");
            assertThat(supplied.isShutdown()).isFalse();
        } finally {
            supplied.shutdownNow();
        }
    }

    @Test
    void anExecutorThatRefusesWorkFailsTheAttachmentInsteadOfDroppingIt() {
        java.util.concurrent.ExecutorService supplied = java.util.concurrent.Executors.newSingleThreadExecutor();
        supplied.shutdown();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().executor(supplied).failurePolicy(FailurePolicy.COLLECT).build())) {
            BatchResult result = uploader.uploadAll(Batches.of("r", 2));

            assertThat(result.results()).allSatisfy(r -> {
                assertThat(r.status()).isEqualTo(Status.FAILED);
                assertThat(r.failure()).get().isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
            });
            assertThat(storage.started).isEmpty();
        }
    }

    @Test
    void anExecutorShutDownMidBatchFailsEveryUploadStillQueuedHoweverMany() throws Exception {
        // Each refused upload ends at once, and its end starts the next, which is refused too: reported inside one
        // another, 10,000 overflowed the stack and the batch never finished.
        int uploads = 20_000;
        int permits = 4;
        CountDownLatch firstWindow = new CountDownLatch(permits);
        CountDownLatch shutDown = new CountDownLatch(1);
        storage.behaviour = request -> {
            firstWindow.countDown();
            assertThat(shutDown.await(1, TimeUnit.MINUTES)).isTrue();
        };
        ExecutorService supplied = Executors.newFixedThreadPool(permits);
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().executor(supplied).failurePolicy(FailurePolicy.COLLECT)
                        .maxConcurrentUploads(permits).maxConcurrentUploadsPerBatch(permits)
                        .maxAttachmentsPerBatch(uploads).maxQueuedUploads(uploads).build())) {
            CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(Batches.of("q", uploads, 1));
            assertThat(firstWindow.await(1, TimeUnit.MINUTES)).isTrue();
            supplied.shutdown();
            shutDown.countDown();
            BatchResult result = batch.get(1, TimeUnit.MINUTES);

            assertThat(result.storedObjects()).hasSize(permits);
            assertThat(result.notStored()).hasSize(uploads - permits).allSatisfy(r -> {
                assertThat(r.status()).isEqualTo(Status.FAILED);
                assertThat(r.failure()).get().isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
            });
            assertThat(storage.started).hasSize(permits);
        } finally {
            supplied.shutdownNow();
        }
    }

    // ---- issue 11, defect 4: close() mid-batch orphans objects and hangs the batch ---------------------------

    @Test
    void closeWithAShortGraceCompletesEveryBatchAndDeletesWhatItStoredEvenWhenUploadsStopLate() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        storage.behaviour = ignoringInterrupts(release);
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("late").maxConcurrentUploads(2).maxConcurrentUploadsPerBatch(2)
                        .shutdownGracePeriod(Duration.ofMillis(100)).stopTimeout(Duration.ofMillis(300)).build());
        CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(Batches.of("l", 5));
        await().until(() -> storage.objects.size() == 1 && storage.inFlight.get() == 2);

        uploader.close();

        assertThat(batch).isDone();
        List<String> keys = batch.handle((r, e) -> ((BatchFailedException) e).result().results().stream()
                .map(UploadResult::key).toList()).join();
        assertThatThrownBy(batch::join).cause().isInstanceOfSatisfying(BatchFailedException.class, e ->
                assertThat(e.result().results()).extracting(UploadResult::status).containsExactly(Status.DELETED,
                        Status.FAILED, Status.FAILED, Status.CANCELLED, Status.CANCELLED));
        assertThat(uploader.stats().activeBatches()).isZero();
        assertThat(uploader.stats().stuckUploads()).isEqualTo(2);

        release.countDown(); // the two stuck calls now store their objects, after close() returned
        await().until(() -> uploader.stats().stuckUploads() == 0);
        await().until(() -> storage.objects.isEmpty());
        assertThat(storage.deleted).containsAll(keys.subList(0, 3));
    }

    /** Waits for the release, ignoring interrupts (like a read that does not notice them), then stores. */
    private static io.github.boundedupload.fakes.FakeStorage.Behaviour ignoringInterrupts(
            java.util.concurrent.CountDownLatch release) {
        return request -> {
            if (request.fileName().endsWith("-0.txt")) {
                return;
            }
            boolean interrupted = false;
            while (true) {
                try {
                    if (release.await(1, java.util.concurrent.TimeUnit.MINUTES)) {
                        break;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        };
    }
}
