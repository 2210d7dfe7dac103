package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.Attachment;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.s3.Adapters.Kind;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * The parts of one multipart upload go up at once, up to {@code partsInFlight}, on both adapters; the blocking one
 * sends them on threads of its own while the calling thread waits, and an interrupt of that thread stops them all
 * before the upload is aborted. A latency on every answer makes the parts overlap whatever the server's speed.
 */
class PartsInFlightIT {

    static final S3TestServices services = S3TestServices.get();
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucketAndProxy("parts-in-flight");
    static final int PARTS = 7;
    static final int IN_FLIGHT = 3;
    static Path file;
    static String digest;

    @BeforeAll
    static void setUp(@TempDir Path dir) {
        file = TestData.file(dir.resolve("parts.bin"), 7, PARTS * S3UploadOptions.MIN_PART_SIZE - 1000);
        digest = TestData.sha256(file);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void thePartsOfOneUploadGoUpAtOnceUpToPartsInFlight(Kind kind) throws Exception {
        PartCounter parts = new PartCounter();
        try (Adapters adapters = adapters(parts)) {
            s3.proxy().toxiproxy().toxics().latency("latency", ToxicDirection.DOWNSTREAM, 150);
            String key = "parallel/" + kind;

            StoredObject stored = kind == Kind.BLOCKING
                    ? adapters.blocking.upload(UploadRequest.of(key, Attachment.of(file)))
                    : adapters.nonBlocking.upload(UploadRequest.of(key, Attachment.of(file))).get(2, TimeUnit.MINUTES);

            assertThat(parts.started.get()).isEqualTo(PARTS);
            assertThat(parts.most.get()).as("parts in flight at once").isEqualTo(IN_FLIGHT);
            assertThat(stored.eTag()).hasValueSatisfying(eTag -> assertThat(eTag).endsWith("-" + PARTS + "\""));
            assertThat(s3.bucket().sha256(key)).contains(digest);
            assertThat(s3.bucket().incompleteUploads()).isEmpty();
        }
    }

    @Test
    void interruptingTheBlockingUploadStopsItsPartsBeforeAbortingAndKeepsTheInterrupt() throws Exception {
        PartCounter parts = new PartCounter();
        try (Adapters adapters = adapters(parts)) {
            s3.proxy().toxiproxy().toxics().latency("latency", ToxicDirection.DOWNSTREAM, 2_000);
            String key = "interrupted/blocking";
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicInteger partsRunningAtReturn = new AtomicInteger(-1);
            CountDownLatch returned = new CountDownLatch(1);
            boolean[] interruptKept = new boolean[1];
            Thread caller = new Thread(() -> {
                try {
                    adapters.blocking.upload(UploadRequest.of(key, Attachment.of(file)));
                } catch (RuntimeException e) {
                    thrown.set(e);
                } finally {
                    partsRunningAtReturn.set(parts.running.get());
                    interruptKept[0] = Thread.currentThread().isInterrupted();
                    returned.countDown();
                }
            }, "caller");
            caller.start();
            assertThat(parts.inFlight.await(1, TimeUnit.MINUTES)).as("parts in flight").isTrue();

            caller.interrupt();

            assertThat(returned.await(1, TimeUnit.MINUTES)).as("upload returned").isTrue();
            assertThat(thrown.get()).isInstanceOfSatisfying(S3UploadException.class,
                    e -> assertThat(e.isCancellation()).as("a cancellation: " + e).isTrue());
            assertThat(interruptKept[0]).as("the caller's interrupt status").isTrue();
            assertThat(partsRunningAtReturn.get()).as("parts still being sent when the upload returned").isZero();
            assertThat(s3.bucket().keys("interrupted/")).isEmpty();
            assertThat(s3.bucket().incompleteUploads()).isEmpty();
        }
    }

    private static Adapters adapters(PartCounter parts) {
        S3UploadOptions options = Adapters.smallParts().toBuilder().partsInFlight(IN_FLIGHT).build();
        return new Adapters(s3.proxy().endpoint(), s3.bucket().name(), options,
                sync -> sync.overrideConfiguration(o -> o.addExecutionInterceptor(parts)),
                async -> async.overrideConfiguration(o -> o.addExecutionInterceptor(parts)));
    }

    /** Counts UploadPart requests from the start of their execution to its end (answered or failed). */
    static final class PartCounter implements ExecutionInterceptor {
        final AtomicInteger started = new AtomicInteger();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();
        final CountDownLatch inFlight = new CountDownLatch(IN_FLIGHT);

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (context.request() instanceof UploadPartRequest) {
                started.incrementAndGet();
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                inFlight.countDown();
            }
        }

        @Override
        public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
            if (context.request() instanceof UploadPartRequest) {
                running.decrementAndGet();
            }
        }

        @Override
        public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
            if (context.request() instanceof UploadPartRequest) {
                running.decrementAndGet();
            }
        }
    }
}
