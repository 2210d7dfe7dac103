package io.github.boundedupload.autoconfigure;

import static io.github.boundedupload.autoconfigure.BoundedUploadAutoConfigurationTests.findCause;
import static io.github.boundedupload.autoconfigure.TestSupport.uploadOne;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.boundedupload.BatchFailedException;
import io.awspring.cloud.autoconfigure.core.AwsConnectionDetails;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.autoconfigure.TestSupport.RecordingStorage;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.s3.S3AsyncFileUploader;
import io.github.boundedupload.s3.S3CallTimeouts;
import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.s3.S3UploadOptions;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.UploadRequest;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.AwsServiceClientConfiguration;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.AwsRegionProvider;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.retries.AdaptiveRetryStrategy;
import software.amazon.awssdk.retries.StandardRetryStrategy;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.StorageClass;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.utils.ScheduledExecutorUtils;

/**
 * Which S3 storage is configured, on which client, with which options: everything that needs no S3 service. (What
 * needs one is in {@link S3StorageIT}.)
 */
class S3StorageAutoConfigurationTests {

    /** Nothing listens there: what reaches it fails at once. */
    private static final String NOWHERE = "http://127.0.0.1:1";
    private static final String BUCKET = "attachments";

    @TempDir
    Path root;

    /** For the tests of options: an application client, because closing a built Netty client takes seconds. */
    private static S3AsyncClient sharedClient;

    @BeforeAll
    static void createSharedClient() {
        sharedClient = new Recording().asyncClient();
    }

    @AfterAll
    static void closeSharedClient() {
        sharedClient.close();
    }

    private ApplicationContextRunner runner() {
        return TestSupport.s3Runner(BUCKET, NOWHERE);
    }

    /** For an application's own client: the bucket, and none of the properties that only a client built here takes. */
    private static ApplicationContextRunner clientRunner() {
        return TestSupport.bucketRunner(BUCKET);
    }

    private ApplicationContextRunner optionsRunner() {
        return clientRunner().withBean(S3AsyncClient.class, () -> sharedClient);
    }

    // ---- which storage --------------------------------------------------------------------------------------------

    @Test
    void aBucketGivesTheNonBlockingS3StorageOnAClientBuiltFromTheProperties() {
        runner().run(context -> {
            assertThat(context).hasSingleBean(S3AsyncFileUploader.class).doesNotHaveBean(S3FileUploader.class)
                    .doesNotHaveBean(LocalFileUploader.class).hasSingleBean(ConcurrentAttachmentUploader.class);
            assertThat(context.getBean(S3AsyncFileUploader.class).bucket()).isEqualTo(BUCKET);
            S3Connection connection = context.getBean(S3Connection.class);
            assertThat(connection.clientBuilt()).isTrue();
            S3AsyncClient client = (S3AsyncClient) connection.client();
            assertThat(client.serviceClientConfiguration().region()).isEqualTo(Region.US_EAST_1);
            assertThat(client.serviceClientConfiguration().endpointOverride()).contains(URI.create(NOWHERE));
            assertThat(client.utilities().getUrl(b -> b.bucket(BUCKET).key("k")).toString())
                    .as("path-style access").isEqualTo(NOWHERE + "/" + BUCKET + "/k");
            // The uploader stores through it: S3 cannot be reached, and the adapter says so.
            assertThatThrownBy(() -> uploadOne(context.getBean(ConcurrentAttachmentUploader.class)))
                    .isInstanceOf(BatchFailedException.class).hasStackTraceContaining("S3UploadException");
        });
    }

    @Test
    void nonBlockingFalseGivesTheBlockingStorageOnAClientBuiltFromTheProperties() {
        runner().withPropertyValues("bounded-upload.s3.non-blocking=false", "bounded-upload.s3.region=eu-west-1",
                "bounded-upload.s3.path-style-access=false", "bounded-upload.s3.endpoint=http://localhost:1")
                .run(context -> {
                    assertThat(context).hasSingleBean(S3FileUploader.class)
                            .doesNotHaveBean(S3AsyncFileUploader.class).doesNotHaveBean(LocalFileUploader.class);
                    S3Client client = (S3Client) context.getBean(S3Connection.class).client();
                    assertThat(client.serviceClientConfiguration().region()).isEqualTo(Region.EU_WEST_1);
                    assertThat(client.utilities().getUrl(b -> b.bucket(BUCKET).key("k")).toString())
                            .as("virtual-host access").isEqualTo("http://" + BUCKET + ".localhost:1/k");
                });
    }

