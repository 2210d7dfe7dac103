package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.awscore.AwsServiceClientConfiguration;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.utils.ScheduledExecutorUtils;

/**
 * Every request the storages send has an API call timeout (the upload's time left, 5 minutes here), which the SDK
 * schedules on the client's scheduled executor and cancels when the call ends. The SDK's own executor keeps each
 * cancelled one queued until it would have fired; {@link S3CallTimeouts#scheduler()}, which a client the storage
 * builds gets, keeps none.
 */
class CallTimeoutsIT {

    static final S3TestServices services = S3TestServices.get();
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucket("call-timeouts");
    static final int COUNT = 300;

    @Test
    void aClientTheNonBlockingStorageBuildsKeepsNoCancelledTimeoutAndItsSchedulerStopsWithIt() {
        ScheduledThreadPoolExecutor timeouts;
        try (S3AsyncFileUploader storage = S3AsyncFileUploader.builder(
                services.s3AsyncClientBuilder(services.s3Endpoint()), s3.bucket().name()).build()) {
            timeouts = scheduler(storage.client().serviceClientConfiguration());
            assertThat(timeouts.getRemoveOnCancelPolicy()).isTrue();
            uploadAll(storage, "built/");
            // The SDK cancels a call's timeout as its future completes, possibly just after the batch saw it.
            await().untilAsserted(() -> assertThat(timeouts.getQueue()).as("cancelled timeouts queued").isEmpty());
        }
        assertThat(timeouts.isShutdown()).as("shut down with the storage that built the client").isTrue();
    }

    @Test
    void theSdksDefaultSchedulerKeepsEveryCancelledTimeoutAndTheStoragesOwnNone() throws Exception {
        try (S3AsyncClient client = services.s3AsyncClientBuilder(services.s3Endpoint()).build();
                S3AsyncFileUploader storage = S3AsyncFileUploader.builder(client, s3.bucket().name()).build()) {
            ScheduledThreadPoolExecutor sdks = scheduler(client.serviceClientConfiguration());
            uploadAll(storage, "default/");
            assertThat(sdks.getQueue()).as("the SDK's default keeps one per request until it would fire")
                    .hasSizeGreaterThanOrEqualTo(COUNT);
        }
        ScheduledExecutorService own = S3CallTimeouts.scheduler();
        try (S3Client client = services.s3ClientBuilder(services.s3Endpoint())
                .overrideConfiguration(o -> o.scheduledExecutorService(own)).build()) {
            uploadAll(S3FileUploader.builder(client, s3.bucket().name()).build(), "blocking/");
            assertThat(((ScheduledThreadPoolExecutor) own).getQueue()).as("cancelled timeouts queued").isEmpty();
            assertThat(own.isShutdown()).as("the SDK does not shut down a scheduler it was given").isFalse();
        } finally {
            own.shutdown();
        }
    }

    @Test
    void aSchedulerOfTheClientBuildersOwnIsKeptAndNotShutDown() {
        ScheduledExecutorService own = S3CallTimeouts.scheduler();
        try {
            try (S3AsyncFileUploader storage = S3AsyncFileUploader.builder(services
                    .s3AsyncClientBuilder(services.s3Endpoint())
                    .overrideConfiguration(o -> o.scheduledExecutorService(own)), s3.bucket().name()).build()) {
                assertThat(scheduler(storage.client().serviceClientConfiguration())).isSameAs(own);
            }
            assertThat(own.isShutdown()).isFalse();
        } finally {
            own.shutdown();
        }
    }

    /** The client's scheduler itself (the SDK wraps one it was given, so that closing the client leaves it alone). */
    private static ScheduledThreadPoolExecutor scheduler(AwsServiceClientConfiguration configuration) {
        return (ScheduledThreadPoolExecutor) ScheduledExecutorUtils.unwrapUnmanagedScheduledExecutor(
                configuration.overrideConfiguration().scheduledExecutorService().orElseThrow());
    }

    private static void uploadAll(AsyncFileUploader storage, String prefix) {
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage, config(prefix))) {
            assertStored(uploader.uploadAll(batch()), prefix);
        }
    }

    private static void uploadAll(FileUploader storage, String prefix) {
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage, config(prefix))) {
            assertStored(uploader.uploadAll(batch()), prefix);
        }
    }

    private static UploaderConfig config(String prefix) {
        return UploaderConfig.builder().maxConcurrentUploads(16).maxAttachmentsPerBatch(COUNT)
                .keyStrategy(KeyStrategy.datedUuid(prefix.substring(0, prefix.length() - 1))).build();
    }

    private static List<Attachment> batch() {
        return IntStream.range(0, COUNT).mapToObj(i -> Attachment.of("n-" + i + ".txt", TestData.bytes(i, 64)))
                .toList();
    }

    private static void assertStored(BatchResult result, String prefix) {
        assertThat(result.notStored()).isEmpty();
        assertThat(s3.bucket().keys(prefix)).hasSize(COUNT);
    }
}
