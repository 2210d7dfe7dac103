package io.github.boundedupload.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.ExecutorType;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.spi.UploadRequest;
import java.lang.invoke.MethodHandles;
import java.time.Duration;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A thread of the uploader's own pool that frees a permit runs the upload the permit goes to, instead of waking another
 * thread for it and parking: in a batch larger than its permits, the pool is handed one task per permit, not one per
 * upload (benchmark scenario E measured what the wake-ups cost an unrelated task). So is a supplied executor that
 * only makes a thread per task (the JDK's); any other supplied executor is handed every upload, since it may decorate
 * its tasks. A non-blocking storage's answer starts the next upload on the thread that
 * brought it, as the SPI lets it: its calls return at once.
 */
class HandoffTest {

    private static final int PERMITS = 4;
    private static final int UPLOADS = 400;

    @Test
    void theOwnPoolIsHandedOneTaskPerPermitNotOnePerUpload() {
        FakeStorage storage = new FakeStorage();
        try (ConcurrentAttachmentUploader uploader = DefaultConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("handoff").executorType(ExecutorType.PLATFORM)
                        .maxConcurrentUploads(PERMITS).maxConcurrentUploadsPerBatch(PERMITS).build())) {
            BatchResult result = uploader.uploadAll(Batches.of("saturated", UPLOADS));

            ThreadPoolExecutor pool = (ThreadPoolExecutor) ((DefaultConcurrentAttachmentUploader) uploader)
                    .ownExecutor();
            assertThat(result.allStored()).isTrue();
            assertThat(storage.objects).hasSize(UPLOADS);
            assertThat(storage.maxInFlight).hasValueLessThanOrEqualTo(PERMITS);
            // The submitting thread starts the first window; every later upload is started by the end of another, on
            // the thread that ran it.
            assertThat(pool.getTaskCount()).as("tasks handed to the pool").isEqualTo(PERMITS);
        }
    }

    @Test
    void aSuppliedExecutorIsHandedEveryUpload() {
        FakeStorage storage = new FakeStorage();

        assertThat(tasksOfASuppliedExecutor(config -> DefaultConcurrentAttachmentUploader.create(storage, config)))
                .isEqualTo(UPLOADS);
    }

    @Test
    void aSuppliedThreadPerTaskExecutorMakesOneThreadPerPermitNotOnePerUpload() throws Throwable {
        assumeTrue(Runtime.version().feature() >= 21, "Executors.newThreadPerTaskExecutor is Java 21's");
        FakeStorage storage = new FakeStorage();
        AtomicInteger made = new AtomicInteger();
        ThreadFactory counting = task -> {
            made.incrementAndGet();
            return new Thread(task, "per-task-" + made.get());
        };
        ExecutorService perTask = threadPerTask(counting);
        try (ConcurrentAttachmentUploader uploader = DefaultConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("per-task").executor(perTask)
                        .maxConcurrentUploads(PERMITS).maxConcurrentUploadsPerBatch(PERMITS).build())) {
            BatchResult result = uploader.uploadAll(Batches.of("saturated", UPLOADS));

            assertThat(result.allStored()).isTrue();
            assertThat(storage.objects).hasSize(UPLOADS);
            assertThat(storage.maxInFlight).hasValueLessThanOrEqualTo(PERMITS);
            // Every later upload is started by the end of another, on the thread that ran it: a thread per permit.
            assertThat(made).as("threads the executor made").hasValue(PERMITS);
            assertThat(storage.threads).allMatch(thread -> thread.getName().startsWith("per-task-"));
        } finally {
            perTask.shutdown();
        }
    }

    @Test
    void aSuppliedThreadPerTaskExecutorShutDownMidBatchGetsNoMoreCallsAndEveryUploadIsReported() throws Throwable {
        assumeTrue(Runtime.version().feature() >= 21, "Executors.newThreadPerTaskExecutor is Java 21's");
        FakeStorage storage = new FakeStorage();
        CountDownLatch firstWindow = new CountDownLatch(PERMITS);
        CountDownLatch shutDown = new CountDownLatch(1);
        storage.behaviour = request -> {
            firstWindow.countDown();
            assertThat(shutDown.await(1, TimeUnit.MINUTES)).isTrue();
        };
        ExecutorService perTask = threadPerTask(Executors.defaultThreadFactory());
        try (ConcurrentAttachmentUploader uploader = DefaultConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("per-task").executor(perTask).failurePolicy(FailurePolicy.COLLECT)
                        .maxConcurrentUploads(PERMITS).maxConcurrentUploadsPerBatch(PERMITS).build())) {
            CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(Batches.of("saturated", UPLOADS));
            assertThat(firstWindow.await(1, TimeUnit.MINUTES)).isTrue();
            perTask.shutdown();
            shutDown.countDown();
            BatchResult result = batch.get(1, TimeUnit.MINUTES);

            // The threads that ran the first window hand nothing on once the executor is shut down: the rest is
            // refused by it, and reported so.
            assertThat(storage.started).hasSize(PERMITS);
            assertThat(result.storedObjects()).hasSize(PERMITS);
            assertThat(result.notStored()).hasSize(UPLOADS - PERMITS)
                    .allSatisfy(failure -> assertThat(failure.failure()).containsInstanceOf(
                            RejectedExecutionException.class));
        } finally {
            perTask.shutdownNow();
        }
    }

    /** {@code Executors.newThreadPerTaskExecutor(factory)} of Java 21, compiled for 17. */
    private static ExecutorService threadPerTask(ThreadFactory factory) throws Throwable {
        return (ExecutorService) MethodHandles.publicLookup().findStatic(Executors.class, "newThreadPerTaskExecutor",
                MethodType.methodType(ExecutorService.class, ThreadFactory.class)).invoke(factory);
    }

    @Test
    void aNonBlockingStoragesAnswerStartsTheNextUploadOnItsOwnThread() {
        AnswersOnItsOwnThread storage = new AnswersOnItsOwnThread();
        try (ConcurrentAttachmentUploader uploader = DefaultConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("answers").executorType(ExecutorType.PLATFORM)
                        .maxConcurrentUploads(PERMITS).maxConcurrentUploadsPerBatch(PERMITS).build())) {
            BatchResult result = uploader.uploadAll(Batches.of("saturated", UPLOADS));

            ThreadPoolExecutor pool = (ThreadPoolExecutor) ((DefaultConcurrentAttachmentUploader) uploader)
                    .ownExecutor();
            assertThat(result.allStored()).isTrue();
            assertThat(storage.maxInFlight).hasValueLessThanOrEqualTo(PERMITS);
            // The pool runs the first window (and, on its own threads, what an answer that came before the pool
            // thread was done starts); every other call is started by the thread of the answer that freed its permit.
            assertThat(pool.getTaskCount()).as("tasks handed to the pool").isEqualTo(PERMITS);
            assertThat(storage.calledOn).hasSize(UPLOADS).contains(AnswersOnItsOwnThread.THREAD)
                    .allMatch(thread -> thread.equals(AnswersOnItsOwnThread.THREAD)
                            || thread.startsWith("bounded-upload-answers-"));
        } finally {
            storage.answers.shutdown();
        }
    }

    @Test
    void keptOnTheUploadersThreadsANonBlockingStoragesAnswerIsHandedToThemAndItsThreadRunsNothingOfOurs() {
        AnswersOnItsOwnThread storage = new AnswersOnItsOwnThread();
        List<String> listenedOn = new CopyOnWriteArrayList<>();
        try (ConcurrentAttachmentUploader uploader = DefaultConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("kept").executorType(ExecutorType.PLATFORM)
                        .keepWorkOnUploaderThreads(true).listener(new UploadListener() {
                            @Override
                            public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
                                listenedOn.add(Thread.currentThread().getName());
                            }
                        }).maxConcurrentUploads(PERMITS).maxConcurrentUploadsPerBatch(PERMITS).build())) {
            BatchResult result = uploader.uploadAll(Batches.of("saturated", UPLOADS));

            assertThat(result.allStored()).isTrue();
            assertThat(storage.maxInFlight).hasValueLessThanOrEqualTo(PERMITS);
            assertThat(storage.calledOn).hasSize(UPLOADS).allMatch(thread -> thread.startsWith("bounded-upload-kept-"));
            assertThat(listenedOn).hasSize(UPLOADS).allMatch(thread -> thread.startsWith("bounded-upload-kept-"));
        } finally {
            storage.answers.shutdown();
        }
    }

    @Test
    void aSuppliedExecutorIsHandedEveryUploadOfANonBlockingStorage() {
        AnswersOnItsOwnThread storage = new AnswersOnItsOwnThread();
        try {
            assertThat(tasksOfASuppliedExecutor(config -> DefaultConcurrentAttachmentUploader.create(storage, config)))
                    .isEqualTo(UPLOADS);
            assertThat(storage.calledOn).doesNotContain(AnswersOnItsOwnThread.THREAD);
        } finally {
            storage.answers.shutdown();
        }
    }

    /** Uploads a saturated batch through a supplied executor that counts the tasks it is handed; returns the count. */
    private static int tasksOfASuppliedExecutor(Function<UploaderConfig, ConcurrentAttachmentUploader> uploaderOf) {
        AtomicInteger tasks = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(PERMITS);
        try (ConcurrentAttachmentUploader uploader = uploaderOf.apply(UploaderConfig.builder().name("supplied")
                .executor(task -> {
                    tasks.incrementAndGet();
                    threads.execute(task);
                }).maxConcurrentUploads(PERMITS).maxConcurrentUploadsPerBatch(PERMITS).build())) {
            assertThat(uploader.uploadAll(Batches.of("saturated", UPLOADS)).allStored()).isTrue();
        } finally {
            threads.shutdown();
        }
        return tasks.get();
    }

    /** A non-blocking storage that answers every upload on a thread of its own, as the SDK's clients do. */
    private static final class AnswersOnItsOwnThread implements AsyncFileUploader {
        static final String THREAD = "storage-answers";
        final ExecutorService answers = Executors.newSingleThreadExecutor(task -> new Thread(task, THREAD));
        final List<String> calledOn = new CopyOnWriteArrayList<>();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger maxInFlight = new AtomicInteger();

        @Override
        public CompletableFuture<StoredObject> upload(UploadRequest request) {
            calledOn.add(Thread.currentThread().getName());
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            return CompletableFuture.supplyAsync(() -> {
                inFlight.decrementAndGet();
                return StoredObject.builder(request.key(), 0).build();
            }, answers);
        }

        @Override
        public CompletableFuture<Void> delete(String key) {
            return CompletableFuture.completedFuture(null);
        }
    }
}
