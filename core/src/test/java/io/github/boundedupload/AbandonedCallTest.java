package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.fakes.FakeStorage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Issue 28, item 4: a call the uploader had to abandon (a stream whose {@code read()} ignores interrupts, forever)
 * never keeps the JVM alive, and {@code close()} names what it abandoned. A real JVM of its own runs the batch, closes
 * the uploader and returns from {@code main}: it must exit.
 */
class AbandonedCallTest {

    /** The child JVM: one upload that never returns; close(); the end of main. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(ConcurrentAttachmentUploader.class))
                    .setLevel(Level.ERROR);
            CountDownLatch reading = new CountDownLatch(1);
            ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(new FakeStorage(),
                    UploaderConfig.builder().name("abandoning").executorType(ExecutorType.PLATFORM)
                            .uploadTimeout(Duration.ofMillis(300)).stopTimeout(Duration.ofMillis(300))
                            .shutdownGracePeriod(Duration.ofMillis(100)).failurePolicy(FailurePolicy.COLLECT)
                            .build());
            CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(List.of(Attachment.of("stuck.bin",
                    AttachmentContent.ofStream(() -> foreverIgnoringInterrupts(reading)))));
            reading.await(1, TimeUnit.MINUTES);

            uploader.close();

            BatchResult settled = batch.join().settled().toCompletableFuture().join();
            System.out.println("settled: " + settled.results().get(0).status());
            System.out.println("end of main");
        }
    }

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
    void aJvmWhoseUploaderAbandonedACallExitsAndCloseNamesTheCall(@TempDir Path dir) throws Exception {
        Path output = dir.resolve("child.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                Child.class.getName()).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean exited = child.waitFor(1, TimeUnit.MINUTES);
        if (!exited) {
            child.destroyForcibly();
        }
        String log = Files.readString(output, StandardCharsets.UTF_8);

        assertThat(exited).as("the child JVM exited by itself; its output:%n%s", log).isTrue();
        assertThat(child.exitValue()).as(log).isZero();
        assertThat(log).contains("end of main", "settled: " + Status.POSSIBLY_STORED)
                .contains("uploader 'abandoning' closed and abandoned 1 call(s) to the storage that did not return:"
                        + " uploading file 1 'stuck.bin'")
                .contains("daemon threads");
    }

    @Test
    void theThreadOfACallGivenUpOnIsADaemonAndTheBatchSettlesWhenTheUploaderCloses() throws IOException {
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
        assertThat(storage.threads).singleElement().satisfies(t -> assertThat(t.isDaemon()).isTrue());

        uploader.close();

        UploadResult settled = result.settled().toCompletableFuture().join().results().get(0);
        assertThat(settled.status()).isEqualTo(Status.POSSIBLY_STORED);
        assertThat(settled.failure()).get().isInstanceOf(UploadStuckException.class);
    }
}
