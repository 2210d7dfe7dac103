package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import io.github.boundedupload.fakes.Gate;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.UploadJournal;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * What the uploader tells its journal, and on which thread: a batch is begun before its first byte with every key,
 * kept on uploadAll's caller (so that a journal can use the caller's transaction), settled when it keeps nothing
 * (unconfirmed when a delete was given up), and refused when it cannot be begun.
 */
class JournalTest {

    /** Records what the uploader told it. */
    static final class RecordingJournal implements UploadJournal {
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<Thread> keptOn = new CopyOnWriteArrayList<>();
        volatile boolean refuse;
        volatile boolean failKeep;

        @Override
        public Entry begin(BatchEvent batch, List<String> keys, Duration maxRunTime) {
            if (refuse) {
                throw new IllegalStateException("database down");
            }
            events.add("begin " + keys.size() + " keys, runs at most " + maxRunTime);
            return new Entry() {
                @Override
                public void keep(List<String> kept) {
                    if (failKeep) {
                        throw new IllegalStateException("database down at commit");
                    }
                    keptOn.add(Thread.currentThread());
                    events.add("keep " + kept.size());
                }

                @Override
                public void settled(boolean confirmed) {
                    events.add("settled " + (confirmed ? "confirmed" : "unconfirmed"));
                }
            };
        }
    }

    private final FakeStorage storage = new FakeStorage();
    private final RecordingJournal journal = new RecordingJournal();

    private ConcurrentAttachmentUploader uploader(UploaderConfig.Builder config) {
        return ConcurrentAttachmentUploader.create(storage, config.journal(journal).batchTimeout(Duration.ofMinutes(1))
                .stopTimeout(Duration.ofSeconds(2)).rollbackDeadline(Duration.ofMillis(300)).build());
    }

    @Test
    void aSucceededBatchIsBegunWithEveryKeyAndKeptOnTheCallersThread() {
        try (ConcurrentAttachmentUploader uploader = uploader(UploaderConfig.builder())) {
            uploader.uploadAll(Batches.of("j", 3));
            assertThat(journal.events).containsExactly("begin 3 keys, runs at most PT1M4S", "keep 3");
            assertThat(journal.keptOn).containsExactly(Thread.currentThread());

            uploader.uploadAllAsync(Batches.of("a", 2)).join();
            assertThat(journal.events).endsWith("keep 2");
            assertThat(journal.keptOn.get(1)).isNotSameAs(Thread.currentThread());
        }
    }

    @Test
    void aFailedBatchIsSettledConfirmedOrUnconfirmedWhenADeleteWasGivenUp() {
        storage.behaviour = request -> {
            if (request.fileName().equals("f-1.txt")) {
                throw new IOException("refused");
            }
        };
        try (ConcurrentAttachmentUploader uploader = uploader(UploaderConfig.builder()
                .maxConcurrentUploadsPerBatch(1))) {
            assertThatThrownBy(() -> uploader.uploadAll(Batches.of("f", 2))).isInstanceOf(BatchFailedException.class);
            await().atMost(Duration.ofSeconds(30)).until(() -> journal.events.contains("settled confirmed"));

            storage.deleteBehaviour = request -> {
                throw new IOException("storage unreachable");
            };
            assertThatThrownBy(() -> uploader.uploadAll(Batches.of("f", 2))).isInstanceOf(BatchFailedException.class);
            await().atMost(Duration.ofSeconds(30)).until(() -> journal.events.contains("settled unconfirmed"));
            assertThat(journal.events).noneMatch(event -> event.startsWith("keep"));
        }
    }

    /**
     * A caller-runs batch of uploadAllAsync waits on its own queue for work; when it times out (COLLECT) on the timer
     * thread and the journal cannot keep what it stored, its caller must still be woken and told.
     */
    @Test
    void aCallerRunsBatchWhoseKeepFailsOnAnotherThreadStillWakesItsCaller() throws Exception {
        journal.failKeep = true;
        Gate firstUpload = new Gate();
        CountDownLatch stuckRelease = new CountDownLatch(1);
        storage.behaviour = request -> {
            if (request.fileName().equals("first-0.txt")) {
                firstUpload.pass();
            } else if (request.fileName().equals("first-1.txt")) {
                // Holds the only permit past every deadline: ignores the cancellation, as stuck I/O does.
                boolean interrupted = false;
                while (stuckRelease.getCount() > 0) {
                    try {
                        stuckRelease.await();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        // One permit, one upload per batch at a time; a queue of two: "first" (2) fills it, "second" runs on its caller.
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().journal(journal).maxConcurrentUploads(1).maxConcurrentUploadsPerBatch(1)
                        .maxQueuedUploads(2).maxAttachmentsPerBatch(2).rejectionPolicy(RejectionPolicy.CALLER_RUNS)
                        .failurePolicy(FailurePolicy.COLLECT).batchTimeout(Duration.ofSeconds(2))
                        .stopTimeout(Duration.ofMinutes(1)).build())) {
            CompletableFuture<BatchResult> first = uploader.uploadAllAsync(Batches.of("first", 2));
            await().until(() -> storage.inFlight.get() == 1);
            AtomicReference<CompletableFuture<BatchResult>> second = new AtomicReference<>();
            Thread caller = new Thread(() -> second.set(uploader.uploadAllAsync(Batches.of("second", 2))),
                    "second-caller");
            caller.start();
            await().until(() -> caller.getState() == Thread.State.WAITING);
            // first-0 ends; second-0 (queued before first-1) runs on the caller and is stored; then first-1 takes the
            // permit and keeps it, and second-1 waits for it until second's deadline passes on the timer thread.
            firstUpload.open();
            try {
                await().atMost(Duration.ofMinutes(1)).until(() -> !caller.isAlive());
                assertThat(second.get()).isCompletedExceptionally();
                assertThatThrownBy(second.get()::join).hasRootCauseMessage("database down at commit");
                assertThat(storage.objects.keySet()).anyMatch(key -> key.endsWith("second-0.txt"));
            } finally {
                stuckRelease.countDown();
            }
            assertThat(first.handle((result, failure) -> failure)).succeedsWithin(Duration.ofMinutes(1));
        }
    }

    @Test
    void aBatchTheJournalCannotRecordIsRefusedBeforeAnythingIsWritten() {
        journal.refuse = true;
        try (ConcurrentAttachmentUploader uploader = uploader(UploaderConfig.builder())) {
            assertThatThrownBy(() -> uploader.uploadAll(Batches.of("r", 2))).isInstanceOf(UploadException.class)
                    .hasMessageContaining("nothing of it was started").hasMessageContaining("database down");
            assertThat(storage.started).isEmpty();
        }
    }
}
