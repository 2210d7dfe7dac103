package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.Adapters.Kind;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.ContextPropagator;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
import software.amazon.awssdk.core.client.config.SdkAdvancedAsyncClientOption;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;

/**
 * A listener, or a context propagator, that blocks inside its callback while a batch uploads, on clients the
 * application also uses for its own requests: does the application's own request still complete?
 *
 * <p>The non-blocking client completes its futures on its future-completion executor: by default the SDK's
 * {@code sdk-async-response} pool, of {@code max(8, cores)} threads before its queue of 1,000 fills. Here a stand-in
 * of {@value #COMPLETION_THREADS} threads, named alike, so that the test knows when every one of them is held. By default
 * the uploader handles a non-blocking storage's answers on those threads: once the blocking callbacks hold all of
 * them, S3 answers the application's own request and its future does not complete until the callbacks return. With
 * {@link UploaderConfig#keepWorkOnUploaderThreads()} the callbacks block the uploader's threads only, and the
 * application's request completes while they are blocked. The blocking adapter's callbacks never run on its client's
 * threads (it has none): its client serves the application either way.
 */
class BlockingListenerIT {

    static final S3TestServices services = S3TestServices.get();
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucket("blocking-listener");
    static final int COMPLETION_THREADS = 2;
    /** Uploads of the batch, and permits: more than the completion threads, all started at once. */
    static final int UPLOADS = 8;
    /** Counted down when S3's answer to the application's own request has been read (on a Netty thread). */
    private static volatile CountDownLatch ownRequestAnswered = new CountDownLatch(1);
    private static @Nullable ExecutorService completions;
    private static @Nullable S3Client client;
    private static @Nullable S3AsyncClient asyncClient;
    private static @Nullable Adapters adapters;

    /** What blocks: a listener in {@code uploadSucceeded}, or a context propagator when it applies the context. */
    enum Blocker {
        LISTENER, PROPAGATOR
    }