    /**
     * What each client says when it is used after it was closed (rather than "connection refused"). A presigner built
     * here is closed the same way, but a closed presigner still presigns: there is nothing to observe. The
     * non-blocking client's request fails on its closed event loops, or, when the SDK's retry of that failure comes
     * first, on its closed timeout scheduler.
     */
    @Test
    void theClientsBuiltHereAreClosedWithTheContext() {
        Map<String, List<String>> closed = Map.of("false", List.of("Connection pool shut down"),
                "true", List.of("event executor terminated", "rejected from java.util.concurrent"
                        + ".ScheduledThreadPoolExecutor"));
        closed.forEach((nonBlocking, messages) -> {
            AtomicReference<Object> client = new AtomicReference<>();
            runner().withPropertyValues("bounded-upload.s3.non-blocking=" + nonBlocking)
                    .run(context -> client.set(context.getBean(S3Connection.class).client()));
            assertThat(client.get()).isNotNull();
            assertThatThrownBy(() -> headBucket(client.get())).as("non-blocking=%s", nonBlocking)
                    .satisfies(failure -> assertThat(messages).as("non-blocking=%s", nonBlocking)
                            .anySatisfy(message -> assertThat(failure).hasStackTraceContaining(message)));
        });
    }

    /**
     * Every request has an API call timeout, which the SDK schedules and cancels; a client built here (blocking, or
     * non-blocking by the adapter) schedules them on an {@link S3CallTimeouts#scheduler()}, which keeps none once
     * cancelled (the SDK's own keeps each until it would have fired), and which stops with the context.
     */
    @Test
    void theClientsBuiltHereKeepNoCancelledTimeoutAndTheirSchedulerStopsWithTheContext() {
        for (String nonBlocking : List.of("false", "true")) {
            AtomicReference<ScheduledThreadPoolExecutor> timeouts = new AtomicReference<>();
            runner().withPropertyValues("bounded-upload.s3.non-blocking=" + nonBlocking).run(context -> {
                ScheduledThreadPoolExecutor scheduler = scheduler(context.getBean(S3Connection.class).client());
                timeouts.set(scheduler);
                assertThat(scheduler.getRemoveOnCancelPolicy()).as("non-blocking=%s", nonBlocking).isTrue();
                // S3 cannot be reached: the request fails at once, and its timeout is cancelled.
                assertThatThrownBy(() -> uploadOne(context.getBean(ConcurrentAttachmentUploader.class)))
                        .isInstanceOf(BatchFailedException.class);
                await().untilAsserted(() -> assertThat(scheduler.getQueue()).as("non-blocking=%s", nonBlocking)
                        .isEmpty());
                assertThat(scheduler.isShutdown()).isFalse();
            });
            assertThat(timeouts.get().isShutdown()).as("non-blocking=%s", nonBlocking).isTrue();
        }
    }

    @Test
    void aSchedulerACustomizerGivesTheClientIsKeptAndNotShutDown() {
        ScheduledExecutorService own = S3CallTimeouts.scheduler();
        try {
            for (String nonBlocking : List.of("false", "true")) {
                runner().withPropertyValues("bounded-upload.s3.non-blocking=" + nonBlocking)
                        .withBean(BoundedUploadS3ClientCustomizer.class, () -> builder -> builder
                                .overrideConfiguration(o -> o.scheduledExecutorService(own)))
                        .run(context -> assertThat(scheduler(context.getBean(S3Connection.class).client()))
                                .as("non-blocking=%s", nonBlocking).isSameAs(own));
                assertThat(own.isShutdown()).as("non-blocking=%s", nonBlocking).isFalse();
            }
        } finally {
            own.shutdown();
        }
    }

    /** The client's scheduler itself (the SDK wraps one it was given, so that closing the client leaves it alone). */
    private static ScheduledThreadPoolExecutor scheduler(@Nullable Object client) {
        AwsServiceClientConfiguration configuration = client instanceof S3Client blocking
                ? blocking.serviceClientConfiguration()
                : ((S3AsyncClient) Objects.requireNonNull(client)).serviceClientConfiguration();
        return (ScheduledThreadPoolExecutor) ScheduledExecutorUtils.unwrapUnmanagedScheduledExecutor(
                configuration.overrideConfiguration().scheduledExecutorService().orElseThrow());
    }

