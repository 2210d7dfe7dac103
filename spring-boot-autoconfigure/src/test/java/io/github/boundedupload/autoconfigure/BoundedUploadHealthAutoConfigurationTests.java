package io.github.boundedupload.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.autoconfigure.TestSupport.HealthView;
import io.github.boundedupload.local.LocalFileUploader;
import java.io.IOException;
import java.nio.file.Files;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.ClassUtils;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

class BoundedUploadHealthAutoConfigurationTests {

    private static final String INDICATOR = BoundedUploadHealthAutoConfiguration.INDICATOR_BEAN_NAME;

    @TempDir
    Path root;

    private ApplicationContextRunner runner() {
        return TestSupport.runner(root);
    }

    @Test
    void upWithLoadAndLimitsAsDetails() {
        runner().run(context -> {
            Object indicator = context.getBean(INDICATOR);
            assertThat(indicator).isInstanceOf(ClassUtils.resolveClassName(TestSupport.healthIndicatorType(), null));
            HealthView health = TestSupport.health(indicator);
            assertThat(health.status()).isEqualTo("UP");
            assertThat(health.details()).containsEntry("name", "default").containsEntry("closed", false)
                    .containsEntry("activeUploads", 0)
                    .containsEntry("maxConcurrentUploads", UploaderConfig.DEFAULT_MAX_CONCURRENT_UPLOADS)
                    .containsEntry("queuedUploads", 0)
                    .containsEntry("maxQueuedUploads", UploaderConfig.DEFAULT_MAX_QUEUED_UPLOADS)
                    .containsEntry("activeBytes", 0L)
                    .containsEntry("maxBytesInFlight", UploaderConfig.DEFAULT_MAX_BYTES_IN_FLIGHT)
                    .containsEntry("activeBatches", 0).containsEntry("saturated", false)
                    .containsEntry("pendingRollbacks", 0).containsEntry("stuckUploads", 0)
                    .containsEntry("storage", root.toRealPath().toString()).containsEntry("storageType", "local")
                    .doesNotContainKey("error");
            try (var files = Files.list(root)) {
                assertThat(files).as("the write probe leaves nothing behind").isEmpty();
            }
        });
    }

    @Test
    void actuatorShowsItAsBoundedUpload() {
        runner().withConfiguration(TestSupport.springBootHealth())
                .withPropertyValues("management.endpoints.web.exposure.include=health")
                .run(context -> assertThat(TestSupport.registeredContributor(context, "boundedUpload"))
                        .isSameAs(context.getBean(INDICATOR)));
    }

    @Test
    void downWhenTheUploaderIsClosed() {
        runner().run(context -> {
            context.getBean(ConcurrentAttachmentUploader.class).close();
            HealthView health = TestSupport.health(context.getBean(INDICATOR));
            assertThat(health.status()).isEqualTo("DOWN");
            assertThat(health.details()).containsEntry("closed", true);
        });
    }

    @Test
    void downWhenTheStorageDirectoryCannotBeWritten() {
        runner().run(context -> {
            Path real = root.toRealPath();
            Files.delete(real);
            Files.writeString(real, "a file where the directory was");
            HealthView health = TestSupport.health(context.getBean(INDICATOR));
            assertThat(health.status()).isEqualTo("DOWN");
            assertThat(health.details()).containsEntry("closed", false).containsKey("error");
            assertThat((String) health.details().get("error")).startsWith("cannot write to the storage directory");
        });
    }

    @Test
    void noStorageCheckForAStorageThatIsNotLocal() {
        runner().withBean(TestSupport.RecordingStorage.class, () -> new TestSupport.RecordingStorage(root))
                .run(context -> {
                    HealthView health = TestSupport.health(context.getBean(INDICATOR));
                    assertThat(health.status()).isEqualTo("UP");
                    assertThat(health.details()).containsEntry("storageType", "application")
                            .containsEntry("storage", TestSupport.RecordingStorage.class.getName())
                            .doesNotContainKey("error");
                });
    }

    @Test
    void oneIndicatorPerUploaderWhenThereAreSeveral() throws IOException {
        LocalFileUploader storage = new LocalFileUploader(root);
        runner().withBean("images", ConcurrentAttachmentUploader.class,
                () -> ConcurrentAttachmentUploader.create(storage,
                        UploaderConfig.builder().name("images").build()))
                .withBean("reports", ConcurrentAttachmentUploader.class,
                        () -> ConcurrentAttachmentUploader.create(storage,
                        UploaderConfig.builder().name("reports").build()))
                .withConfiguration(TestSupport.springBootHealth())
                .run(context -> {
                    assertThat(context).getBeans(ConcurrentAttachmentUploader.class).hasSize(2);
                    Object composite = context.getBean(INDICATOR);
                    assertThat(TestSupport.registeredContributor(context, "boundedUpload")).isSameAs(composite);
                    context.getBean("reports", ConcurrentAttachmentUploader.class).close();
                    HealthView images = TestSupport.health(TestSupport.child(composite, "images"));
                    HealthView reports = TestSupport.health(TestSupport.child(composite, "reports"));
                    assertThat(images.status()).isEqualTo("UP");
                    assertThat(images.details()).containsEntry("name", "images").doesNotContainKey("storage");
                    assertThat(reports.status()).isEqualTo("DOWN");
                    assertThat(reports.details()).containsEntry("name", "reports").containsEntry("closed", true);
                });
    }

