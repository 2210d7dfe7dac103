package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.UploadJournal;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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

        @Override
        public Entry begin(BatchEvent batch, List<String> keys, Duration maxRunTime) {
            if (refuse) {
                throw new IllegalStateException("database down");
            }
            events.add("begin " + keys.size() + " keys, runs at most " + maxRunTime);
            return new Entry() {
                @Override
                public void keep(List<String> kept) {
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
