package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.Adapters.Kind;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * S3 stores the object, and its answer never arrives (Toxiproxy drops the responses of that one request): the
 * upload is not reported as failed while the object is there, nor reported stored while it is not.
 */
class LostAnswerIT {

    static final S3TestServices services = S3TestServices.get();
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucketAndProxy("lost-answers");
    static Path large;

    @BeforeAll
    static void setUp(@TempDir Path dir) {
        large = TestData.file(dir.resolve("large.bin"), 4, Adapters.LARGE);
    }

    /**
     * Drops the answers from the moment one kind of request goes out; the network recovers before the adapter checks
     * what S3 holds (HeadObject, AbortMultipartUpload), which {@link #checked} records.
     */
    static final class LoseAnswerOf implements ExecutionInterceptor {
        private final Class<? extends SdkRequest> type;
        final AtomicBoolean lost = new AtomicBoolean();
        final AtomicBoolean checked = new AtomicBoolean();

        LoseAnswerOf(Class<? extends SdkRequest> type) {
            this.type = type;
        }

        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            if (type.isInstance(context.request()) && lost.compareAndSet(false, true)) {
                try {
                    s3.proxy().toxiproxy().toxics().timeout("lose-answer", ToxicDirection.DOWNSTREAM, 0);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (lost.get() && (context.request() instanceof HeadObjectRequest
                    || context.request() instanceof AbortMultipartUploadRequest)) {
                if (checked.compareAndSet(false, true)) {
                    s3.proxy().heal();
                }
            }
        }
    }

    private static Adapters through(LoseAnswerOf lose) {
        return new Adapters(s3.proxy().endpoint(), s3.bucket().name(), Adapters.smallParts(),
                b -> b.overrideConfiguration(o -> o.addExecutionInterceptor(lose)),
                b -> b.overrideConfiguration(o -> o.addExecutionInterceptor(lose)));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aPutWhoseAnswerIsLostIsFoundStored(Kind kind) throws Exception {
        LoseAnswerOf lose = new LoseAnswerOf(PutObjectRequest.class);
        byte[] content = TestData.bytes(7, 50_000);
        try (Adapters adapters = through(lose)) {
            UploadRequest request = UploadRequest.builder("lost-put-" + kind, Attachment.of("p.bin", content))
                    .timeout(Duration.ofSeconds(3)).build();
            StoredObject stored = BadInputIT.upload(adapters, kind, request);
            assertThat(lose.checked).as("the PUT's answer was lost, and S3 asked").isTrue();
            assertThat(stored.size()).isEqualTo(content.length);
            assertThat(stored.checksum()).isPresent();
            assertThat(s3.bucket().read(stored.key())).contains(content);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aCompletionWhoseAnswerIsLostIsFoundCompleted(Kind kind) throws Exception {
        LoseAnswerOf lose = new LoseAnswerOf(CompleteMultipartUploadRequest.class);
        try (Adapters adapters = through(lose)) {
            UploadRequest request = UploadRequest.builder("lost-complete-" + kind, Attachment.of(large))
                    .timeout(Duration.ofSeconds(8)).build();
            StoredObject stored = BadInputIT.upload(adapters, kind, request);
            assertThat(lose.checked).as("the completion's answer was lost, and S3 asked").isTrue();
            assertThat(stored.eTag()).hasValueSatisfying(eTag -> assertThat(eTag).endsWith("-3\""));
            assertThat(s3.bucket().sha256(stored.key())).contains(TestData.sha256(large));
            assertThat(s3.bucket().incompleteUploads()).isEmpty();
        }
    }

    @Test
    void anUploadCancelledAfterS3StoredItIsDeletedAgain() {
        LoseAnswerOf lose = new LoseAnswerOf(PutObjectRequest.class);
        try (Adapters adapters = through(lose)) {
            String key = "cancelled-after-store";
            CompletableFuture<StoredObject> upload = adapters.nonBlocking.upload(UploadRequest.of(key,
                    Attachment.of("c.bin", TestData.bytes(8, 20_000))));
            await().atMost(Duration.ofSeconds(20)).until(() -> s3.bucket().exists(key));
            s3.proxy().heal(); // the PUT's answer stays lost; what follows must get through
            assertThat(upload.cancel(true)).isTrue();
            await().atMost(Duration.ofSeconds(20)).until(() -> !s3.bucket().exists(key));
        }
    }

    /**
     * A PUT held by the network until after the adapter's first look (its request arrives late, a moment after the
     * call's own timeout; here the test stores those very bytes in its stead), while the upload's thread is interrupted
     * in the wait between the two looks, as the core interrupts an upload whose time ran out or whose batch failed: the
     * wait still lasts its whole settle time, the second look finds the object, and the upload reports it stored.
     * Regression: an interrupt ended the wait, the second look came at once, and the object that arrived a moment
     * later was left in the bucket of a failed all-or-nothing batch (FaultIT, TIMEOUT, blocking, on versitygw).
     */
    @Test
    void aPutThatArrivesAfterTheFirstLookIsFoundAlthoughTheWaitBetweenTheLooksIsInterrupted() throws Exception {
        byte[] content = TestData.bytes(10, 40_000);
        String key = "late-put";
        CountDownLatch firstLookMissed = new CountDownLatch(1);
        CountDownLatch lateArrival = new CountDownLatch(1);
        AtomicInteger looks = new AtomicInteger();
        AtomicBoolean secondLookAfterTheArrival = new AtomicBoolean();
        ExecutionInterceptor holdThePut = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if (context.request() instanceof PutObjectRequest) {
                    try {
                        s3.proxy().toxiproxy().toxics().timeout("hold-put", ToxicDirection.UPSTREAM, 0);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            }

            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                if (context.request() instanceof HeadObjectRequest) {
                    if (looks.incrementAndGet() == 1) {
                        s3.proxy().heal();
                    } else {
                        secondLookAfterTheArrival.set(lateArrival.getCount() == 0);
                    }
                }
            }

            @Override
            public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
                if (context.request() instanceof HeadObjectRequest && looks.get() == 1) {
                    firstLookMissed.countDown();
                }
            }
        };
        try (Adapters adapters = new Adapters(s3.proxy().endpoint(), s3.bucket().name(), Adapters.smallParts(),
                b -> b.overrideConfiguration(o -> o.addExecutionInterceptor(holdThePut)), b -> b);
                S3Client direct = services.s3ClientBuilder(services.s3Endpoint()).build()) {
            CompletableFuture<StoredObject> upload = new CompletableFuture<>();
            AtomicBoolean stillInterrupted = new AtomicBoolean();
            Thread uploading = new Thread(() -> {
                try {
                    upload.complete(adapters.blocking.upload(UploadRequest.builder(key,
                            Attachment.of("late.bin", content)).timeout(Duration.ofSeconds(2)).build()));
                } catch (Throwable e) {
                    upload.completeExceptionally(e);
                }
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            }, "late-put");
            uploading.start();
            assertThat(firstLookMissed.await(30, TimeUnit.SECONDS)).as("the first look found nothing").isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> Arrays.stream(uploading.getStackTrace())
                    .anyMatch(frame -> frame.getMethodName().equals("settle")));
            uploading.interrupt();
            direct.putObject(b -> b.bucket(s3.bucket().name()).key(key).checksumAlgorithm(ChecksumAlgorithm.CRC32),
                    RequestBody.fromBytes(content));
            lateArrival.countDown();

            StoredObject stored = upload.get(1, TimeUnit.MINUTES);
            assertThat(secondLookAfterTheArrival).as("the second look waited for its whole settle time").isTrue();
            assertThat(stored.key()).isEqualTo(key);
            assertThat(stored.size()).isEqualTo(content.length);
            assertThat(stored.checksum()).isPresent();
            uploading.join(TimeUnit.MINUTES.toMillis(1));
            assertThat(stillInterrupted).as("the interrupt is kept for the caller").isTrue();
        }
    }

