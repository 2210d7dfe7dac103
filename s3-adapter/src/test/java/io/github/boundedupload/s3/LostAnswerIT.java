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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
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
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
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