    @Test
    void turnedOffBySpringBootsOwnSwitches() {
        runner().withPropertyValues("management.health.bounded-upload.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(INDICATOR)
                        .hasSingleBean(ConcurrentAttachmentUploader.class));
        runner().withPropertyValues("management.health.boundedUpload.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(INDICATOR));
        runner().withPropertyValues("management.health.defaults.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(INDICATOR));
        runner().withPropertyValues("management.health.defaults.enabled=false",
                "management.health.bounded-upload.enabled=true")
                .run(context -> assertThat(context).hasBean(INDICATOR));
    }

    @Test
    void noIndicatorWithoutActuator() {
        runner().withClassLoader(new FilteredClassLoader(TestSupport.HEALTH_PACKAGES))
                .run(context -> assertThat(context).doesNotHaveBean(INDICATOR)
                        .hasSingleBean(ConcurrentAttachmentUploader.class));
    }

    @Test
    void anApplicationIndicatorOfTheSameNameReplacesOurs() {
        Object own = new Object();
        runner().withBean(INDICATOR, Object.class, () -> own)
                .run(context -> assertThat(context.getBean(INDICATOR)).isSameAs(own));
    }

    // ---- S3 (against a real S3: S3StorageIT) --------------------------------------------------------------------

    @Test
    void downWhenS3CannotBeReached() {
        TestSupport.s3Runner("attachments", "http://127.0.0.1:1").run(context -> {
            HealthView health = TestSupport.health(context.getBean(INDICATOR));
            assertThat(health.status()).isEqualTo("DOWN");
            assertThat(health.details()).containsEntry("storage", "s3://attachments").containsEntry("storageType", "s3")
                    .containsEntry("closed", false).containsEntry("saturated", false);
            // Refused, or timed out on a busy machine: either way, unreachable.
            assertThat((String) health.details().get("error")).startsWith("S3 cannot be reached: ");
        });
    }

    @Test
    void upWithAWarningWhenHeadBucketIsForbidden() {
        List<SdkRequest> requests = withS3Answering(403, "AccessDenied", health -> {
            assertThat(health.status()).isEqualTo("UP");
            assertThat(health.details()).containsEntry("storage", "s3://attachments").doesNotContainKey("error");
            assertThat((String) health.details().get("warning")).startsWith("HeadBucket is forbidden (403)");
        });
        assertThat(requests).singleElement().isInstanceOfSatisfying(HeadBucketRequest.class, head -> {
            assertThat(head.bucket()).isEqualTo("attachments");
            assertThat(head.overrideConfiguration().flatMap(o -> o.apiCallTimeout()))
                    .as("bounded-upload.health.timeout").contains(Duration.ofSeconds(7));
        });
    }

    @Test
    void downWhenS3Fails() {
        withS3Answering(503, "SlowDown", health -> {
            assertThat(health.status()).isEqualTo("DOWN");
            assertThat(health.details()).containsEntry("error", "HeadBucket failed: 503 SlowDown");
        });
    }

    /**
     * An application client whose every request gets the given answer from "S3"; the health check has a timeout of
     * 7 s.
     *
     * @return the requests the client was asked to send
     */
    private List<SdkRequest> withS3Answering(int status, String errorCode, Consumer<HealthView> assertions) {
        List<SdkRequest> requests = new CopyOnWriteArrayList<>();
        S3Client client = S3Client.builder().region(Region.US_EAST_1).endpointOverride(URI.create("http://127.0.0.1:1"))
                .credentialsProvider(AnonymousCredentialsProvider.create())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())
                        .addExecutionInterceptor(new ExecutionInterceptor() {
                            @Override
                            public void beforeExecution(Context.BeforeExecution execution,
                                    ExecutionAttributes attributes) {
                                requests.add(execution.request());
                                throw S3Exception.builder().statusCode(status).message(errorCode)
                                        .awsErrorDetails(AwsErrorDetails.builder().errorCode(errorCode).build())
                                        .build();
                            }
                        }))
                .build();
        try {
            TestSupport.bucketRunner("attachments").withBean(S3Client.class, () -> client)
                    .withPropertyValues("bounded-upload.health.timeout=7s")
                    .run(context -> assertions.accept(TestSupport.health(context.getBean(INDICATOR))));
        } finally {
            client.close();
        }
        return requests;
    }
}
