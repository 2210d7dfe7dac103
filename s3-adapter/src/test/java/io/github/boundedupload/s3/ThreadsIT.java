package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.UploaderSaturatedException;
import io.github.boundedupload.s3.Adapters.Kind;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.ContextPropagator;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.spi.UploaderEvent;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where the uploader's work runs, recorded on the real adapters: the thread of every call to the storage (a recording
 * decorator around the real adapter), every listener call and every context propagation (capture and apply), for
 * both adapters, every executor type and a supplied executor, with and without
 * {@link UploaderConfig#keepWorkOnUploaderThreads()}. A saturated batch (more uploads than permits, so that threads
 * hand calls on), and an all-or-nothing batch that fails, so that its stored objects are deleted again.
 *
 * <p>What it found, and asserts: calls to the storage and propagations run on the uploader's threads (its own, or the
 * supplied executor's); the submitting thread captures the context, and applies it for {@code batchStarted}. With the
 * non-blocking adapter, by default, the SDK's future-completion threads handle the answers (most of them: one that
 * comes before the call returned is handled by the thread that made it): every listener call that follows an answer,
 * the propagation it needs, and, on the uploader's own threads, the next call to the storage run there. With {@code keepWorkOnUploaderThreads} none of that runs on the SDK's threads. {@code bytesSent} runs on the
 * thread that sends the bytes: the calling thread for the blocking adapter, Netty's event loop for the non-blocking
 * one, with no context applied there.
 */
class ThreadsIT {

    static final S3TestServices services = S3TestServices.get();
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucket("threads");
    static final int PERMITS = 4;
    static final int SATURATED = 16;
    private static @Nullable Adapters adapters;

    @BeforeAll
    static void clients() {
        // Shared by every case: closing a non-blocking client takes its event loop's quiet period.
        adapters = new Adapters(services.s3Endpoint(), s3.bucket().name(), S3UploadOptions.defaults());
    }