    @BeforeAll
    static void clients() {
        AtomicInteger made = new AtomicInteger();
        completions = Executors.newFixedThreadPool(COMPLETION_THREADS, task -> {
            Thread thread = new Thread(task, "sdk-async-response-test-" + made.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        ExecutionInterceptor answered = new ExecutionInterceptor() {
            @Override
            public void afterUnmarshalling(Context.AfterUnmarshalling context, ExecutionAttributes attributes) {
                if (context.request() instanceof HeadBucketRequest) {
                    ownRequestAnswered.countDown();
                }
            }
        };
        client = services.s3ClientBuilder(services.s3Endpoint()).build();
        asyncClient = services.s3AsyncClientBuilder(services.s3Endpoint())
                .asyncConfiguration(b -> b.advancedOption(SdkAdvancedAsyncClientOption.FUTURE_COMPLETION_EXECUTOR,
                        completions))
                .overrideConfiguration(o -> o.addExecutionInterceptor(answered)).build();
        adapters = new Adapters(client, asyncClient, s3.bucket().name(), S3UploadOptions.defaults());
    }

    @AfterAll
    static void closeClients() {
        Objects.requireNonNull(adapters).close();
        Objects.requireNonNull(asyncClient).close();
        Objects.requireNonNull(client).close();
        Objects.requireNonNull(completions).shutdown();
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (UploaderThreads threads : UploaderThreads.values()) {
                for (Blocker blocker : Blocker.values()) {
                    for (boolean keep : new boolean[] {false, true}) {
                        cases.add(Arguments.of(kind, threads, blocker, keep));
                    }
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} on {1}, blocking {2}, keepWorkOnUploaderThreads {3}")
    @MethodSource("cases")
    void theApplicationsOwnRequestCompletesWhileACallbackBlocksUnlessItHoldsTheClientsThreads(Kind kind,
            UploaderThreads threads, Blocker blocker, boolean keep) throws Exception {
        assumeTrue(threads.available(), "virtual threads need Java 21");
        long start = System.nanoTime();
        String name = "blocking-" + (kind == Kind.BLOCKING ? "b-" : "nb-") + threads.name().toLowerCase() + "-"
                + blocker.name().toLowerCase() + (keep ? "-keep" : "");
        String submitter = Thread.currentThread().getName();
        CountDownLatch release = new CountDownLatch(1);
        Set<String> blockedOn = ConcurrentHashMap.newKeySet();
        Runnable block = () -> {
            blockedOn.add(Thread.currentThread().getName());
            try {
                release.await(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        // The propagator blocks once every upload has been handed to the storage (see Gate): from then on it applies
        // the context for what follows the storage's answers. On the blocking adapter, from the start.
        AtomicBoolean armed = new AtomicBoolean(kind == Kind.BLOCKING);
        ContextPropagator propagator = () -> () -> {
            if (armed.get() && !Thread.currentThread().getName().equals(submitter)) {
                block.run();
            }
            return () -> { };
        };
        UploadListener listener = new UploadListener() {
            @Override
            public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
                block.run();
            }
        };
        ownRequestAnswered = new CountDownLatch(1);
        boolean holdsTheClient = kind == Kind.NON_BLOCKING && !keep;
        ExecutorService supplied = threads.supplied(UPLOADS);
        Adapters on = Objects.requireNonNull(adapters);
        UploaderConfig.Builder config = threads.configure(UploaderConfig.builder(), supplied).name(name)
                .maxConcurrentUploads(UPLOADS).maxConcurrentUploadsPerBatch(UPLOADS)
                .keyStrategy(KeyStrategy.datedUuid(name)).keepWorkOnUploaderThreads(keep);
        if (blocker == Blocker.LISTENER) {
            config.listener(listener);
        } else {
            config.contextPropagator(propagator);
        }
        String outcome;
        try (ConcurrentAttachmentUploader uploader = kind == Kind.BLOCKING
                ? ConcurrentAttachmentUploader.create(on.blocking, config.build())
                : ConcurrentAttachmentUploader.create(new Gate(on.nonBlocking, () -> armed.set(true)),
                        config.build())) {
            CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(IntStream.range(0, UPLOADS)
                    .mapToObj(i -> Attachment.of("f-" + i + ".txt", TestData.bytes(i, 1024))).toList());
            CompletableFuture<?> own;
            try {
                if (holdsTheClient) {
                    // Every completion thread of the client is held by a callback.
                    await().atMost(Duration.ofMinutes(1)).until(() -> blockedOn.stream()
                            .filter(thread -> thread.startsWith("sdk-async-response")).count() == COMPLETION_THREADS);
                } else {
                    await().atMost(Duration.ofMinutes(1)).until(() -> !blockedOn.isEmpty());
                }
                // The application's own request, on the client the uploader's storage uses.
                own = kind == Kind.BLOCKING
                        ? CompletableFuture.runAsync(() -> Objects.requireNonNull(client)
                                .headBucket(b -> b.bucket(s3.bucket().name())))
                        : Objects.requireNonNull(asyncClient).headBucket(b -> b.bucket(s3.bucket().name()));
                if (holdsTheClient) {
                    // S3 has answered it, and its future cannot complete: no thread of the client is free.
                    assertThat(ownRequestAnswered.await(1, TimeUnit.MINUTES)).isTrue();
                    assertThat(own).as("the application's own request, while the callbacks block").isNotDone();
                    outcome = "S3 answered the application's request; its future stayed incomplete while the"
                            + " callbacks held the client's " + COMPLETION_THREADS + " completion threads";
                } else {
                    own.get(1, TimeUnit.MINUTES);
                    assertThat(release.getCount()).as("the callbacks still block").isEqualTo(1);
                    assertThat(blockedOn).as("threads the callbacks block").noneMatch(
                            thread -> thread.startsWith("sdk-async-response"));
                    outcome = "the application's request completed while the callbacks blocked " + blockedOn.size()
                            + " thread(s) of the uploader";
                }
            } finally {
                release.countDown();
            }
            own.get(1, TimeUnit.MINUTES);
            assertThat(batch.get(1, TimeUnit.MINUTES).allStored()).isTrue();
        } finally {
            if (supplied != null) {
                supplied.shutdown();
            }
        }
        System.out.printf("BlockingListenerIT %s on %s, blocking %s, keepWorkOnUploaderThreads %s (%d ms): %s%n",
                kind, threads, blocker, keep, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), outcome);
    }

    /**
     * Holds every upload until all {@value #UPLOADS} have been handed to it, then opens (arming the propagator) and
     * starts them all: so that the propagator blocks only where the storage's answers are handled, not before the
     * calls. Its futures complete on the client's completion threads, never on the thread that opens it.
     */
    private static final class Gate implements AsyncFileUploader {

        private final AsyncFileUploader real;
        private final Runnable opening;
        private final ConcurrentLinkedQueue<Runnable> held = new ConcurrentLinkedQueue<>();
        private final AtomicInteger calls = new AtomicInteger();

        Gate(AsyncFileUploader real, Runnable opening) {
            this.real = real;
            this.opening = opening;
        }

        @Override
        public CompletableFuture<StoredObject> upload(UploadRequest request) {
            CompletableFuture<StoredObject> answer = new CompletableFuture<>();
            // Relayed on the client's completion threads, as the SDK completes its own futures: a relay attached after
            // S3 had answered would otherwise run on the thread that opens the gate, where the armed propagator blocks
            // it before it has started the other uploads (seen once on JDK 25: the completion threads were never held).
            held.add(() -> real.upload(request).whenCompleteAsync((stored, failure) -> {
                if (failure == null) {
                    answer.complete(stored);
                } else {
                    answer.completeExceptionally(failure);
                }
            }, Objects.requireNonNull(completions)));
            if (calls.incrementAndGet() == UPLOADS) {
                opening.run();
                for (Runnable call = held.poll(); call != null; call = held.poll()) {
                    call.run();
                }
            }
            return answer;
        }

        @Override
        public CompletableFuture<Void> delete(String key) {
            return real.delete(key);
        }

        @Override
        public CompletableFuture<Void> delete(StoredObject stored) {
            return real.delete(stored);
        }
    }
}
