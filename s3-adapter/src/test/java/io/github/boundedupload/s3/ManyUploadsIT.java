package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Thousands of uploads through a connection pool of 8: the adapter's permits keep every request out of the pool's
 * wait queue, so none fails with the client's connection acquisition timeout (set short here, 2 s, so that a
 * request that did wait there would fail).
 */
class ManyUploadsIT {

    static final S3TestServices services = S3TestServices.get();
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucketAndProxy("many-uploads");
    static final int POOL = 8;
    static final Duration ACQUISITION_TIMEOUT = Duration.ofSeconds(2);

    private static S3AsyncClient smallPool(URI endpoint) {
        return services.s3AsyncClientBuilder(endpoint).httpClientBuilder(NettyNioAsyncHttpClient.builder()
                .maxConcurrency(POOL).connectionAcquisitionTimeout(ACQUISITION_TIMEOUT)).build();
    }

    @Test
    void fiveThousandUploadsThroughAPoolOfEightAllArrive() {
        int count = 5_000;
        List<Attachment> batch = IntStream.range(0, count)
                .mapToObj(i -> Attachment.of("note-" + i + ".txt", TestData.bytes(i, 256))).toList();
        UploaderConfig config = UploaderConfig.builder().maxConcurrentUploads(256).maxConcurrentUploadsPerBatch(256)
                .maxAttachmentsPerBatch(count).keyStrategy(KeyStrategy.datedUuid("many")).build();
        long start = System.nanoTime();
        BatchResult result;
        try (S3AsyncClient client = smallPool(services.s3Endpoint());
                S3AsyncFileUploader storage = S3AsyncFileUploader.builder(client, s3.bucket().name())
                        .options(S3UploadOptions.builder().maxConcurrency(POOL).build()).build();
                ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage, config)) {
            result = uploader.uploadAll(batch);
        }
        System.out.printf("ManyUploadsIT: %d uploads, 256 admitted at once, %d connections: %d ms%n", count, POOL,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));

        assertThat(result.notStored()).isEmpty();
        assertThat(s3.bucket().keys("many/")).hasSize(count);
        for (int i = 0; i < count; i += 250) {
            String key = result.results().get(i).key();
            assertThat(s3.bucket().read(key)).hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(
                    TestData.bytes(Integer.parseInt(key.replaceAll(".*note-(\\d+)\\.txt", "$1")), 256)));
        }
    }

    /** With 100 ms per request and 8 connections, 400 requests take 5 s: longer than requests may wait in the pool. */
    @Test
    void withoutPermitsThePoolTimesOutAndWithThemNothingDoes() throws Exception {
        int count = 400;
        s3.proxy().toxiproxy().toxics().latency("latency", ToxicDirection.DOWNSTREAM, 100);
        try (S3AsyncClient client = smallPool(s3.proxy().endpoint());
                S3AsyncFileUploader storage = S3AsyncFileUploader.builder(client, s3.bucket().name())
                        .options(S3UploadOptions.builder().maxConcurrency(POOL).build()).build()) {
            // The SDK alone: every request goes to the pool at once and waits there.
            List<CompletableFuture<?>> direct = IntStream.range(0, count).mapToObj(i -> client.putObject(
                    b -> b.bucket(s3.bucket().name()).key("direct/" + i), AsyncRequestBody.fromBytes(new byte[16])))
                    .<CompletableFuture<?>>map(f -> f).toList();
            long timedOut = direct.stream().filter(f -> {
                try {
                    f.join();
                    return false;
                } catch (CompletionException e) {
                    return String.valueOf(e.getCause()).contains("Acquire operation took longer");
                }
            }).count();
            System.out.printf("ManyUploadsIT: %d PUTs straight to a pool of %d: %d failed with the acquisition"
                    + " timeout%n", count, POOL, timedOut);
            assertThat(timedOut).as("requests that timed out waiting for a connection").isPositive();

            // The same requests through the adapter's permits.
            List<CompletableFuture<?>> limited = IntStream.range(0, count).mapToObj(i -> storage.upload(
                    io.github.boundedupload.spi.UploadRequest.of("limited/" + i, Attachment.of("n.txt",
                            new byte[16])))).<CompletableFuture<?>>map(f -> f).toList();
            CompletableFuture.allOf(limited.toArray(CompletableFuture[]::new)).join();
            assertThat(s3.bucket().keys("limited/")).hasSize(count);
        }
    }
}
