package io.github.boundedupload.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploaderClosedException;
import io.github.boundedupload.autoconfigure.TestSupport.RecordingStorage;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadRequest;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.SmartLifecycle;
import org.springframework.util.ClassUtils;

/**
 * The drain in Spring Boot's shutdown ({@link UploaderDrain}): when the context starts closing, new batches are
 * refused, running ones finish within the grace period, and what is left then ends as the failure policy promises;
 * its budget must fit in {@code spring.lifecycle.timeout-per-shutdown-phase}. A real process receiving SIGTERM on
 * real S3 is the starter's {@code DrainOnSigtermIT}.
 */
class UploaderDrainTests {

    @TempDir
    Path root;

    /** Stores every file but "slow.txt", which waits for {@link #release} (or for an interrupt: a cancel). */
    private final CountDownLatch slowStarted = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    private ApplicationContextRunner runner() {
        RecordingStorage gated = new RecordingStorage(root.resolve("stored")) {
            @Override
            public StoredObject upload(UploadRequest request) throws IOException {
                if (request.fileName().equals("slow.txt")) {
                    slowStarted.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException("cancelled");
                    }
                }
                return super.upload(request);
            }
        };
        return TestSupport.runner(root).withBean(FileUploader.class, () -> gated);
    }

    private static Attachment file(String name) {
        return Attachment.of(name, name.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theDrainStopsSideBySideWithTheWebServersGracefulShutdown() throws ReflectiveOperationException {
        String boot4 = "org.springframework.boot.web.server.context.WebServerApplicationContext";
        Object gracefulShutdownPhase = ClassUtils.isPresent(boot4, null)
                ? ClassUtils.forName(boot4, null).getField("GRACEFUL_SHUTDOWN_PHASE").get(null)
                : ClassUtils.forName("org.springframework.boot.web.context.WebServerGracefulShutdownLifecycle", null)
                        .getField("SMART_LIFECYCLE_PHASE").get(null);
        runner().run(context -> {
            SmartLifecycle drain = context.getBean(DrainConfiguration.DRAIN_BEAN_NAME, SmartLifecycle.class);
            assertThat(drain.getPhase()).isEqualTo(gracefulShutdownPhase);
            assertThat(drain.isAutoStartup()).isTrue();
            assertThat(drain.isRunning()).isTrue();
        });
    }

    @Test
    void whenTheContextClosesNewBatchesAreRefusedAndRunningOnesFinish() {
        runner().run(context -> {
            ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
            CompletableFuture<BatchResult> running = uploader.uploadAllAsync(List.of(file("a.txt"), file("slow.txt")));
            assertThat(slowStarted.await(1, TimeUnit.MINUTES)).isTrue();

            CompletableFuture<Void> closing = CompletableFuture.runAsync(context::close);
            await().until(() -> uploader.stats().closed());

            assertThatThrownBy(() -> uploader.uploadAll(List.of(file("late.txt"))))
                    .isInstanceOf(UploaderClosedException.class)
                    .hasMessage("uploader 'default' is closed: it takes no new batch");
            assertThat(closing).as("the drain waits for the running batch").isNotDone();

            release.countDown();
            BatchResult result = running.get(1, TimeUnit.MINUTES);
            assertThat(result.allStored()).isTrue();
            closing.get(1, TimeUnit.MINUTES);
            assertThat(result.storedObjects()).allSatisfy(stored -> assertThat(root.resolve("stored")
                    .resolve(stored.key())).exists());
        });
    }

    /**
     * What works with the uploader (the journal) is paused when the drain starts, while a batch still runs, and closed
     * only once the uploader is closed.
     */
    @Test
    void aFollowerIsPausedWhenTheDrainStartsAndClosedOnceTheUploaderIs() {
        List<String> steps = new CopyOnWriteArrayList<>();
        AtomicReference<ConcurrentAttachmentUploader> drained = new AtomicReference<>();
        UploaderDrain.Follower follower = new UploaderDrain.Follower() {
            @Override
            public String name() {
                return "the follower";
            }

            @Override
            public void pause() {
                steps.add("pause; running batches: " + drained.get().stats().activeBatches());
            }

            @Override
            public void close() {
                steps.add("close; uploader closed: " + drained.get().stats().closed());
            }

            @Override
            public Duration closeTime() {
                return Duration.ofSeconds(1);
            }
        };
        runner().withBean(UploaderDrain.Follower.class, () -> follower).run(context -> {
            ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
            drained.set(uploader);
            CompletableFuture<BatchResult> running = uploader.uploadAllAsync(List.of(file("slow.txt")));
            assertThat(slowStarted.await(1, TimeUnit.MINUTES)).isTrue();

            CompletableFuture<Void> closing = CompletableFuture.runAsync(context::close);
            await().until(() -> !steps.isEmpty());
            release.countDown();
            closing.get(1, TimeUnit.MINUTES);

            assertThat(running.get().allStored()).isTrue();
            assertThat(steps).containsExactly("pause; running batches: 1", "close; uploader closed: true");
        });
        runner().withBean(UploaderDrain.Follower.class, () -> follower)
                .withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=21s").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(new BoundedUploadFailureAnalyzer().analyze(context.getStartupFailure())
                            .getDescription()).startsWith("The bounded-upload drain takes up to 21s "
                                    + "(bounded-upload.shutdown-grace-period 10s + 2 x bounded-upload.stop-timeout 5s"
                                    + " + the follower 1s)");
                });
    }

    /** All-or-nothing: cancelled after the grace period, and what the batch had stored is deleted again. */
    @Test
    void aBatchStillRunningAfterTheGracePeriodIsCancelledAndRolledBack() {
        runner().withPropertyValues("bounded-upload.shutdown-grace-period=100ms").run(context -> {
            ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
            CompletableFuture<BatchResult> running = uploader.uploadAllAsync(List.of(file("a.txt"), file("slow.txt")));
            assertThat(slowStarted.await(1, TimeUnit.MINUTES)).isTrue();
            await().until(() -> uploader.stats().inFlightUploads() == 1); // a.txt stored

            context.close();

            assertThat(running).isCompletedExceptionally();
            assertThatThrownBy(() -> running.get()).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(BatchFailedException.class)
                    .satisfies(failure -> assertThat(((BatchFailedException) failure).result().results())
                            .extracting(UploadResult::status)
                            .containsExactly(UploadResult.Status.DELETED, UploadResult.Status.CANCELLED));
            try (var stored = Files.walk(root.resolve("stored"))) {
                assertThat(stored.filter(Files::isRegularFile)).isEmpty();
            }
        });
    }

    /** Collect: what was stored stays and is reported so; the upload still running is cancelled. */
    @Test
    void underCollectWhatWasStoredStaysAndTheRestIsCancelled() {
        runner().withPropertyValues("bounded-upload.shutdown-grace-period=100ms", "bounded-upload.failure-policy=collect")
                .run(context -> {
                    ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
                    CompletableFuture<BatchResult> running = uploader.uploadAllAsync(List.of(file("a.txt"),
                            file("slow.txt")));
                    assertThat(slowStarted.await(1, TimeUnit.MINUTES)).isTrue();
                    await().until(() -> uploader.stats().inFlightUploads() == 1);

                    context.close();

                    BatchResult result = running.get();
                    assertThat(result.results()).extracting(UploadResult::status)
                            .containsExactly(UploadResult.Status.STORED, UploadResult.Status.CANCELLED);
                    assertThat(root.resolve("stored").resolve(result.storedObjects().get(0).key())).exists();
                });
    }

    @Test
    void aDrainLongerThanSpringBootsShutdownPhaseFailsStartUp() {
        runner().withPropertyValues("bounded-upload.shutdown-grace-period=25s").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new BoundedUploadFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).isEqualTo("The bounded-upload drain takes up to 35s "
                    + "(bounded-upload.shutdown-grace-period 25s + 2 x bounded-upload.stop-timeout 5s), which does not"
                    + " fit in spring.lifecycle.timeout-per-shutdown-phase (30s): Spring Boot would stop waiting and "
                    + "close the storage under running uploads.");
            assertThat(analysis.getAction()).contains("raise spring.lifecycle.timeout-per-shutdown-phase");
        });
        runner().withPropertyValues("bounded-upload.shutdown-grace-period=25s",
                "spring.lifecycle.timeout-per-shutdown-phase=1m").run(context -> assertThat(context).hasNotFailed());
    }

    /**
     * An UploaderConfig bean whose drain does not fit (30 s + 2 x 5 s): the failure says who set it. The core's own
     * defaults (10 s + 2 x 5 s) fit, so an application's bean built from them starts.
     */
    @Test
    void aConfigBeanWhoseDrainDoesNotFitFailsStartUpNamingIt() {
        runner().withBean(io.github.boundedupload.UploaderConfig.class,
                () -> io.github.boundedupload.UploaderConfig.defaults()).run(context -> assertThat(context)
                        .hasNotFailed());
        runner().withBean(io.github.boundedupload.UploaderConfig.class,
                () -> io.github.boundedupload.UploaderConfig.builder()
                        .shutdownGracePeriod(java.time.Duration.ofSeconds(30)).build()).run(context -> {
                            assertThat(context).hasFailed();
                            FailureAnalysis analysis = new BoundedUploadFailureAnalyzer()
                                    .analyze(context.getStartupFailure());
                            assertThat(analysis.getDescription()).startsWith("The bounded-upload drain takes up to"
                                    + " 40s (shutdownGracePeriod 30s + 2 x stopTimeout 5s of the UploaderConfig in"
                                    + " use)");
                            assertThat(analysis.getAction())
                                    .contains("your UploaderConfig bean or UploaderConfigCustomizer");
                        });
    }

    @Test
    void anUploaderOfTheApplicationsOwnIsNotDrainedByUs() {
        runner().withBean("mine", ConcurrentAttachmentUploader.class,
                () -> ConcurrentAttachmentUploader.create(new RecordingStorage(root.resolve("mine"))))
                .run(context -> assertThat(context).hasNotFailed()
                        .doesNotHaveBean(DrainConfiguration.DRAIN_BEAN_NAME));
    }
}
