package io.github.boundedupload.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.awspring.cloud.autoconfigure.core.AwsConnectionDetails;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.autoconfigure.TestSupport.HealthView;
import io.github.boundedupload.s3.S3UploadOptions;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The S3 storage against a real S3 (LocalStack, found or started by test-support): what it stores, where it says it
 * stored it, and its health. Both storages, each on the client built from the properties.
 */
class S3StorageIT {

    private static final String INDICATOR = BoundedUploadHealthAutoConfiguration.INDICATOR_BEAN_NAME;

    private static S3TestServices services;
    private static TestBucket bucket;

    @TempDir
    Path root;

    @BeforeAll
    static void createBucket() {
        services = S3TestServices.get();
        bucket = services.createBucket("S3StorageIT");
    }

    @AfterAll
    static void deleteBucket() {
        bucket.close();
    }

    private ApplicationContextRunner runner(String bucketName, String nonBlocking) {
        // A health timeout no busy machine reaches, so that UP and DOWN are S3's answers, not the machine's load.
        return TestSupport.s3Runner(root, bucketName, services.s3Endpoint().toString())
                .withPropertyValues("bounded-upload.s3.non-blocking=" + nonBlocking,
                        "bounded-upload.health.timeout=5m");
    }

    @ParameterizedTest(name = "non-blocking={0}")
    @ValueSource(strings = { "true", "false" })
    void storesEveryAttachmentByteForByteAndReportsItsLocation(String nonBlocking) {
        byte[] large = new byte[(int) S3UploadOptions.MIN_PART_SIZE + 4321];
        new Random(7).nextBytes(large);
        Map<String, byte[]> contents = new LinkedHashMap<>();
        contents.put("notes.txt", "week 3".getBytes(StandardCharsets.UTF_8));
        contents.put("scan.bin", large); // above the multipart threshold: three parts
        contents.put("empty.txt", new byte[0]);
        List<Attachment> attachments = contents.entrySet().stream()
                .map(entry -> Attachment.of(entry.getKey(), entry.getValue())).toList();
        runner(bucket.name(), nonBlocking).withPropertyValues("bounded-upload.key-prefix=" + nonBlocking,
                "bounded-upload.s3.multipart-threshold=5MB", "bounded-upload.s3.part-size=5MB").run(context -> {
                    BatchResult result = context.getBean(ConcurrentAttachmentUploader.class).uploadAll(attachments);
                    assertThat(result.allStored()).isTrue();
                    List<String> names = List.copyOf(contents.keySet());
                    for (int i = 0; i < names.size(); i++) {
                        StoredObject stored = result.storedObjects().get(i);
                        byte[] expected = contents.get(names.get(i));
                        assertThat(stored.key()).startsWith(nonBlocking + "/").endsWith("-" + names.get(i));
                        assertThat(bucket.read(stored.key())).as(stored.key())
                                .hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(expected));
                        assertThat(stored.location()).as("path-style object URL").contains(URI.create(
                                services.s3Endpoint() + "/" + bucket.name() + "/" + stored.key()));
                    }
                });
    }

    /** A service connection (here made by hand; Testcontainers' LocalStack makes one) is where the storage goes. */
    @Test
    void aServiceConnectionIsUsedOverTheProperties() {
        var credentials = services.credentials().resolveCredentials();
        AwsConnectionDetails details = new AwsConnectionDetails() {
            @Override
            public URI getEndpoint() {
                return services.s3Endpoint();
            }

            @Override
            public String getRegion() {
                return TestSupport.REGION;
            }

            @Override
            public String getAccessKey() {
                return credentials.accessKeyId();
            }

            @Override
            public String getSecretKey() {
                return credentials.secretAccessKey();
            }
        };
        TestSupport.s3Runner(root, bucket.name(), "http://127.0.0.1:9").withBean(AwsConnectionDetails.class,
                () -> details).withPropertyValues("bounded-upload.key-prefix=connection-details").run(context -> {
                    BatchResult result = TestSupport.uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
                    assertThat(result.allStored()).isTrue();
                    assertThat(bucket.read(result.storedObjects().get(0).key()))
                            .hasValueSatisfying(bytes -> assertThat(bytes).asString().isEqualTo("hello"));
                });
    }

    @Test
    void aPresignedLocationCanBeReadByAnyoneWhileItLasts() {
        byte[] content = "for anyone holding the URL".getBytes(StandardCharsets.UTF_8);
        runner(bucket.name(), "true").withPropertyValues("bounded-upload.s3.location=presigned").run(context -> {
            StoredObject stored = context.getBean(ConcurrentAttachmentUploader.class)
                    .uploadAll(List.of(Attachment.of("shared.txt", content))).storedObjects().get(0);
            URI url = stored.location().orElseThrow();
            assertThat(url.getQuery()).contains("X-Amz-Signature=").contains("X-Amz-Expires=900");
            HttpResponse<byte[]> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(url).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo(content);
        });
    }

    // ---- health -------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "non-blocking={0}")
    @ValueSource(strings = { "true", "false" })
    void healthIsUpWhenTheBucketCanBeReached(String nonBlocking) {
        runner(bucket.name(), nonBlocking).run(context -> {
            HealthView health = TestSupport.health(context.getBean(INDICATOR));
            assertThat(health.status()).isEqualTo("UP");
            assertThat(health.details()).containsEntry("storage", "s3://" + bucket.name())
                    .containsEntry("closed", false).containsEntry("saturated", false)
                    .containsKeys("activeUploads", "maxConcurrentUploads", "queuedUploads", "maxQueuedUploads")
                    .doesNotContainKeys("error", "warning");
        });
    }

    @ParameterizedTest(name = "non-blocking={0}")
    @ValueSource(strings = { "true", "false" })
    void healthIsDownWhenTheBucketDoesNotExist(String nonBlocking) {
        String missing = "bu-missing-" + UUID.randomUUID();
        runner(missing, nonBlocking).run(context -> {
            HealthView health = TestSupport.health(context.getBean(INDICATOR));
            assertThat(health.status()).isEqualTo("DOWN");
            assertThat(health.details()).containsEntry("storage", "s3://" + missing).containsEntry("closed", false)
                    .containsEntry("error", "the bucket does not exist (HeadBucket: 404 NoSuchBucket)");
            assertThat(health.details().toString()).as("no credentials").doesNotContain("test");
        });
    }
}
