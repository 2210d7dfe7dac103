package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploadTimeoutException;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.Adapters.Kind;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/**
 * Network faults in the middle of a batch (Toxiproxy in front of LocalStack): every attachment ends as stored, and
 * is in the bucket byte-identical, or as not stored, and is not in the bucket; under ALL_OR_NOTHING the bucket holds
 * nothing of the batch and no incomplete multipart upload is left.
 */
class FaultIT {

    static final S3TestServices services = S3TestServices.get();
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucketAndProxy("faults");
    static final int SMALL = 40;
    static final int LARGE = 4;
    static final int TRIGGER = 12;
    static final List<Attachment> batch = new ArrayList<>();
    static final Map<String, String> digests = new ConcurrentHashMap<>();

    @BeforeAll
    static void setUp(@TempDir Path dir) {
        for (int i = 0; i < SMALL + LARGE; i++) {
            // Multipart uploads (6 MiB in 5 MiB parts) among the small ones, so that aborts are part of it.
            long size = i % 11 == 5 ? 6L * 1024 * 1024 : 64 * 1024;
            Path file = TestData.file(dir.resolve("fault-" + i + ".bin"), i, size);
            digests.put(file.getFileName().toString(), TestData.sha256(file));
            batch.add(Attachment.of(file));
        }
    }

    enum Fault {
        /** Every connection is reset as soon as data flows. */
        RESET_PEER,
        /** Data from the client is dropped, connections hang. */
        TIMEOUT
    }

