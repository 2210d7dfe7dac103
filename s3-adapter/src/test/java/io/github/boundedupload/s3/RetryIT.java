package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.s3.Adapters.Kind;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * The SDK's retries: the first attempt's connection is reset as its content starts to flow (a toxic added by the
 * content itself), the second goes through. Content is opened again for the retry; content of unknown length is
 * retried from memory, without opening it again.
 */
class RetryIT {

    static final S3TestServices services = S3TestServices.get();
    static final int SIZE = 100_000;
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucketAndProxy("retries");

    /** Heals the proxy before the second attempt of a PutObject goes out. */
    static final class HealBeforeRetry implements ExecutionInterceptor {
        final AtomicInteger attempts = new AtomicInteger();

        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            if (context.request() instanceof PutObjectRequest && attempts.incrementAndGet() == 2) {
                s3.proxy().heal();
            }
        }
    }

    private static InputStream breakingTheNetworkOnFirstOpen(AtomicInteger opens, long seed, int size) {
        if (opens.incrementAndGet() == 1) {
            try {
                s3.proxy().toxiproxy().toxics().resetPeer("reset", ToxicDirection.UPSTREAM, 0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return TestData.stream(seed, size);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void contentIsOpenedAgainForTheRetry(Kind kind) throws Exception {
        AtomicInteger opens = new AtomicInteger();
        uploadThroughOneReset(kind, AttachmentContent.ofStream(() -> breakingTheNetworkOnFirstOpen(opens, 1, SIZE),
                SIZE), 1);
        assertThat(opens).hasValue(2);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void contentOfUnknownLengthIsRetriedFromMemory(Kind kind) throws Exception {
        AtomicInteger opens = new AtomicInteger();
        uploadThroughOneReset(kind, AttachmentContent.ofStream(() -> breakingTheNetworkOnFirstOpen(opens, 2, SIZE)),
                2);
        assertThat(opens).hasValue(1);
    }

    /** Uploads content whose first opening resets the connection; checks that two attempts stored it exactly. */
    private static void uploadThroughOneReset(Kind kind, AttachmentContent content, long seed) throws Exception {
        HealBeforeRetry heal = new HealBeforeRetry();
        try (Adapters adapters = new Adapters(s3.proxy().endpoint(), s3.bucket().name(), S3UploadOptions.defaults(),
                b -> b.overrideConfiguration(o -> o.addExecutionInterceptor(heal)),
                b -> b.overrideConfiguration(o -> o.addExecutionInterceptor(heal)))) {
            StoredObject stored = BadInputIT.upload(adapters, kind, UploadRequest.of("retried-" + seed + "-" + kind,
                    Attachment.of("r.bin", content)));
            assertThat(heal.attempts).hasValue(2);
            assertThat(s3.bucket().read(stored.key())).contains(TestData.bytes(seed, SIZE));
        }
    }
}