    /**
     * Through the core: the upload times out. The blocking adapter, interrupted, still finds the object and returns
     * it, so the core reports it stored. The non-blocking one races the core's cancel: it finds the object first
     * (stored), or is cancelled first and deletes it again (not stored). Either way the bucket agrees.
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void anUploadTimedOutByTheUploaderIsReportedStoredWhenItIs(Kind kind) {
        LoseAnswerOf lose = new LoseAnswerOf(PutObjectRequest.class);
        String prefix = "timed-out-" + kind.name().toLowerCase();
        try (Adapters adapters = through(lose);
                ConcurrentAttachmentUploader uploader = adapters.uploader(kind, UploaderConfig.builder()
                        .uploadTimeout(Duration.ofSeconds(3)).failurePolicy(FailurePolicy.ALL_OR_NOTHING)
                        .keyStrategy(KeyStrategy.datedUuid(prefix)).build())) {
            UploadResult result;
            try {
                result = uploader.uploadAll(List.of(Attachment.of("t.bin", TestData.bytes(9, 30_000)))).results()
                        .get(0);
            } catch (BatchFailedException e) {
                result = e.result().results().get(0);
            }
            assertThat(lose.checked).isTrue();
            if (kind == Kind.BLOCKING) {
                assertThat(result.isStored()).as("%s", result).isTrue();
            }
            String key = result.key();
            if (result.isStored()) {
                assertThat(s3.bucket().read(key)).contains(TestData.bytes(9, 30_000));
            } else {
                await().atMost(Duration.ofSeconds(20)).until(() -> !s3.bucket().exists(key));
            }
        }
    }
}
