package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploadResult.Status;
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
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 28: the storage goes away in the middle of a batch (its Toxiproxy proxy is disabled: connections cut and
 * refused) and comes back 3 s later, as a new user tried it. Answers come 300 ms late, so that most uploads in flight
 * at that moment have been stored and lose their answer, and the check that follows fails too: their outcome is
 * unknown. Whatever happens, once the batch's background work is over ({@code settled()}), the bucket holds exactly the
 * objects of the STORED results and no incomplete multipart upload, and no reported status changed meaning: FAILED,
 * CANCELLED and DELETED were true when reported, DELETING ended deleted, STORED stayed stored. Before, COLLECT left the
 * unknown outcomes in the bucket, and ALL_OR_NOTHING reported objects it was still deleting as STORED.
 */
class OutageMidBatchIT {

    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucketAndProxy("outage-mid-batch");
    static final int SMALL = 24;
    static final int TRIGGER = 6;
    static final Duration OUTAGE = Duration.ofSeconds(3);
    static final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    static final List<Attachment> batch = new ArrayList<>();
    static final Map<String, String> digests = new ConcurrentHashMap<>();

    @BeforeAll
    static void files(@TempDir Path dir) {
        for (int i = 0; i < SMALL + 2; i++) {
            // Two multipart uploads (two parts of 5 MiB) among the small ones, so that aborts are part of it.
            long size = i % 13 == 7 ? 6L * 1024 * 1024 : 64 * 1024;
            Path file = TestData.file(dir.resolve("outage-" + i + ".bin"), 100 + i, size);
            digests.put(file.getFileName().toString(), TestData.sha256(file));
            batch.add(Attachment.of(file));
        }
    }

    @AfterAll
    static void stopTimer() {
        timer.shutdownNow();
    }

    static Stream<Arguments> cases() {
        return Stream.of(FailurePolicy.values()).flatMap(policy -> Stream.of(Kind.values())
                .map(kind -> Arguments.of(policy, kind)));
    }

    /** Takes the storage down at the {@link #TRIGGER}th stored upload, and brings it back {@link #OUTAGE} later. */
    static final class Outage implements UploadListener {
        private final AtomicInteger stored = new AtomicInteger();
        final AtomicReference<ScheduledFuture<?>> back = new AtomicReference<>();

        @Override
        public void uploadSucceeded(UploadEvent upload, StoredObject object, Duration took) {
            if (stored.incrementAndGet() == TRIGGER) {
                try {
                    s3.proxy().toxiproxy().disable();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                back.set(timer.schedule(() -> {
                    s3.proxy().toxiproxy().enable();
                    return null;
                }, OUTAGE.toMillis(), TimeUnit.MILLISECONDS));
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void afterTheBackgroundWorkTheBucketHoldsExactlyWhatIsReportedStored(FailurePolicy policy, Kind kind)
            throws Exception {
        String prefix = "outage-" + policy + "-" + kind;
        Outage outage = new Outage();
        UploaderConfig config = UploaderConfig.builder().name("outage").maxConcurrentUploads(8)
                .maxConcurrentUploadsPerBatch(8).uploadTimeout(Duration.ofSeconds(10))
                .rollbackDeadline(Duration.ofMinutes(2)).failurePolicy(policy)
                .keyStrategy(KeyStrategy.datedUuid(prefix)).listener(outage).build();
        s3.proxy().toxiproxy().toxics().latency("late-answers", ToxicDirection.DOWNSTREAM, 300);
        try (Adapters adapters = new Adapters(s3.proxy().endpoint(), s3.bucket().name(), Adapters.smallParts());
                ConcurrentAttachmentUploader uploader = adapters.uploader(kind, config)) {
            BatchResult reported;
            if (policy == FailurePolicy.COLLECT) {
                reported = uploader.uploadAll(batch);
            } else {
                reported = fails(uploader.uploadAllAsync(batch)).result();
            }
            // True the moment they are reported: the bucket is read straight from the server, not through the proxy.
            Set<String> atReport = Set.copyOf(s3.bucket().keys(prefix + "/"));
            assertThat(outage.back.get() != null).as("the storage went away mid-batch").isTrue();
            for (UploadResult upload : reported.results()) {
                switch (upload.status()) {
                    case STORED -> assertThat(atReport).as("%s", upload).contains(upload.key());
                    case FAILED, CANCELLED, DELETED -> assertThat(atReport).as("%s", upload)
                            .doesNotContain(upload.key());
                    case DELETING -> { } // may or may not be there yet; settled() says how it ended
                    default -> throw new AssertionError("not expected with a deadline of minutes: " + upload);
                }
            }

            BatchResult settled = reported.settled().toCompletableFuture().get(3, TimeUnit.MINUTES);
            outage.back.get().get(1, TimeUnit.MINUTES);
            System.out.printf("OutageMidBatchIT %s %s on %s: reported %s, settled %s%n", policy, kind,
                    S3TestServices.get().server(), count(reported), count(settled));

            for (int i = 0; i < batch.size(); i++) {
                UploadResult before = reported.results().get(i);
                UploadResult after = settled.results().get(i);
                if (before.status() == Status.DELETING) {
                    assertThat(after.status()).as("%s, then %s", before, after)
                            .isIn(Status.DELETED, Status.FAILED, Status.CANCELLED);
                } else {
                    assertThat(after.status()).as("%s, then %s", before, after).isEqualTo(before.status());
                }
            }
            List<UploadResult> stored = settled.results().stream().filter(UploadResult::isStored).toList();
            assertThat(s3.bucket().keys(prefix + "/")).as("what the bucket holds")
                    .containsExactlyInAnyOrderElementsOf(stored.stream().map(UploadResult::key).toList());
            for (UploadResult upload : stored) {
                assertThat(s3.bucket().sha256(upload.key())).as("%s", upload)
                        .contains(digests.get(upload.attachment().fileName()));
            }
            assertThat(s3.bucket().incompleteUploads()).as("incomplete multipart uploads")
                    .noneMatch(u -> u.key().startsWith(prefix + "/"));
            assertThat(uploader.stats().pendingRollbacks()).isZero();
            if (policy == FailurePolicy.COLLECT) {
                assertThat(reported.notStored()).as("the outage failed some uploads").isNotEmpty();
            } else {
                assertThat(stored).isEmpty();
            }
        }
    }

    private static Map<Status, Long> count(BatchResult result) {
        return result.results().stream().collect(Collectors.groupingBy(UploadResult::status,
                () -> new EnumMap<>(Status.class), Collectors.counting()));
    }

    private static BatchFailedException fails(CompletableFuture<BatchResult> batch) {
        Throwable failure = batch.handle((result, e) -> e).join();
        assertThat(failure).isInstanceOf(BatchFailedException.class);
        return (BatchFailedException) failure;
    }
}
