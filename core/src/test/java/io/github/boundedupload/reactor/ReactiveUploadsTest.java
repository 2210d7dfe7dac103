package io.github.boundedupload.reactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.InvalidAttachmentException;
import io.github.boundedupload.UploadProgress;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import io.github.boundedupload.fakes.Gate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/** The batch as a Mono: submitted on subscription, its result emitted, and cancelled with the subscription. */
class ReactiveUploadsTest {

    private final FakeStorage storage = new FakeStorage();

    @Test
    void emitsTheResultOfTheBatchSubmittedOnSubscription() {
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage)) {
            Mono<BatchResult> batch = ReactiveUploads.uploadAll(uploader, Batches.of("r", 3));
            assertThat(storage.started).as("nothing before the subscription").isEmpty();
            BatchResult result = batch.block(Duration.ofSeconds(30));
            assertThat(result.storedObjects()).hasSize(3);
            assertThat(storage.objects).hasSize(3);
        }
    }

    @Test
    void cancellingTheSubscriptionCancelsTheBatchAndDeletesWhatItStored() throws Exception {
        Gate gate = new Gate();
        CountDownLatch entered = new CountDownLatch(2);
        storage.behaviour = request -> {
            if (request.fileName().equals("r-2.txt")) {
                entered.countDown();
                gate.pass(); // held until the subscription is cancelled, which interrupts it
            } else {
                entered.countDown();
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploadsPerBatch(3).build())) {
            Disposable subscription = ReactiveUploads.uploadAll(uploader, Batches.of("r", 3)).subscribe();
            assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
            await().atMost(Duration.ofSeconds(30)).until(() -> storage.objects.size() >= 1);

            subscription.dispose();

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(storage.objects).as("what the cancelled batch stored is deleted").isEmpty();
                assertThat(uploader.stats().activeBatches()).isZero();
            });
            assertThat(storage.interrupted).isNotEmpty();
        } finally {
            gate.open();
        }
    }

    @Test
    void eachAttachmentsStepsAreEmittedAndTheFluxEndsWithTheBatch() {
        storage.behaviour = request -> {
            if (request.fileName().equals("p-1.txt")) {
                throw new java.io.IOException("refused");
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploadsPerBatch(1).build())) {
            List<UploadProgress> steps = new java.util.concurrent.CopyOnWriteArrayList<>();
            assertThatThrownBy(() -> ReactiveUploads.uploadAllWithProgress(uploader, Batches.of("p", 3))
                    .doOnNext(steps::add).blockLast(Duration.ofSeconds(30)))
                    .isInstanceOf(io.github.boundedupload.BatchFailedException.class);
            assertThat(steps).extracting(step -> step.index() + " " + step.kind()).containsSubsequence(
                    "0 STARTED", "0 STORED", "1 STARTED", "1 FAILED").contains("0 DELETED", "2 SKIPPED");
            assertThat(steps).filteredOn(step -> step.kind() == UploadProgress.Kind.FAILED).singleElement()
                    .satisfies(step -> assertThat(step.failure()).get().hasToString("java.io.IOException: refused"));

            storage.behaviour = request -> { };
            List<UploadProgress> stored = ReactiveUploads.uploadAllWithProgress(uploader, Batches.of("q", 2))
                    .filter(step -> step.kind() == UploadProgress.Kind.STORED).collectList()
                    .block(Duration.ofSeconds(30));
            assertThat(stored).extracting(UploadProgress::index).containsExactlyInAnyOrder(0, 1);
        }
    }

    @Test
    void aBatchsOwnListenerHearsThatBatchOnly() throws Exception {
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage)) {
            List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
            var mine = uploader.uploadAllAsync(Batches.of("mine", 2), UploadProgress.listener(
                    step -> heard.add(step.fileName())));
            uploader.uploadAll(Batches.of("other", 3));
            mine.get(30, TimeUnit.SECONDS);
            assertThat(heard).isNotEmpty().allSatisfy(name -> assertThat(name).startsWith("mine-"));
        }
    }

    @Test
    void anInvalidBatchSignalsTheErrorWithoutUploading() {
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage)) {
            assertThatThrownBy(() -> ReactiveUploads.uploadAll(uploader, List.of(
                    io.github.boundedupload.Attachment.of("../x", new byte[] {1}))).block(Duration.ofSeconds(30)))
                    .isInstanceOf(InvalidAttachmentException.class);
            assertThat(storage.started).isEmpty();
        }
    }
}
