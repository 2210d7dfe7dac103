package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Content held in memory goes to the non-blocking client as it is: no stream is read, so no read thread is taken,
 * for a single PutObject and for every part of a multipart upload; progress is still reported. Published content
 * goes as it is published up to the multipart threshold, without a read thread either; above it, its parts are read
 * from it as a stream.
 */
class InMemoryContentIT {

    static final S3TestServices services = S3TestServices.get();
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucket("in-memory");
    static final AtomicInteger reads = new AtomicInteger();
    static S3AsyncClient client;
    static S3AsyncFileUploader uploader;

    @BeforeAll
    static void setUp() {
        client = services.s3AsyncClientBuilder(services.s3Endpoint()).build();
        Executor counting = task -> {
            reads.incrementAndGet();
            Thread thread = new Thread(task, "test-read");
            thread.setDaemon(true);
            thread.start();
        };
        uploader = S3AsyncFileUploader.builder(client, s3.bucket().name()).options(Adapters.smallParts())
                .readExecutor(counting).build();
    }

    @AfterAll
    static void tearDown() {
        uploader.close();
        client.close();
    }

    @ParameterizedTest
    @ValueSource(longs = {10_000, Adapters.LARGE})
    void bytesGoUpWithoutAReadThread(long size) throws Exception {
        byte[] bytes = TestData.bytes(21, Math.toIntExact(size));
        List<Long> progress = new CopyOnWriteArrayList<>();
        String key = "in-memory/" + size + ".bin";
        reads.set(0);

        StoredObject stored = uploader.upload(UploadRequest.builder(key, Attachment.of(size + ".bin", bytes))
                .progress(progress::add).build()).get(60, TimeUnit.SECONDS);

        assertThat(stored.size()).isEqualTo(size);
        assertThat(s3.bucket().read(key)).hasValueSatisfying(read -> assertThat(read).isEqualTo(bytes));
        assertThat(reads).as("tasks given to the read executor").hasValue(0);
        assertThat(progress).isNotEmpty().last().isEqualTo(size);
    }

    @ParameterizedTest
    @ValueSource(longs = {10_000, Adapters.LARGE})
    void streamsAreReadOnTheReadExecutor(long size) throws Exception {
        String key = "in-memory/stream-" + size + ".bin";
        reads.set(0);

        uploader.upload(UploadRequest.of(key, Attachment.of("stream.bin",
                AttachmentContent.ofStream(() -> TestData.stream(22, size), size)))).get(60, TimeUnit.SECONDS);

        assertThat(s3.bucket().read(key)).hasValueSatisfying(read -> assertThat(read)
                .isEqualTo(TestData.bytes(22, Math.toIntExact(size))));
        assertThat(reads).as("tasks given to the read executor").hasPositiveValue();
    }

    @ParameterizedTest
    @ValueSource(longs = {10_000, Adapters.LARGE})
    void publishedContentGoesUpWithoutAReadThreadUpToTheMultipartThreshold(long size) throws Exception {
        String key = "in-memory/published-" + size + ".bin";
        List<Long> progress = new CopyOnWriteArrayList<>();
        reads.set(0);

        StoredObject stored = uploader.upload(UploadRequest.builder(key, Attachment.of("published.bin",
                AttachmentContent.ofPublisher(() -> TestData.publisher(23, size), size))).progress(progress::add)
                .build()).get(60, TimeUnit.SECONDS);

        assertThat(stored.size()).isEqualTo(size);
        assertThat(s3.bucket().sha256(key)).contains(TestData.sha256(TestData.stream(23, size)));
        if (size <= Adapters.smallParts().multipartThreshold()) {
            assertThat(reads).as("tasks given to the read executor").hasValue(0);
            assertThat(progress).isNotEmpty().last().isEqualTo(size);
        } else {
            assertThat(reads).as("tasks given to the read executor").hasPositiveValue();
        }
    }
}
