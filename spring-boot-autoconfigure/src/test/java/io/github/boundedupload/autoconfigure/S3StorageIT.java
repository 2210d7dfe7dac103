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
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import software.amazon.awssdk.services.s3.model.ExpirationStatus;
import software.amazon.awssdk.services.s3.model.LifecycleRule;
import io.github.boundedupload.direct.DirectUploads;
import io.github.boundedupload.direct.FileToUpload;
import io.github.boundedupload.direct.UploadGrant;
import io.github.boundedupload.spi.SignedParts;
import io.github.boundedupload.spi.SignedRequest;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The S3 storage against a real S3 (LocalStack, found or started by test-support): what it stores, where it says it
 * stored it, and its health. Both storages, each on the client built from the properties.
 */
@ExtendWith(OutputCaptureExtension.class)
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
        return TestSupport.s3Runner(bucketName, services.s3Endpoint().toString())
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
        TestSupport.s3Runner(bucket.name(), "http://127.0.0.1:9").withBean(AwsConnectionDetails.class,
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

    // ---- direct uploads -----------------------------------------------------------------------------------------

    /**
     * {@code bounded-upload.direct.enabled}: the S3 storage signs the grants, the client's PUT lands in the staging
     * prefix, the confirm copies it under the uploader's key in the caller's transaction; and start-up warns while the
     * bucket lacks the lifecycle rules of the docs, and stops warning once it has them.
     */
    @ParameterizedTest(name = "non-blocking={0}")
    @ValueSource(strings = { "true", "false" })
    void directUploadsAreSignedByTheS3StorageAndConfirmedInTheCallersTransaction(String nonBlocking,
            CapturedOutput output) throws Exception {
        byte[] content = "sent by the browser".getBytes(StandardCharsets.UTF_8);
        try (TestBucket own = services.createBucket("S3StorageIT-direct")) {
            ApplicationContextRunner direct = runner(own.name(), nonBlocking)
                    .withUserConfiguration(JournalAutoConfigurationTests.Database.class)
                    .withPropertyValues("bounded-upload.journal.enabled=true", "bounded-upload.direct.enabled=true");
            direct.run(context -> {
                DirectUploads uploads = context.getBean(DirectUploads.class);
                List<UploadGrant> grants = uploads.grant("alice", List.of(FileToUpload.of("week 3.txt",
                        content.length, "text/plain")));
                SignedRequest put = grants.get(0).signedRequest().orElseThrow();
                HttpRequest.Builder request = HttpRequest.newBuilder(put.url())
                        .PUT(HttpRequest.BodyPublishers.ofByteArray(content));
                put.headers().forEach(request::header);
                assertThat(HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString())
                        .statusCode()).isEqualTo(200);

                TransactionTemplate tx = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
                BatchResult confirmed = tx.execute(status -> uploads.confirm("alice", List.of(grants.get(0).id())));

                assertThat(confirmed.allStored()).isTrue();
                String key = confirmed.storedObjects().get(0).key();
                assertThat(key).doesNotStartWith("staging/");
                assertThat(own.read(key)).contains(content);
            });
            assertThat(output.getOut()).contains("no rule aborts incomplete multipart uploads under 'staging/' of s3://"
                    + own.name()).contains("no rule expires the objects under 'staging/' of s3://" + own.name());

            services.s3Client().putBucketLifecycleConfiguration(b -> b.bucket(own.name()).lifecycleConfiguration(c -> c
                    .rules(LifecycleRule.builder().id("staging").status(ExpirationStatus.ENABLED)
                            .filter(f -> f.prefix("staging/")).expiration(e -> e.days(1))
                            .abortIncompleteMultipartUpload(a -> a.daysAfterInitiation(1)).build())));
            int before = output.getOut().length();
            direct.run(context -> assertThat(context).hasSingleBean(DirectUploads.class));
            assertThat(output.getOut().substring(before)).doesNotContain("s3://" + own.name() + ": add the bucket's");
        }
    }

    /**
     * {@code bounded-upload.direct.parts-above}: a larger file gets a multipart upload on the client in use (blocking
     * or not), a signed PUT per part of {@code part-size}, and the confirm completes it before copying it.
     */
    @ParameterizedTest(name = "non-blocking={0}")
    @ValueSource(strings = { "true", "false" })
    void aFileAbovePartsAboveIsSentInPartsAndCompletedByTheConfirm(String nonBlocking) throws Exception {
        byte[] content = new byte[6 * 1024 * 1024 + 1];
        new java.util.Random(7).nextBytes(content);
        try (TestBucket own = services.createBucket("S3StorageIT-parts")) {
            runner(own.name(), nonBlocking).withUserConfiguration(JournalAutoConfigurationTests.Database.class)
                    .withPropertyValues("bounded-upload.journal.enabled=true", "bounded-upload.direct.enabled=true",
                            "bounded-upload.direct.parts-above=6MB", "bounded-upload.direct.part-size=5MB")
                    .run(context -> {
                        DirectUploads uploads = context.getBean(DirectUploads.class);
                        UploadGrant grant = uploads.grant("alice", List.of(FileToUpload.of("film.mov",
                                content.length, "video/quicktime"))).get(0);
                        SignedParts parts = grant.signedParts().orElseThrow();
                        assertThat(parts.partSize()).isEqualTo(5 * 1024 * 1024);
                        for (int n = 0; n < parts.parts().size(); n++) {
                            SignedRequest put = parts.parts().get(n);
                            int from = (int) (n * parts.partSize());
                            HttpRequest.Builder request = HttpRequest.newBuilder(put.url()).PUT(HttpRequest
                                    .BodyPublishers.ofByteArray(content, from, (int) Math.min(parts.partSize(),
                                            content.length - from)));
                            put.headers().forEach(request::header);
                            assertThat(HttpClient.newHttpClient().send(request.build(),
                                    HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
                        }

                        BatchResult confirmed = uploads.confirm("alice", List.of(grant.id()));

                        assertThat(own.read(confirmed.storedObjects().get(0).key())).contains(content);
                        assertThat(own.incompleteUploads()).isEmpty();
                    });
        }
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

    /**
     * A probe every few seconds in every instance is not a HeadBucket each: the answer is reused for
     * {@code bounded-upload.health.cache-time}; with 0, every probe asks S3.
     */
    @Test
    void healthReusesTheBucketsAnswerForItsCacheTime() {
        String name = "bu-health-cache-" + UUID.randomUUID().toString().substring(0, 8);
        services.s3Client().createBucket(b -> b.bucket(name));
        runner(name, "false").withPropertyValues("bounded-upload.health.cache-time=1h").run(context -> {
            assertThat(TestSupport.health(context.getBean(INDICATOR)).status()).isEqualTo("UP");
            services.s3Client().deleteBucket(b -> b.bucket(name));
            assertThat(TestSupport.health(context.getBean(INDICATOR)).status()).as("the first answer, reused")
                    .isEqualTo("UP");
        });
        runner(name, "false").withPropertyValues("bounded-upload.health.cache-time=0s").run(context -> assertThat(
                TestSupport.health(context.getBean(INDICATOR)).status()).isEqualTo("DOWN"));
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