    @AfterAll
    static void closeClients() {
        if (adapters != null) {
            adapters.close();
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (UploaderThreads threads : UploaderThreads.values()) {
                for (boolean keep : new boolean[] {false, true}) {
                    cases.add(Arguments.of(kind, threads, keep));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} on {1}, keepWorkOnUploaderThreads {2}")
    @MethodSource("cases")
    void everyCallRunsWhereTheDocsSay(Kind kind, UploaderThreads threads, boolean keep) throws Exception {
        assumeTrue(threads.available(), "virtual threads need Java 21");
        long start = System.nanoTime();
        String name = "threads-" + (kind == Kind.BLOCKING ? "b-" : "nb-") + threads.name().toLowerCase()
                + (keep ? "-keep" : "");
        Recorder seen = new Recorder(name, Thread.currentThread().getName());
        ExecutorService supplied = threads.supplied(PERMITS);
        try {
            UploaderConfig config = threads.configure(UploaderConfig.builder(), supplied).name(name)
                    .maxConcurrentUploads(PERMITS).maxConcurrentUploadsPerBatch(PERMITS)
                    .keyStrategy(KeyStrategy.datedUuid(name)).keepWorkOnUploaderThreads(keep)
                    .contextPropagator(seen.propagator()).listener(seen.listener()).build();
            Adapters on = Objects.requireNonNull(adapters);
            try (ConcurrentAttachmentUploader uploader = kind == Kind.BLOCKING
                    ? ConcurrentAttachmentUploader.create(seen.storage(on.blocking), config)
                    : ConcurrentAttachmentUploader.create(seen.storage(on.nonBlocking), config)) {
                BatchResult saturated = uploader.uploadAll(IntStream.range(0, SATURATED)
                        .mapToObj(i -> Attachment.of("ok-" + i + ".txt", TestData.bytes(i, 1024))).toList());
                assertThat(saturated.allStored()).isTrue();

                // Three stored, then the fourth fails: the three are deleted again.
                assertThatThrownBy(() -> uploader.uploadAll(List.of(Attachment.of("a.txt", TestData.bytes(1, 1024)),
                        Attachment.of("b.txt", TestData.bytes(2, 1024)), Attachment.of("c.txt", TestData.bytes(3,
                                1024)), Attachment.of("fail.txt", TestData.bytes(4, 1024)))))
                        .isInstanceOf(BatchFailedException.class);
                await().atMost(Duration.ofMinutes(1)).until(() -> seen.count("batchSettled") == 2);
            }
        } finally {
            if (supplied != null) {
                supplied.shutdown();
            }
        }
        Map<String, Set<String>> where = seen.where();
        System.out.printf("ThreadsIT %s on %s, keepWorkOnUploaderThreads %s (%d ms):%n%s", kind, threads, keep,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), seen.table());

        assertThat(seen.count("storage.upload")).isEqualTo(SATURATED + 4);
        assertThat(seen.count("storage.delete")).isEqualTo(3);
        assertThat(seen.count("uploadRolledBack")).isEqualTo(3);

        String ours = threads == UploaderThreads.SUPPLIED ? "supplied" : "uploader";
        boolean sdkAnswers = kind == Kind.NON_BLOCKING && !keep;
        // The SDK's completion thread that brings an answer starts the next call only on the uploader's own threads
        // (and on the JDK's thread-per-task executor): a supplied pool is handed every call.
        boolean sdkCalls = sdkAnswers && threads != UploaderThreads.SUPPLIED;
        Set<String> calls = sdkCalls ? Set.of(ours, "sdk-completion") : Set.of(ours);
        // An answer that came before the call returned (the adapter's own queue of requests, a fast server) arrives on
        // the thread that made the call.
        Set<String> answers = sdkAnswers ? Set.of("sdk-completion", ours) : Set.of(ours);

        assertThat(where.get("storage.upload")).as("storage uploads").isSubsetOf(calls).contains(ours);
        assertThat(where.get("storage.delete")).as("storage deletes").isSubsetOf(calls);
        assertThat(where.get("propagator.capture")).as("captures").containsExactly("submitter");
        assertThat(where.get("propagator.apply")).as("applies").isSubsetOf(union(calls, answers, Set.of("submitter")));
        assertThat(where.get("uploaderCreated")).containsExactly("submitter");
        assertThat(where.get("batchStarted")).containsExactly("submitter");
        assertThat(where.get("uploadStarted")).as("uploadStarted, where calls run").isSubsetOf(calls);
        for (String afterAnswer : List.of("uploadSucceeded", "uploadFailed", "uploadRolledBack", "batchFinished",
                "batchSettled")) {
            assertThat(where.get(afterAnswer)).as(afterAnswer + ", where answers arrive").isSubsetOf(answers);
        }
        if (sdkAnswers) {
            assertThat(where.get("uploadSucceeded")).as("uploads reported on the SDK's threads").contains("sdk-completion");
        }
        assertThat(where.get("bytesSent")).as("bytesSent, where the bytes are sent")
                .isSubsetOf(kind == Kind.BLOCKING ? calls : Set.of("sdk-io"));
        assertThat(where.get("uploaderClosed")).containsExactly("submitter");
    }

    @SafeVarargs
    private static Set<String> union(Set<String>... sets) {
        Set<String> all = new TreeSet<>();
        for (Set<String> set : sets) {
            all.addAll(set);
        }
        return all;
    }

    /**
     * Records what ran where: a propagator, a listener, and a decorator of the storage, which stores every attachment
     * but {@code fail.txt}; that one fails once the uploader has reported three others stored (once its answer came
     * later than theirs: they are then deleted again, not cancelled).
     */
    static final class Recorder {

        private static final Set<String> FAILING_BATCH_STORED = Set.of("a.txt", "b.txt", "c.txt");

        private final String uploader;
        private final String submitter;
        private final ConcurrentLinkedQueue<String[]> seen = new ConcurrentLinkedQueue<>();
        private final AtomicInteger succeeded = new AtomicInteger();
        private final CompletableFuture<Void> threeStored = new CompletableFuture<>();
        private final CountDownLatch threeStoredLatch = new CountDownLatch(1);

        Recorder(String uploader, String submitter) {
            this.uploader = uploader;
            this.submitter = submitter;
        }

        void seen(String what) {
            seen.add(new String[] {what, Thread.currentThread().getName()});
        }

        long count(String what) {
            return seen.stream().filter(s -> s[0].equals(what)).count();
        }

        /** For each thing seen, the kinds of threads it ran on. */
        Map<String, Set<String>> where() {
            Map<String, Set<String>> where = new TreeMap<>();
            for (String[] s : seen) {
                where.computeIfAbsent(s[0], w -> new TreeSet<>())
                        .add(UploaderThreads.kindOf(s[1], uploader, submitter));
            }
            return where;
        }

        String table() {
            StringBuilder table = new StringBuilder();
            where().forEach((what, kinds) -> table.append(String.format("  %-20s %s%n", what, kinds)));
            return table.toString();
        }

        /** Counts the uploads of the failing batch reported stored; the third lets {@code fail.txt} fail. */
        private void succeeded(UploadEvent upload) {
            if (!FAILING_BATCH_STORED.contains(upload.attachment().fileName())) {
                return;
            }
            if (succeeded.incrementAndGet() == 3) {
                threeStoredLatch.countDown();
                threeStored.complete(null);
            }
        }

        private static boolean fails(UploadRequest request) {
            return request.key().endsWith("fail.txt");
        }

        ContextPropagator propagator() {
            return () -> {
                seen("propagator.capture");
                return () -> {
                    seen("propagator.apply");
                    return () -> { };
                };
            };
        }

        FileUploader storage(FileUploader real) {
            return new FileUploader() {
                @Override
                public StoredObject upload(UploadRequest request) throws IOException {
                    seen("storage.upload");
                    if (fails(request)) {
                        try {
                            assertThat(threeStoredLatch.await(1, TimeUnit.MINUTES)).isTrue();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        throw new IOException("fails on purpose, once three are stored");
                    }
                    return real.upload(request);
                }

                @Override
                public void delete(String key) throws IOException {
                    seen("storage.delete");
                    real.delete(key);
                }

                @Override
                public void delete(StoredObject stored) throws IOException {
                    seen("storage.delete");
                    real.delete(stored);
                }
            };
        }

        AsyncFileUploader storage(AsyncFileUploader real) {
            return new AsyncFileUploader() {
                @Override
                public CompletableFuture<StoredObject> upload(UploadRequest request) {
                    seen("storage.upload");
                    if (fails(request)) {
                        return threeStored.thenCompose(ignored -> CompletableFuture.failedFuture(
                                new IOException("fails on purpose, once three are stored")));
                    }
                    return real.upload(request);
                }

                @Override
                public CompletableFuture<Void> delete(String key) {
                    seen("storage.delete");
                    return real.delete(key);
                }

                @Override
                public CompletableFuture<Void> delete(StoredObject stored) {
                    seen("storage.delete");
                    return real.delete(stored);
                }
            };
        }

        UploadListener listener() {
            return new UploadListener() {
                @Override
                public void uploaderCreated(UploaderEvent uploader, Executor executor) {
                    seen("uploaderCreated");
                }

                @Override
                public void uploaderClosed(UploaderEvent uploader) {
                    seen("uploaderClosed");
                }

                @Override
                public void batchStarted(BatchEvent batch) {
                    seen("batchStarted");
                }

                @Override
                public void batchRejected(BatchEvent batch, UploaderSaturatedException exception) {
                    seen("batchRejected");
                }

                @Override
                public void uploadStarted(UploadEvent upload, Duration queued) {
                    seen("uploadStarted");
                }

                @Override
                public void bytesSent(UploadEvent upload, long bytesSoFar) {
                    seen("bytesSent");
                }

                @Override
                public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
                    seen("uploadSucceeded");
                    succeeded(upload);
                }

                @Override
                public void uploadFailed(UploadEvent upload, Throwable failure, Duration took) {
                    seen("uploadFailed");
                }

                @Override
                public void uploadSkipped(UploadEvent upload, Throwable reason) {
                    seen("uploadSkipped");
                }

                @Override
                public void uploadRolledBack(UploadEvent upload, StoredObject stored, @Nullable Throwable failure) {
                    seen("uploadRolledBack");
                }

                @Override
                public void rollbackRetried(UploadEvent upload, Throwable failure, Duration retryIn) {
                    seen("rollbackRetried");
                }

                @Override
                public void rollbackAbandoned(UploadEvent upload, Throwable failure) {
                    seen("rollbackAbandoned");
                }

                @Override
                public void uploadStuck(UploadEvent upload) {
                    seen("uploadStuck");
                }

                @Override
                public void batchFinished(BatchEvent batch, BatchResult result, Duration took) {
                    seen("batchFinished");
                }

                @Override
                public void batchSettled(BatchEvent batch, BatchResult result) {
                    seen("batchSettled");
                }
            };
        }
    }
}
