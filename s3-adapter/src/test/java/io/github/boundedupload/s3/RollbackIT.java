package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.Adapters.Kind;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.testsupport.S3Server;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import io.github.boundedupload.testsupport.TestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;

/**
 * Issue 11, defects 1-4 and 7 against a real S3 (LocalStack, or the server the test services point at) behind a real
 * Toxiproxy: what an all-or-nothing batch reports is what the bucket holds, through cancels, outages and close().
 */
class RollbackIT {

    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucketAndProxy("rollback");
    /** Two parts of 5 MiB: multipart uploads that are in flight when the batch stops. */
    static final long MULTIPART = 6L * 1024 * 1024;
    static final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    static Path large;
    static Path small;

    @BeforeAll
    static void files(@TempDir Path dir) {
        large = TestData.file(dir.resolve("large.bin"), 1, MULTIPART);
        small = TestData.file(dir.resolve("small.bin"), 2, 64 * 1024);
    }

    @AfterAll
    static void stopTimer() {
        timer.shutdownNow();
    }

    private static Adapters adapters() {
        return new Adapters(s3.proxy().endpoint(), s3.bucket().name(), Adapters.smallParts());
    }

    /** Multipart uploads that are slow enough (a bandwidth limit on the way to S3) to be in flight when it stops. */
    private static void slowUploads() throws IOException {
        s3.proxy().toxiproxy().toxics().bandwidth("slow", ToxicDirection.UPSTREAM, 2048); // KB/s per connection
    }

    private static List<String> incompleteUploads(String prefix) {
        return s3.bucket().incompleteUploads().stream().map(u -> u.key()).filter(k -> k.startsWith(prefix)).toList();
    }

    /**
     * Content that fails to open (a real failure, of its own) once {@code started} uploads have started: the others
     * are in flight when the batch stops.
     */
    private static Attachment failingOnceStarted(CountDownLatch started) {
        return Attachment.of("bad.txt", AttachmentContent.ofStream(() -> {
            try {
                started.await(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IOException("the client's upload broke off");
        }, 10));
    }

    /** Counts uploads down as they start. */
    private static UploadListener countingStarts(CountDownLatch started) {
        return new UploadListener() {
            @Override
            public void uploadStarted(UploadEvent upload, Duration queued) {
                if (!upload.attachment().fileName().equals("bad.txt")) {
                    started.countDown();
                }
            }
        };
    }

    static Stream<Arguments> kindsAndRuns() {
        List<Arguments> all = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (int run = 1; run <= 3; run++) {
                all.add(Arguments.of(kind, run));
            }
        }
        return all.stream();
    }

    // ---- defects 1 and 3: cancelled uploads reported as failures; CANCELLED that is not empty ----------------

    @ParameterizedTest(name = "{0} run {1}")
    @MethodSource("kindsAndRuns")
    void uploadsStoppedByAnotherFailureAreCancelledAndLeaveNothing(Kind kind, int run) throws IOException {
        slowUploads();
        String prefix = "cancelled-" + kind + "-" + run;
        CountDownLatch started = new CountDownLatch(4);
        UploaderConfig config = UploaderConfig.builder().name("cancelled").maxConcurrentUploads(5)
                .maxConcurrentUploadsPerBatch(5).keyStrategy(KeyStrategy.datedUuid(prefix))
                .listener(countingStarts(started)).build();
        List<Attachment> batch = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            batch.add(Attachment.of("large-" + i + ".bin", AttachmentContent.ofPath(large)));
        }
        batch.add(failingOnceStarted(started));
        try (Adapters adapters = adapters(); ConcurrentAttachmentUploader uploader = adapters.uploader(kind, config)) {
            BatchFailedException failed = failure(uploader.uploadAllAsync(batch));

            // Checked the moment the batch reports, not eventually: a status must be true when it is reported.
            List<String> left = s3.bucket().keys(prefix);
            List<String> incomplete = incompleteUploads(prefix);
            assertThat(failed.failures()).extracting(UploadResult::index).containsExactly(4);
            assertThat(failed.getCause()).isInstanceOf(S3UploadException.class)
                    .hasRootCauseMessage("the client's upload broke off");
            assertThat(failed.result().results().subList(0, 4)).extracting(UploadResult::status)
                    .containsOnly(Status.CANCELLED);
            assertThat(left).isEmpty();
            assertThat(incomplete).isEmpty();
        }
    }