    /** Without a region anywhere, the SDK cannot build a client, and the failure says what to set. */
    @Test
    void aClientThatCannotBeBuiltIsExplained() {
        assumeTrue(System.getenv("AWS_REGION") == null && System.getenv("AWS_DEFAULT_REGION") == null,
                "the environment gives the SDK a region");
        new ApplicationContextRunner().withConfiguration(TestSupport.boundedUpload())
                .withPropertyValues("bounded-upload.s3.bucket=b", "bounded-upload.s3.non-blocking=false")
                .withSystemProperties("aws.configFile=" + root.resolve("no-config"), "aws.disableEc2Metadata=true")
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new BoundedUploadFailureAnalyzer()
                            .analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription())
                            .startsWith("The S3 client for bounded-upload cannot be built: Unable to load region");
                    assertThat(analysis.getAction()).contains("Set bounded-upload.s3.region");
                });
    }

    @Test
    void anApplicationS3ClientIsUsedAndNotClosed() {
        Recording recording = new Recording();
        S3Client own = recording.client();
        try {
            clientRunner().withBean(S3Client.class, () -> own).run(context -> {
                assertThat(context).hasSingleBean(S3FileUploader.class).doesNotHaveBean(S3AsyncFileUploader.class)
                        .hasSingleBean(S3Client.class);
                assertThat(context.getBean(S3Connection.class).client()).isSameAs(own);
                assertThat(context.getBean(S3Connection.class).clientBuilt()).isFalse();
                assertStoresThrough(context.getBean(ConcurrentAttachmentUploader.class), recording);
            });
            recording.requests.clear();
            assertThatThrownBy(() -> own.headBucket(b -> b.bucket(BUCKET))).isInstanceOf(Recorded.class);
            assertThat(recording.requests).as("still open after the context closed").hasSize(1);
        } finally {
            own.close();
        }
    }

    @Test
    void anApplicationS3AsyncClientIsPreferredToAnS3ClientAndToTheProperty() {
        Recording async = new Recording();
        Recording sync = new Recording();
        S3AsyncClient ownAsync = async.asyncClient();
        S3Client ownSync = sync.client();
        try {
            clientRunner().withPropertyValues("bounded-upload.s3.non-blocking=false")
                    .withBean(S3AsyncClient.class, () -> ownAsync).withBean(S3Client.class, () -> ownSync)
                    .run(context -> {
                        assertThat(context).hasSingleBean(S3AsyncFileUploader.class)
                                .doesNotHaveBean(S3FileUploader.class);
                        assertThat(context.getBean(S3Connection.class).client()).isSameAs(ownAsync);
                        assertStoresThrough(context.getBean(ConcurrentAttachmentUploader.class), async);
                        assertThat(sync.requests).isEmpty();
                    });
        } finally {
            ownAsync.close();
            ownSync.close();
        }
    }

    /**
     * Spring closes what depends on a bean before the bean: the uploader, then the storage (which waits for the
     * clean-up of cancelled uploads when it closes), then the application's client.
     */
    @Test
    void anApplicationClientIsClosedOnlyAfterTheStorageAndTheUploader() {
        Recording recording = new Recording();
        S3AsyncClient ownAsync = recording.asyncClient();
        S3Client ownSync = recording.client();
        try {
            clientRunner().withBean("ownAsync", S3AsyncClient.class, () -> ownAsync).run(context -> assertThat(
                    context.getBeanFactory().getDependentBeans("ownAsync")).contains("boundedUploadS3Connection"));
            clientRunner().withBean("ownSync", S3Client.class, () -> ownSync).run(context -> assertThat(
                    context.getBeanFactory().getDependentBeans("ownSync")).contains("boundedUploadS3Connection"));
            clientRunner().withBean("ownSync", S3Client.class, () -> ownSync).run(context -> {
                assertThat(context.getBeanFactory().getDependentBeans("boundedUploadS3Connection"))
                        .contains("boundedUploadS3Storage");
                assertThat(context.getBeanFactory().getDependentBeans("boundedUploadS3Storage"))
                        .contains("boundedUploader");
            });
        } finally {
            ownAsync.close();
            ownSync.close();
        }
    }

    /**
     * The endpoint, region and path-style access are a client's settings: beside the application's own client they
     * cannot take effect, and start-up fails saying so, as for a misspelt key.
     */
    @Test
    void clientSettingsBesideAnApplicationClientFailStartUpInOneLine() {
        Recording recording = new Recording();
        S3AsyncClient own = recording.asyncClient();
        try {
            runner().withBean(S3AsyncClient.class, () -> own).run(context -> {
                assertThat(context).hasFailed();
                FailureAnalysis analysis = new BoundedUploadFailureAnalyzer().analyze(context.getStartupFailure());
                assertThat(analysis.getDescription()).isEqualTo("bounded-upload.s3.endpoint, bounded-upload.s3.region,"
                        + " bounded-upload.s3.path-style-access cannot take effect: the S3 storage uses the"
                        + " application's S3AsyncClient bean as it is.");
                assertThat(analysis.getAction()).contains("spring.cloud.aws.s3.*")
                        .contains("remove the S3AsyncClient bean");
            });
            clientRunner().withPropertyValues("bounded-upload.s3.region=eu-west-1").withBean(S3AsyncClient.class,
                    () -> own).run(context -> assertThat(new BoundedUploadFailureAnalyzer().analyze(
                            context.getStartupFailure()).getDescription()).startsWith("bounded-upload.s3.region "
                                    + "cannot take effect"));
        } finally {
            own.close();
        }
    }

    @Test
    void twoApplicationClientsWithoutAPrimaryOneFailInsteadOfBuildingAnother() {
        Recording recording = new Recording();
        S3AsyncClient one = recording.asyncClient();
        S3AsyncClient two = recording.asyncClient();
        try {
            clientRunner().withBean("one", S3AsyncClient.class, () -> one).withBean("two", S3AsyncClient.class, () -> two)
                    .run(context -> {
                        assertThat(context).hasFailed();
                        assertThat(TestSupport.messages(context.getStartupFailure()))
                                .contains("expected single matching bean but found 2: one,two");
                    });
        } finally {
            one.close();
            two.close();
        }
    }

    /** The upload reached the application's client (which refuses it at once) with our bucket and key. */
    private static void assertStoresThrough(ConcurrentAttachmentUploader uploader, Recording recording) {
        assertThatThrownBy(() -> uploadOne(uploader)).isInstanceOf(BatchFailedException.class)
                .hasStackTraceContaining(Recorded.class.getName());
        assertThat(recording.requests).first().isInstanceOfSatisfying(PutObjectRequest.class, put -> {
            assertThat(put.bucket()).isEqualTo(BUCKET);
            assertThat(put.key()).endsWith("-hello.txt");
        });
    }

    // ---- the application's own storage or uploader win ------------------------------------------------------------

    @Test
    void anApplicationFileUploaderReplacesTheS3Storage() {
        runner().withBean(RecordingStorage.class, () -> new RecordingStorage(root)).run(context -> {
            assertThat(context).doesNotHaveBean(S3Connection.class).doesNotHaveBean(S3UploadOptions.class)
                    .doesNotHaveBean(S3AsyncFileUploader.class).doesNotHaveBean(LocalFileUploader.class);
            uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
            assertThat(context.getBean(RecordingStorage.class).threads).hasSize(1);
        });
    }

    @Test
    void anApplicationAsyncFileUploaderReplacesTheS3Storage() {
        AsyncFileUploader own = new S3AsyncFileUploaderStandIn();
        runner().withBean(AsyncFileUploader.class, () -> own).run(context -> assertThat(context)
                .doesNotHaveBean(S3Connection.class).doesNotHaveBean(S3AsyncFileUploader.class)
                .doesNotHaveBean(LocalFileUploader.class).hasSingleBean(ConcurrentAttachmentUploader.class));
    }

    @Test
    void anApplicationUploaderNeedsNoS3StorageOfOurs() {
        runner().withBean("ownUploader", ConcurrentAttachmentUploader.class, () -> ConcurrentAttachmentUploader.create(
                new RecordingStorage(root), UploaderConfig.builder().name("own").build()),
                definition -> definition.setDestroyMethodName("close")).run(context -> assertThat(context).doesNotHaveBean(S3Connection.class)
                        .doesNotHaveBean(S3AsyncFileUploader.class).hasSingleBean(ConcurrentAttachmentUploader.class));
    }

    @Test
    void withoutABucketNothingOfS3IsConfigured() {
        TestSupport.runner(root).run(context -> assertThat(context).hasSingleBean(LocalFileUploader.class)
                .doesNotHaveBean(S3Connection.class).doesNotHaveBean(S3UploadOptions.class));
    }

    // ---- without the SDK or the adapter -------------------------------------------------------------------------

    @Test
    void aBucketWithoutTheAwsSdkFailsStartUpAndSaysWhatIsMissing() {
        runner().withClassLoader(new FilteredClassLoader("software.amazon.awssdk")).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new BoundedUploadFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).isEqualTo("bounded-upload.s3.bucket is set to 'attachments', so "
                    + "uploads are to go to S3, but the AWS SDK's S3 client (software.amazon.awssdk:s3) is not on the "
                    + "class path.");
            assertThat(analysis.getAction()).contains("io.github.boundedupload:bounded-upload-s3")
                    .contains("bounded-upload-spring-boot-starter").contains("remove bounded-upload.s3.bucket");
        });
    }

    @Test
    void aBucketWithoutTheAdapterFailsStartUpAndSaysWhatIsMissing() {
        runner().withClassLoader(new FilteredClassLoader("io.github.boundedupload.s3")).run(context -> {
            assertThat(context).hasFailed();
            assertThat(findCause(context.getStartupFailure(), UploaderSetupException.class).getMessage())
                    .contains("the S3 adapter (io.github.boundedupload:bounded-upload-s3) is not on the class path");
        });
    }

    // ---- options --------------------------------------------------------------------------------------------------

    /** The S3 properties carry no SDK or adapter types, so their defaults are checked against the adapter's here. */
    @Test
    void theDefaultsAreTheAdapters() {
        optionsRunner().run(context -> {
            S3UploadOptions options = context.getBean(S3UploadOptions.class);
            assertThat(options.toString()).isEqualTo(S3UploadOptions.defaults().toString());
            assertThat(context.getBean(S3AsyncFileUploader.class).options()).isSameAs(options);
        });
    }

    @Test
    void everyS3PropertyBinds() {
        runner().withPropertyValues("bounded-upload.s3.max-concurrency=12",
                "bounded-upload.s3.multipart-threshold=32MB", "bounded-upload.s3.part-size=6MB",
                "bounded-upload.s3.parts-in-flight=3", "bounded-upload.s3.checksum-algorithm=crc32c",
                "bounded-upload.s3.storage-class=standard-ia",
                "bounded-upload.s3.server-side-encryption=aws:kms", "bounded-upload.s3.kms-key-id=alias/uploads",
                "bounded-upload.s3.content-disposition=inline", "bounded-upload.s3.location=virtual-host",
                "bounded-upload.s3.presigned-url-ttl=5m").run(context -> {
                    S3Properties s3 = context.getBean(BoundedUploadProperties.class).getS3();
                    assertThat(s3.getBucket()).isEqualTo(BUCKET);
                    assertThat(s3.getEndpoint()).isEqualTo(URI.create(NOWHERE));
                    assertThat(s3.getRegion()).isEqualTo(TestSupport.REGION);
                    assertThat(s3.isPathStyleAccess()).isTrue();
                    assertThat(s3.isNonBlocking()).isTrue();
                    assertThat(s3.getPresignedUrlTtl()).isEqualTo(Duration.ofMinutes(5));
                    S3UploadOptions options = context.getBean(S3UploadOptions.class);
                    assertThat(options.maxConcurrency()).isEqualTo(12);
                    assertThat(options.multipartThreshold()).isEqualTo(32L << 20);
                    assertThat(options.partSize()).isEqualTo(6L << 20);
                    assertThat(options.partsInFlight()).isEqualTo(3);
                    assertThat(options.checksumAlgorithm()).isEqualTo(ChecksumAlgorithm.CRC32_C);
                    assertThat(options.storageClass()).contains(StorageClass.STANDARD_IA);
                    assertThat(options.serverSideEncryption()).contains(ServerSideEncryption.AWS_KMS);
                    assertThat(options.kmsKeyId()).contains("alias/uploads");
                    assertThat(options.contentDisposition()).isEqualTo(S3UploadOptions.ContentDisposition.INLINE);
                    assertThat(options.location()).hasToString("virtual_host");
                    assertThat(context.getBean(S3AsyncFileUploader.class).options()).isSameAs(options);
                });
    }

    @Test
    void theRetryModeReachesTheClientBuiltFromTheProperties() {
        runner().withPropertyValues("bounded-upload.s3.retry-mode=adaptive-v2").run(context -> assertThat(
                context.getBean(S3AsyncFileUploader.class).client().serviceClientConfiguration()
                        .overrideConfiguration().retryStrategy()).containsInstanceOf(AdaptiveRetryStrategy.class));
        runner().withPropertyValues("bounded-upload.s3.retry-mode=standard").run(context -> assertThat(
                context.getBean(S3AsyncFileUploader.class).client().serviceClientConfiguration()
                        .overrideConfiguration().retryStrategy()).containsInstanceOf(StandardRetryStrategy.class));
    }

    @Test
    void clientCustomizersChangeTheClientBuiltFromThePropertiesAfterThem() {
        List<String> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
        runner().withPropertyValues("bounded-upload.s3.retry-mode=standard")
                .withBean("second", BoundedUploadS3ClientCustomizer.class, () -> builder -> {
                    calls.add("second");
                    builder.overrideConfiguration(o -> o.retryStrategy(RetryMode.ADAPTIVE_V2));
                })
                .withBean(BoundedUploadS3ClientCustomizer.class, () -> builder -> calls.add("first:" + builder.getClass()
                        .getSimpleName()))
                .run(context -> {
                    assertThat(context.getBean(S3AsyncFileUploader.class).client().serviceClientConfiguration()
                            .overrideConfiguration().retryStrategy()).containsInstanceOf(AdaptiveRetryStrategy.class);
                    assertThat(calls).hasSize(2).contains("second");
                });
        // Not applied to a client of the application's.
        List<String> none = new java.util.concurrent.CopyOnWriteArrayList<>();
        optionsRunner().withBean(BoundedUploadS3ClientCustomizer.class, () -> builder -> none.add("called"))
                .run(context -> assertThat(none).isEmpty());
    }

    @Test
    void everyEnumValueMapsToTheAdapters() {
        for (S3Properties.ChecksumAlgorithm algorithm : S3Properties.ChecksumAlgorithm
                .values()) {
            assertThat(S3Options.checksum(algorithm)).isNotEqualTo(ChecksumAlgorithm.UNKNOWN_TO_SDK_VERSION);
        }
        for (S3Properties.ContentDisposition disposition : S3Properties.ContentDisposition
                .values()) {
            assertThat(S3UploadOptions.ContentDisposition.valueOf(disposition.name())).isNotNull();
        }
        for (S3Properties.ServerSideEncryption encryption : S3Properties
                .ServerSideEncryption.values()) {
            assertThat(ServerSideEncryption.valueOf(encryption.name())).isNotNull();
        }
        assertThat(S3Options.checksum(S3Properties.ChecksumAlgorithm.CRC32C))
                .isEqualTo(ChecksumAlgorithm.CRC32_C);
        // Each adapter-supported checksum builds.
        for (S3Properties.ChecksumAlgorithm algorithm : S3Properties.ChecksumAlgorithm
                .values()) {
            assertThat(S3UploadOptions.builder().checksumAlgorithm(S3Options.checksum(algorithm)).build()
                    .checksumAlgorithm()).isEqualTo(S3Options.checksum(algorithm));
        }
    }

    @Test
    void eachLocationBinds() {
        for (String location : List.of("object-url", "path-style", "virtual-host")) {
            optionsRunner().withPropertyValues("bounded-upload.s3.location=" + location)
                    .run(context -> assertThat(context.getBean(S3UploadOptions.class).location())
                            .hasToString(location.equals("object-url") ? "client"
                                    : location.equals("path-style") ? "path" : "virtual_host"));
        }
    }

    @Test
    void aPresignedLocationGetsAPresignerBuiltLikeTheClient() {
        runner().withPropertyValues("bounded-upload.s3.location=presigned", "bounded-upload.s3.presigned-url-ttl=5m")
                .run(context -> {
                    assertThat(context.getBean(S3UploadOptions.class).location())
                            .hasToString("presigned GET for PT5M");
                    S3Presigner presigner = context.getBean(S3Connection.class).presigner();
                    String url = presigner.presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(5))
                            .getObjectRequest(g -> g.bucket(BUCKET).key("k"))).url().toString();
                    assertThat(url).startsWith(NOWHERE + "/" + BUCKET + "/k?");
                    assertThat(context).doesNotHaveBean(S3Presigner.class);
                });
    }

    /**
     * Without Spring Cloud AWS's own S3 client, what it would apply to one applies to the client built here: its
     * customizer beans (each to the builder it is for), its spring.cloud.aws.s3.* service settings, then ours.
     */
    @Test
    void springCloudAwsCustomizersAndS3SettingsApplyToTheClientBuiltHere() {
        List<String> applied = new CopyOnWriteArrayList<>();
        ApplicationContextRunner withCustomizers = runner()
                .withBean(io.awspring.cloud.autoconfigure.s3.S3ClientCustomizer.class,
                        () -> builder -> applied.add("S3ClientCustomizer"))
                .withBean(io.awspring.cloud.autoconfigure.AwsSyncClientCustomizer.class,
                        () -> builder -> applied.add("AwsSyncClientCustomizer"))
                .withBean(io.awspring.cloud.autoconfigure.AwsAsyncClientCustomizer.class,
                        () -> builder -> applied.add("AwsAsyncClientCustomizer"))
                .withBean(BoundedUploadS3ClientCustomizer.class, () -> builder -> applied.add("ours"))
                .withPropertyValues("spring.cloud.aws.s3.cross-region-enabled=true",
                        "spring.cloud.aws.s3.accelerate-enabled=false",
                        "spring.cloud.aws.s3.checksum-validation-enabled=false",
                        "spring.cloud.aws.s3.chunked-encoding-enabled=true");
        withCustomizers.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(applied).containsExactly("AwsAsyncClientCustomizer", "ours");
            assertThat(context.getBean(S3Connection.class).client().getClass().getSimpleName())
                    .as("cross-region access").contains("CrossRegion");
        });
        applied.clear();
        withCustomizers.withPropertyValues("bounded-upload.s3.non-blocking=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(applied).containsExactly("AwsSyncClientCustomizer", "S3ClientCustomizer", "ours");
            assertThat(context.getBean(S3Connection.class).client().getClass().getSimpleName())
                    .as("cross-region access").contains("CrossRegion");
        });
    }

    @Test
    void springCloudAwsConnectionDetailsWinOverTheProperties() {
        AwsConnectionDetails details = new AwsConnectionDetails() {
            @Override
            public URI getEndpoint() {
                return URI.create("http://127.0.0.1:2");
            }

            @Override
            public String getRegion() {
                return "eu-central-1";
            }

            @Override
            public String getAccessKey() {
                return "DETAILSKEY";
            }

            @Override
            public String getSecretKey() {
                return "details-secret";
            }
        };
        runner().withBean(AwsConnectionDetails.class, () -> details)
                .withPropertyValues("bounded-upload.s3.location=presigned").run(context -> {
                    S3AsyncClient client = (S3AsyncClient) context.getBean(S3Connection.class).client();
                    assertThat(client.serviceClientConfiguration().region()).isEqualTo(Region.EU_CENTRAL_1);
                    assertThat(client.serviceClientConfiguration().endpointOverride())
                            .contains(URI.create("http://127.0.0.1:2"));
                    assertThat(client.serviceClientConfiguration().credentialsProvider().resolveIdentity().join()
                            .accessKeyId()).isEqualTo("DETAILSKEY");
                    String url = context.getBean(S3Connection.class).presigner()
                            .presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(5))
                                    .getObjectRequest(g -> g.bucket(BUCKET).key("k")))
                            .url().toString();
                    assertThat(url).startsWith("http://127.0.0.1:2/" + BUCKET + "/k?")
                            .contains("X-Amz-Credential=DETAILSKEY%2F").contains("%2Feu-central-1%2Fs3%2F");
                });
        // What the details leave out comes from the properties, and the credentials from the SDK.
        runner().withBean(AwsConnectionDetails.class, () -> new AwsConnectionDetails() {
            @Override
            public String getRegion() {
                return "eu-central-1";
            }
        }).run(context -> {
            S3AsyncClient client = (S3AsyncClient) context.getBean(S3Connection.class).client();
            assertThat(client.serviceClientConfiguration().region()).isEqualTo(Region.EU_CENTRAL_1);
            assertThat(client.serviceClientConfiguration().endpointOverride()).contains(URI.create(NOWHERE));
            assertThat(client.serviceClientConfiguration().credentialsProvider().resolveIdentity().join()
                    .accessKeyId()).isNotEqualTo("DETAILSKEY");
        });
    }

    /**
     * A client built here takes what Spring Cloud AWS gives every client of its own: the AwsCredentialsProvider and
     * AwsRegionProvider beans and spring.cloud.aws.endpoint (the real application test, with Spring Cloud AWS's
     * auto-configurations, is the starter's SpringCloudAwsApplicationIT).
     */
    @Test
    void springCloudAwsProvidersAndEndpointReachAClientBuiltHere() {
        AwsCredentialsProvider credentials = StaticCredentialsProvider.create(
                AwsBasicCredentials.create("PROVIDERKEY", "provider-secret"));
        springCloudAwsRunner().withBean(AwsCredentialsProvider.class, () -> credentials)
                .withPropertyValues("spring.cloud.aws.s3.path-style-access-enabled=true",
                        "bounded-upload.s3.location=presigned")
                .run(context -> {
                    S3AsyncClient client = assertBuiltClient(context, Region.AP_SOUTHEAST_2, "http://127.0.0.1:3");
                    assertThat(client.serviceClientConfiguration().credentialsProvider().resolveIdentity().join()
                            .accessKeyId()).isEqualTo("PROVIDERKEY");
                    assertThat(client.utilities().getUrl(b -> b.bucket(BUCKET).key("k")).toString())
                            .as("path-style access").isEqualTo("http://127.0.0.1:3/" + BUCKET + "/k");
                    String url = context.getBean(S3Connection.class).presigner()
                            .presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(5))
                                    .getObjectRequest(g -> g.bucket(BUCKET).key("k")))
                            .url().toString();
                    assertThat(url).startsWith("http://127.0.0.1:3/" + BUCKET + "/k?")
                            .contains("X-Amz-Credential=PROVIDERKEY%2F").contains("%2Fap-southeast-2%2Fs3%2F");
                });
        // The more specific wins: bounded-upload.s3.* over spring.cloud.aws.s3.*, over spring.cloud.aws.endpoint and
        // the region provider.
        springCloudAwsRunner().withPropertyValues("spring.cloud.aws.s3.endpoint=http://127.0.0.1:4",
                "spring.cloud.aws.s3.region=sa-east-1")
                .run(context -> assertBuiltClient(context, Region.SA_EAST_1, "http://127.0.0.1:4"));
        springCloudAwsRunner().withPropertyValues("spring.cloud.aws.s3.endpoint=http://127.0.0.1:4",
                "spring.cloud.aws.s3.region=sa-east-1", "bounded-upload.s3.endpoint=" + NOWHERE,
                "bounded-upload.s3.region=us-east-1")
                .run(context -> assertBuiltClient(context, Region.US_EAST_1, NOWHERE));
    }

    /** A bucket, Spring Cloud AWS's endpoint and a region provider (as its auto-configuration makes one). */
    private static ApplicationContextRunner springCloudAwsRunner() {
        return new ApplicationContextRunner().withConfiguration(TestSupport.boundedUpload())
                .withBean(AwsRegionProvider.class, () -> () -> Region.AP_SOUTHEAST_2)
                .withPropertyValues("bounded-upload.s3.bucket=" + BUCKET, "spring.cloud.aws.endpoint=http://127.0.0.1:3");
    }

    private static S3AsyncClient assertBuiltClient(ApplicationContext context, Region region, String endpoint) {
        S3AsyncClient client = (S3AsyncClient) context.getBean(S3Connection.class).client();
        assertThat(client.serviceClientConfiguration().region()).isEqualTo(region);
        assertThat(client.serviceClientConfiguration().endpointOverride()).contains(URI.create(endpoint));
        return client;
    }

    @Test
    void anApplicationPresignerIsUsed() {
        S3Presigner own = S3Presigner.builder().region(Region.EU_WEST_1)
                .credentialsProvider(AnonymousCredentialsProvider.create()).build();
        try {
            optionsRunner().withPropertyValues("bounded-upload.s3.location=presigned")
                    .withBean(S3Presigner.class, () -> own)
                    .run(context -> assertThat(context.getBean(S3Connection.class).presigner()).isSameAs(own));
        } finally {
            own.close();
        }
    }

    /** Default, then property, then customizer: the later wins. */
    @Test
    void customizerWinsOverPropertyWhichWinsOverDefault() {
        optionsRunner().run(context -> assertThat(context.getBean(S3UploadOptions.class).partsInFlight())
                .isEqualTo(S3UploadOptions.DEFAULT_PARTS_IN_FLIGHT));
        optionsRunner().withPropertyValues("bounded-upload.s3.parts-in-flight=10")
                .run(context -> assertThat(context.getBean(S3UploadOptions.class).partsInFlight()).isEqualTo(10));
        optionsRunner().withPropertyValues("bounded-upload.s3.parts-in-flight=10")
                .withBean(S3UploadOptionsCustomizer.class, () -> builder -> builder.partsInFlight(100))
                .run(context -> assertThat(context.getBean(S3UploadOptions.class).partsInFlight()).isEqualTo(100));
    }

    @Test
    void customizersApplyInOrder() {
        optionsRunner().withUserConfiguration(OrderedCustomizers.class).run(context -> {
            assertThat(context.getBean(OrderedCustomizers.class).applied).containsExactly("first", "second");
            assertThat(context.getBean(S3UploadOptions.class).partsInFlight()).isEqualTo(2);
        });
    }

    @Test
    void aCustomizerThatBreaksTheOptionsIsReported() {
        optionsRunner().withBean(S3UploadOptionsCustomizer.class, () -> builder -> builder.partSize(1024))
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new BoundedUploadFailureAnalyzer()
                            .analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).isEqualTo("The bounded-upload S3 options are invalid after"
                            + " the S3UploadOptionsCustomizer beans were applied: partSize must be from 5242880 to"
                            + " 5368709120, was 1024");
                    assertThat(analysis.getAction()).contains("S3UploadOptionsCustomizer");
                });
    }

    @Test
    void anApplicationS3UploadOptionsBeanReplacesOurs() {
        S3UploadOptions own = S3UploadOptions.builder().partsInFlight(7).build();
        optionsRunner().withPropertyValues("bounded-upload.s3.parts-in-flight=3")
                .withBean(S3UploadOptions.class, () -> own)
                .run(context -> assertThat(context.getBean(S3AsyncFileUploader.class).options()).isSameAs(own));
    }

    @Test
    void maxConcurrencyIsTheAdaptersLimitWithAnApplicationClientToo() {
        Recording recording = new Recording();
        S3Client own = recording.client();
        try {
            clientRunner().withPropertyValues("bounded-upload.s3.max-concurrency=200").withBean(S3Client.class, () -> own)
                    .run(context -> assertThat(context.getBean(S3FileUploader.class).options().maxConcurrency())
                            .isEqualTo(200));
        } finally {
            own.close();
        }
    }

    private static void headBucket(Object client) throws Exception {
        if (client instanceof S3AsyncClient) {
            ((S3AsyncClient) client).headBucket(b -> b.bucket(BUCKET)).get();
        } else {
            ((S3Client) client).headBucket(b -> b.bucket(BUCKET));
        }
    }

    /** Marks a request that a {@link Recording} client refused after recording it. */
    static final class Recorded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Recorded() {
            super("recorded and refused");
        }
    }

    /** Clients that record every request and refuse it before it is sent. */
    static final class Recording {
        final List<SdkRequest> requests = new CopyOnWriteArrayList<>();

        private ExecutionInterceptor interceptor() {
            return new ExecutionInterceptor() {
                @Override
                public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                    requests.add(context.request());
                    throw new Recorded();
                }
            };
        }

        S3Client client() {
            return S3Client.builder().region(Region.US_EAST_1).endpointOverride(URI.create(NOWHERE))
                    .credentialsProvider(AnonymousCredentialsProvider.create())
                    .overrideConfiguration(o -> o.addExecutionInterceptor(interceptor())).build();
        }

        S3AsyncClient asyncClient() {
            return S3AsyncClient.builder().region(Region.US_EAST_1).endpointOverride(URI.create(NOWHERE))
                    .credentialsProvider(AnonymousCredentialsProvider.create())
                    .overrideConfiguration(o -> o.addExecutionInterceptor(interceptor())).build();
        }
    }

    /** An application's non-blocking storage of its own, which stores nothing. */
    static final class S3AsyncFileUploaderStandIn implements AsyncFileUploader {
        @Override
        public CompletableFuture<StoredObject> upload(UploadRequest request) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException("a stand-in"));
        }

        @Override
        public CompletableFuture<Void> delete(String key) {
            return CompletableFuture.completedFuture(null);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OrderedCustomizers {
        final List<String> applied = new CopyOnWriteArrayList<>();

        @Bean
        @Order(2)
        S3UploadOptionsCustomizer second() {
            return builder -> {
                applied.add("second");
                builder.partsInFlight(2);
            };
        }

        @Bean
        @Order(1)
        S3UploadOptionsCustomizer first() {
            return builder -> {
                applied.add("first");
                builder.partsInFlight(1);
            };
        }
    }
}