    static Stream<Arguments> faults() {
        List<Arguments> all = new ArrayList<>();
        for (Fault fault : Fault.values()) {
            for (FailurePolicy policy : FailurePolicy.values()) {
                for (Kind kind : Kind.values()) {
                    all.add(Arguments.of(fault, policy, kind));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("faults")
    void aFaultMidBatchLeavesTheBucketAsTheResultsSay(Fault fault, FailurePolicy policy, Kind kind) throws Exception {
        String prefix = "fault-" + fault + "-" + policy + "-" + kind;
        Network network = new Network(() -> {
            if (fault == Fault.RESET_PEER) {
                s3.proxy().toxiproxy().toxics().resetPeer("fault", ToxicDirection.UPSTREAM, 0);
            } else {
                s3.proxy().toxiproxy().toxics().timeout("fault", ToxicDirection.UPSTREAM, 0);
            }
        });
        UploaderConfig config = UploaderConfig.builder().name("faults").maxConcurrentUploads(8)
                .maxConcurrentUploadsPerBatch(8).uploadTimeout(Duration.ofSeconds(3)).failurePolicy(policy)
                .keyStrategy(KeyStrategy.datedUuid(prefix)).listener(network).build();
        try (Adapters adapters = new Adapters(s3.proxy().endpoint(), s3.bucket().name(), Adapters.smallParts(),
                b -> b.overrideConfiguration(o -> o.addExecutionInterceptor(network)),
                b -> b.overrideConfiguration(o -> o.addExecutionInterceptor(network)));
                ConcurrentAttachmentUploader uploader = adapters.uploader(kind, config)) {
            if (policy == FailurePolicy.COLLECT) {
                BatchResult result = uploader.uploadAll(batch);
                assertThat(network.broken).isTrue();
                assertThat(result.results()).filteredOn(UploadResult::isStored).hasSizeGreaterThanOrEqualTo(TRIGGER);
                assertThat(result.notStored()).isNotEmpty();
                for (UploadResult upload : result.results()) {
                    assertBucketAgrees(upload);
                }
            } else {
                BatchFailedException failed = catchThrowableOfType(BatchFailedException.class,
                        () -> uploader.uploadAll(batch));
                assertThat(failed.notDeleted()).isEmpty();
                assertThat(network.broken).isTrue();
                // What cancelled non-blocking uploads stored just before the cancel, and what a call given up as stuck
                // stores when it returns at last (the client's socket timeout), is deleted as the batch's background
                // work: the bucket is empty once the batch has settled.
                assertThat(failed.settled().toCompletableFuture().get(2, TimeUnit.MINUTES).results())
                        .extracting(UploadResult::status).doesNotContain(UploadResult.Status.STORED,
                                UploadResult.Status.DELETING, UploadResult.Status.POSSIBLY_STORED);
                await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                        assertThat(s3.bucket().keys(prefix + "/")).isEmpty());
            }
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                    assertThat(incompleteUploads(prefix)).isEmpty());
        }
    }

    private static List<MultipartUpload> incompleteUploads(String prefix) {
        return s3.bucket().incompleteUploads().stream().filter(u -> u.key().startsWith(prefix + "/")).toList();
    }

    private static void assertBucketAgrees(UploadResult upload) {
        if (upload.isStored()) {
            StoredObject stored = upload.storedObject().orElseThrow();
            assertThat(s3.bucket().sha256(stored.key())).as("%s", upload)
                    .contains(digests.get(upload.attachment().fileName()));
        } else {
            assertThat(upload.failure()).as("%s", upload).hasValueSatisfying(failure -> assertThat(failure)
                    .isInstanceOfAny(S3UploadException.class, UploadTimeoutException.class));
            assertThat(s3.bucket().exists(upload.key())).as("%s", upload).isFalse();
        }
    }

    /**
     * LocalStack "stops" (its proxy is disabled) mid-batch: clear failures, and no hang past the timeouts; once it is
     * back and the batch's background work is over, nothing that is not stored is in the bucket.
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void theServiceGoingDownMidBatchFailsWhatIsLeftWithinTheTimeouts(Kind kind) throws Exception {
        String prefix = "down-" + kind;
        Duration uploadTimeout = Duration.ofSeconds(4);
        Duration batchTimeout = Duration.ofSeconds(30);
        AtomicInteger succeeded = new AtomicInteger();
        Map<String, Duration> failedAfter = new ConcurrentHashMap<>();
        UploadListener down = new UploadListener() {
            @Override
            public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
                if (succeeded.incrementAndGet() == TRIGGER) {
                    try {
                        s3.proxy().toxiproxy().disable();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            }

            @Override
            public void uploadFailed(UploadEvent upload, Throwable failure, Duration took) {
                failedAfter.put(upload.key(), took);
            }
        };
        UploaderConfig config = UploaderConfig.builder().name("down").maxConcurrentUploads(8)
                .maxConcurrentUploadsPerBatch(8).uploadTimeout(uploadTimeout).batchTimeout(batchTimeout)
                .failurePolicy(FailurePolicy.COLLECT).keyStrategy(KeyStrategy.datedUuid(prefix)).listener(down)
                .build();
        BatchResult result;
        BatchResult settled;
        try (Adapters adapters = new Adapters(s3.proxy().endpoint(), s3.bucket().name(), Adapters.smallParts());
                ConcurrentAttachmentUploader uploader = adapters.uploader(kind, config)) {
            long start = System.nanoTime();
            result = assertTimeoutPreemptively(batchTimeout, () -> uploader.uploadAll(batch));
            System.out.printf("FaultIT %s, service down: %d stored, %d failed in %d ms; slowest failure %s%n", kind,
                    result.storedObjects().size(), result.notStored().size(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
                    failedAfter.values().stream().max(Duration::compareTo).orElse(Duration.ZERO));
            // The service comes back: what the outage left unknown (stored, or parts that could not be aborted) is
            // deleted in the background, as the results said.
            s3.proxy().heal();
            settled = result.settled().toCompletableFuture().get(2, TimeUnit.MINUTES);
        }

        assertThat(result.storedObjects()).hasSizeGreaterThanOrEqualTo(TRIGGER);
        assertThat(result.notStored()).isNotEmpty();
        assertThat(failedAfter.values()).allSatisfy(took ->
                assertThat(took).isLessThanOrEqualTo(uploadTimeout.plusSeconds(1)));
        for (UploadResult upload : result.notStored()) {
            Throwable failure = upload.failure().orElseThrow();
            assertThat(failure.getMessage()).as("a clear message").contains(upload.attachment().fileName());
        }
        for (UploadResult upload : settled.results()) {
            if (upload.isStored()) {
                assertThat(s3.bucket().sha256(upload.key())).contains(digests.get(upload.attachment().fileName()));
            } else {
                assertThat(upload.status()).as("%s", upload).isNotEqualTo(UploadResult.Status.POSSIBLY_STORED);
                assertThat(s3.bucket().exists(upload.key())).as("%s", upload).isFalse();
            }
        }
        // A multipart upload that could not be aborted while S3 was down is aborted by the delete of its key.
        assertThat(incompleteUploads(prefix)).isEmpty();
    }

    /**
     * Breaks the network after {@link #TRIGGER} uploads succeeded, and heals it at the first failure an upload or a
     * request sees, or when anyone starts to check or clean up, whichever comes first: the model is a fault, then
     * recovery, then the checks. Every thread that gets here waits for the heal.
     */
    static final class Network implements UploadListener, ExecutionInterceptor {
        private final ThrowingRunnable breakIt;
        private final AtomicInteger succeeded = new AtomicInteger();
        private final AtomicBoolean healing = new AtomicBoolean();
        private final CountDownLatch healed = new CountDownLatch(1);
        volatile boolean broken;

        Network(ThrowingRunnable breakIt) {
            this.breakIt = breakIt;
        }

        @Override
        public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
            if (succeeded.incrementAndGet() == TRIGGER) {
                try {
                    breakIt.run();
                    broken = true;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }

        @Override
        public void uploadFailed(UploadEvent upload, Throwable failure, Duration took) {
            heal();
        }

        @Override
        public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes executionAttributes) {
            heal();
        }

        /** The non-blocking client may complete a failed call before it runs onExecutionFailure: clean-ups heal too. */
        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes executionAttributes) {
            SdkRequest request = context.request();
            if (request instanceof HeadObjectRequest || request instanceof AbortMultipartUploadRequest
                    || request instanceof ListMultipartUploadsRequest || request instanceof DeleteObjectRequest) {
                heal();
            }
        }

        private void heal() {
            if (!broken) {
                return;
            }
            if (healing.compareAndSet(false, true)) {
                s3.proxy().heal();
                healed.countDown();
            }
            try {
                healed.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws IOException;
    }
}
