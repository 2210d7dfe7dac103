package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.fakes.FakeStorage;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * Issue 28, item 4: a call the uploader had to abandon (a stream whose {@code read()} ignores interrupts, forever)
 * never keeps the JVM alive, and {@code close()} names what it abandoned. A real JVM of its own runs the batch, closes
 * the uploader and returns from {@code main}: it must exit.
 */
class AbandonedCallTest {

    /** A stream whose read() waits for ever and ignores interrupts, like a socket read without a timeout. */
    static InputStream foreverIgnoringInterrupts(CountDownLatch reading) {
        return new InputStream() {
            @Override
            public int read() {
                reading.countDown();
                CountDownLatch never = new CountDownLatch(1);
                while (true) {
                    try {
                        never.await();
                    } catch (InterruptedException ignored) {
                        // ignored, as a blocking socket read does
                    }
                }
            }
        };
    }

    @Test
    void aBatchWithACallGivenUpOnSettlesWhenTheUploaderCloses() throws IOException {
        CountDownLatch reading = new CountDownLatch(1);
        FakeStorage storage = new FakeStorage();
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder()
                .executorType(ExecutorType.PLATFORM).uploadTimeout(Duration.ofMillis(200))
                .stopTimeout(Duration.ofMillis(200)).shutdownGracePeriod(Duration.ZERO)
                .failurePolicy(FailurePolicy.COLLECT).build());
        BatchResult result = uploader.uploadAll(List.of(Attachment.of("stuck.bin",
                AttachmentContent.ofStream(() -> foreverIgnoringInterrupts(reading)))));

        // Reported failed (stuck); its background work is the call, which has not returned.
        assertThat(result.results().get(0).status()).isEqualTo(Status.FAILED);
        assertThat(result.results().get(0).failure()).get().isInstanceOf(UploadStuckException.class);
        assertThat(result.settled().toCompletableFuture()).isNotDone();

        uploader.close();

        UploadResult settled = result.settled().toCompletableFuture().join().results().get(0);
        assertThat(settled.status()).isEqualTo(Status.POSSIBLY_STORED);
        assertThat(settled.failure()).get().isInstanceOf(UploadStuckException.class);
    }
}