    // ---- defect 2: rollback gives up during an outage ---------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aRollbackThatMeetsAnOutageFinishesWhenTheStorageIsBack(Kind kind) throws Exception {
        String prefix = "outage-" + kind;
        CountDownLatch stored = new CountDownLatch(8);
        UploadListener outageAtTheFailure = new UploadListener() {
            @Override
            public void uploadSucceeded(UploadEvent upload, StoredObject object, Duration took) {
                stored.countDown();
            }

            @Override
            public void uploadFailed(UploadEvent upload, Throwable failure, Duration took) {
                if (upload.attachment().fileName().equals("bad.txt")) {
                    outage(Duration.ofMillis(1500));
                }
            }
        };
        UploaderConfig config = UploaderConfig.builder().name("outage").maxConcurrentUploads(10)
                .maxConcurrentUploadsPerBatch(10).keyStrategy(KeyStrategy.datedUuid(prefix))
                .listener(outageAtTheFailure).build();
        List<Attachment> batch = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            batch.add(Attachment.of("small-" + i + ".bin", AttachmentContent.ofPath(small)));
        }
        batch.add(Attachment.of("large.bin", AttachmentContent.ofPath(large)));
        batch.add(failingOnceStarted(stored));
        try (Adapters adapters = adapters(); ConcurrentAttachmentUploader uploader = adapters.uploader(kind, config)) {
            slowUploads(); // the multipart upload is still in flight when the others are stored
            BatchFailedException failed = failure(uploader.uploadAllAsync(batch));
            assertThat(failed.getCause()).hasRootCauseMessage("the client's upload broke off");
            // The multipart upload stopped by it may fail to clean up in the outage: then it says what may be left.
            assertThat(failed.failures()).extracting(UploadResult::index).contains(9);
            assertThat(failed.failures()).filteredOn(r -> r.index() != 9).allSatisfy(r -> assertThat(r.failure())
                    .get().isInstanceOfSatisfying(S3UploadException.class, e -> assertThat(e.mayBeStored()).isTrue()));

            await().atMost(Duration.ofMinutes(1)).until(() -> s3.bucket().keys(prefix).isEmpty()
                    && incompleteUploads(prefix).isEmpty());
            await().until(() -> uploader.stats().pendingRollbacks() == 0);
        }
    }

    /** Takes the storage down (connections refused and cut) for a while, from now. */
    private static void outage(Duration length) {
        try {
            s3.proxy().toxiproxy().disable();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        timer.schedule(() -> {
            try {
                s3.proxy().toxiproxy().enable();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, length.toMillis(), TimeUnit.MILLISECONDS);
    }

    // ---- defect 4: close() mid-batch orphans objects and hangs the batch --------------------------------------

    @ParameterizedTest
    @EnumSource(Kind.class)
    void closeMidBatchCompletesTheBatchAndLeavesNothingOfIt(Kind kind) throws IOException {
        String prefix = "close-" + kind;
        CountDownLatch stored = new CountDownLatch(3);
        UploadListener counting = new UploadListener() {
            @Override
            public void uploadSucceeded(UploadEvent upload, StoredObject object, Duration took) {
                stored.countDown();
            }
        };
        UploaderConfig config = UploaderConfig.builder().name("closing").maxConcurrentUploads(4)
                .maxConcurrentUploadsPerBatch(4).keyStrategy(KeyStrategy.datedUuid(prefix))
                .shutdownGracePeriod(Duration.ofMillis(200)).stopTimeout(Duration.ofSeconds(5)).listener(counting)
                .build();
        List<Attachment> batch = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            Path file = i % 4 == 3 ? large : small;
            batch.add(Attachment.of("file-" + i + ".bin", AttachmentContent.ofPath(file)));
        }
        try (Adapters adapters = adapters()) {
            // Every answer takes longer than the grace period, on any server: the batch is still running when
            // close() comes, cancelled uploads stop (abort their multipart uploads) only after close() has given up
            // waiting for them, and their deletes come later still.
            s3.proxy().toxiproxy().toxics().latency("late", ToxicDirection.DOWNSTREAM, 400);
            ConcurrentAttachmentUploader uploader = adapters.uploader(kind, config);
            CompletableFuture<BatchResult> result = uploader.uploadAllAsync(batch);
            await().until(() -> stored.getCount() == 0);
            slowUploads();

            uploader.close();

            assertThat(result).isDone();
            assertThat(uploader.stats().activeBatches()).isZero();
            BatchFailedException failed = failure(result);
            assertThat(failed.result().results()).extracting(UploadResult::status).doesNotContain(Status.STORED);
            assertThat(s3.bucket().keys(prefix)).isEmpty();
            assertThat(incompleteUploads(prefix)).isEmpty();
        }
    }

    // ---- defect 7: a rollback deletes another batch's object --------------------------------------------------

    @Test
    void aRollbackDeletesOnlyTheVersionItStoredInAVersionedBucket() throws Exception {
        String key = "versioned/shared.txt";
        try (TestBucket versioned = S3TestServices.get().createBucket("versioned")) {
            S3TestServices.get().s3Client().putBucketVersioning(v -> v.bucket(versioned.name())
                    .versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
            BatchFailedException failed = rolledBackAfterAnotherStored(versioned.name(), key);
            assertThat(failed.result().results().get(0).status()).isEqualTo(Status.DELETED);
            assertThat(versioned.read(key)).get().extracting(bytes -> new String(bytes, StandardCharsets.UTF_8))
                    .isEqualTo("from B");
        }
    }

    @Test
    void aRollbackInABucketWithoutVersionsDeletesOnlyTheObjectItStoredWhereTheServerHonoursAConditionalDelete()
            throws Exception {
        String key = "unversioned/shared.txt";
        S3Server server = S3TestServices.get().server();
        BatchFailedException failed = rolledBackAfterAnotherStored(s3.bucket().name(), key);
        assertThat(failed.result().results().get(0).status()).isEqualTo(Status.DELETED);
        if (server.honoursConditionalDeletes()) {
            assertThat(s3.bucket().read(key)).as("B's object, which replaced A's, on " + server.displayName())
                    .get().extracting(bytes -> new String(bytes, StandardCharsets.UTF_8)).isEqualTo("from B");
        } else {
            // The server ignores nothing silently: it answers 501, and the adapter falls back to the key.
            assertThat(s3.bucket().read(key)).as("the key, deleted whole on " + server.displayName()).isEmpty();
        }
    }

    /**
     * Two processes (two uploaders: they share no key locks) and one key: A stores its object, then B stores its own
     * under the same key, then A's batch fails (its other attachment is refused) and rolls back.
     */
    private static BatchFailedException rolledBackAfterAnotherStored(String bucket, String key) throws Exception {
        CountDownLatch aStored = new CountDownLatch(1);
        CountDownLatch bStored = new CountDownLatch(1);
        UploadListener signal = new UploadListener() {
            @Override
            public void uploadSucceeded(UploadEvent upload, StoredObject object, Duration took) {
                aStored.countDown();
            }
        };
        Attachment bad = Attachment.of("bad.txt", AttachmentContent.ofStream(() -> {
            try {
                bStored.await(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IOException("refused");
        }, 10));
        try (Adapters adapters = new Adapters(s3.proxy().endpoint(), bucket, Adapters.smallParts());
                ConcurrentAttachmentUploader a = adapters.uploader(Kind.BLOCKING, UploaderConfig.builder().name("a")
                        .listener(signal).build());
                ConcurrentAttachmentUploader b = adapters.uploader(Kind.NON_BLOCKING, UploaderConfig.builder()
                        .name("b").build())) {
            CompletableFuture<BatchResult> batchA = a.uploadAllAsync(List.of(text("a.txt", key, "from A"), bad));
            assertThat(aStored.await(1, TimeUnit.MINUTES)).isTrue();
            assertThat(b.uploadAll(List.of(text("b.txt", key, "from B"))).allStored()).isTrue();
            bStored.countDown();
            return failure(batchA);
        }
    }

    private static Attachment text(String fileName, String key, String text) {
        return Attachment.builder(fileName, AttachmentContent.ofBytes(text.getBytes(StandardCharsets.UTF_8)))
                .key(key).build();
    }

    private static BatchFailedException failure(CompletableFuture<BatchResult> batch) {
        Throwable failure = batch.handle((result, e) -> e).join();
        assertThat(failure).isInstanceOf(BatchFailedException.class);
        return (BatchFailedException) failure;
    }
}
