package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.Attachment;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * The non-blocking adapter on the CRT-based client: a whole file up to the multipart threshold goes to the client by
 * path, which reads it in native code; its bytes are then not watched, so progress comes once at the end, and a lost
 * answer is settled by reading the file again for its checksum. Larger files go in the adapter's own parts as on any
 * client.
 */
class CrtClientIT {

    static final S3TestServices services = S3TestServices.get();
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucketAndProxy("crt-client");

    @TempDir
    Path dir;

    private static S3AsyncFileUploader uploader(S3AsyncClient client, Executor reads) {
        return uploader(client, reads, Adapters.smallParts());
    }

    private static S3AsyncFileUploader uploader(S3AsyncClient client, Executor reads, S3UploadOptions options) {
        return S3AsyncFileUploader.builder(client, s3.bucket().name()).options(options).readExecutor(reads).build();
    }

    private static Executor counting(AtomicInteger reads, Runnable before) {
        return task -> {
            reads.incrementAndGet();
            before.run();
            Thread thread = new Thread(task, "test-read");
            thread.setDaemon(true);
            thread.start();
        };
    }

    @Test
    void aWholeFileGoesByPathAndReportsItsProgressOnce() throws Exception {
        Path file = TestData.file(dir.resolve("whole.bin"), 31, 3 * 1024 * 1024 + 17);
        long size = Files.size(file);
        List<Long> progress = new CopyOnWriteArrayList<>();
        AtomicInteger reads = new AtomicInteger();
        try (S3AsyncClient client = services.s3CrtClientBuilder(services.s3Endpoint()).build();
                S3AsyncFileUploader uploader = uploader(client, counting(reads, () -> { }))) {
            StoredObject stored = uploader.upload(UploadRequest.builder("crt/whole.bin", Attachment.of(file))
                    .progress(progress::add).build()).get(60, TimeUnit.SECONDS);

            assertThat(stored.size()).isEqualTo(size);
            assertThat(stored.checksum()).isPresent();
            assertThat(s3.bucket().sha256(stored.key())).contains(TestData.sha256(file));
            // A Java body watched by the adapter reports every 256 KiB; the native file path only at the end.
            assertThat(progress).as("progress of a file the CRT client read itself").containsExactly(size);
            assertThat(reads).as("tasks given to the read executor").hasValue(0);
        }
    }

    @Test
    void aFileAboveTheThresholdGoesInTheAdaptersParts() throws Exception {
        Path file = TestData.file(dir.resolve("large.bin"), 32, Adapters.LARGE);
        try (S3AsyncClient client = services.s3CrtClientBuilder(services.s3Endpoint()).build();
                S3AsyncFileUploader uploader = uploader(client, counting(new AtomicInteger(), () -> { }))) {
            StoredObject stored = uploader.upload(UploadRequest.of("crt/large.bin", Attachment.of(file)))
                    .get(60, TimeUnit.SECONDS);

            assertThat(stored.eTag()).hasValueSatisfying(eTag -> assertThat(eTag).endsWith("-3\""));
            assertThat(s3.bucket().sha256(stored.key())).contains(TestData.sha256(file));
            assertThat(s3.bucket().incompleteUploads()).isEmpty();
        }
    }

    /**
     * Every answer is dropped from the start, so the PUT times out after S3 stored the file. The adapter then reads
     * the file again on its read executor (which heals the network first) and finds the object by size and checksum.
     */
    @Test
    void aLostAnswerIsSettledByReadingTheFileAgain() throws Exception {
        Path file = TestData.file(dir.resolve("lost.bin"), 33, 200_000);
        AtomicInteger reads = new AtomicInteger();
        s3.proxy().toxiproxy().toxics().timeout("lose-answers", ToxicDirection.DOWNSTREAM, 0);
        try (S3AsyncClient client = services.s3CrtClientBuilder(s3.proxy().endpoint()).build();
                S3AsyncFileUploader uploader = uploader(client, counting(reads, () -> s3.proxy().heal()))) {
            StoredObject stored = uploader.upload(UploadRequest.builder("crt/lost.bin", Attachment.of(file))
                    .timeout(Duration.ofSeconds(3)).build()).get(60, TimeUnit.SECONDS);

            assertThat(reads).as("the file read again for its checksum").hasValue(1);
            assertThat(stored.size()).isEqualTo(Files.size(file));
            assertThat(s3.bucket().sha256(stored.key())).contains(TestData.sha256(file));
        } finally {
            s3.proxy().heal();
        }
    }

    /**
     * A file larger than the CRT client's own part size (8 MiB) goes up as the client's own multipart upload, which the
     * adapter never sees; every answer is lost, so the client cannot abort what it started. The adapter aborts the
     * key's uploads started since it asked.
     */
    @Test
    void aMultipartUploadTheClientStartedIsAbortedWhenTheUploadFails() throws Exception {
        Path file = TestData.file(dir.resolve("crt-parts.bin"), 35, 12L * 1024 * 1024);
        s3.proxy().toxiproxy().toxics().timeout("lose-answers", ToxicDirection.DOWNSTREAM, 0);
        try (S3AsyncClient client = services.s3CrtClientBuilder(s3.proxy().endpoint()).build();
                S3AsyncFileUploader uploader = uploader(client, counting(new AtomicInteger(),
                        () -> s3.proxy().heal()), S3UploadOptions.defaults())) {
            var upload = uploader.upload(UploadRequest.builder("crt/parts.bin", Attachment.of(file))
                    .timeout(Duration.ofSeconds(3)).build());

            assertThat(upload).failsWithin(Duration.ofSeconds(60));
            assertThat(s3.bucket().incompleteUploads()).as("multipart uploads left").isEmpty();
            assertThat(s3.bucket().exists("crt/parts.bin")).isFalse();
        } finally {
            s3.proxy().heal();
        }
    }

    /**
     * No request gets through: the upload fails after looking for the object, and says so without claiming that it may
     * be stored.
     */
    @Test
    void aPutThatStoredNothingFailsAfterLooking() throws Exception {
        Path file = TestData.file(dir.resolve("never.bin"), 34, 100_000);
        AtomicInteger reads = new AtomicInteger();
        // Every connection is reset as soon as data comes (a timeout toxic would only hold the PUT until healed). The
        // client retries nothing: the proxy is healed when the file is read again, and a retry of the CRT client's
        // own, still running then, would store the object (seen once: the upload then rightly reported it stored).
        s3.proxy().toxiproxy().toxics().resetPeer("reset-everything", ToxicDirection.UPSTREAM, 0);
        try (S3AsyncClient client = services.s3CrtClientBuilder(s3.proxy().endpoint())
                .retryConfiguration(retry -> retry.numRetries(0)).build();
                S3AsyncFileUploader uploader = uploader(client, counting(reads, () -> s3.proxy().heal()))) {
            var upload = uploader.upload(UploadRequest.builder("crt/never.bin", Attachment.of(file))
                    .timeout(Duration.ofSeconds(3)).build());

            assertThat(upload).failsWithin(Duration.ofSeconds(60)).withThrowableThat()
                    .havingCause().isInstanceOfSatisfying(S3UploadException.class, e -> assertThat(e.mayBeStored())
                            .as("%s", e).isFalse());
            assertThat(reads).as("the file read again for its checksum").hasValue(1);
            assertThat(s3.bucket().exists("crt/never.bin")).isFalse();
        } finally {
            s3.proxy().heal();
        }
    }
}
