package io.github.boundedupload.internal.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.ExecutorType;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.spi.ContextPropagator;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A step handed over to the combining thread ({@link Combiner#combine}): a virtual thread that ends an upload while the lock is
 * held does not park for it; the step runs once, under the lock, soon after, and its effects in its batch's context.
 * The combining thread runs effects only once it stops combining, so that foreign code in them never holds up other ends.
 */
class CombinerTest {

    private final StepLock lock = new StepLock(effects -> { }, Ticker.SYSTEM);

    /** The context of a step: the name it sets in {@link #CONTEXT} while its effects run. */
    private static final ThreadLocal<String> CONTEXT = new ThreadLocal<>();

    private static ContextPropagator.Captured context(String name) {
        return () -> {
            String before = CONTEXT.get();
            CONTEXT.set(name);
            return () -> CONTEXT.set(before);
        };
    }

    /** Hands {@code step} over, its effects in the context {@code name}. */
    private void handOver(String name, Consumer<Effects> step) {
        ContextPropagator.Captured context = context(name);
        lock.combine(new Combiner.Step() {
            @Override
            protected void runCombined(Effects effects) {
                step.accept(effects);
            }

            @Override
            protected ContextPropagator.Captured stepContext() {
                return context;
            }

            @Override
            protected boolean takesNextCall() {
                return false;
            }
        });
    }

    /** Holds the lock in a step of its own until released. */
    private final class Holder implements AutoCloseable {
        final CountDownLatch holding = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final Thread thread = new Thread(() -> lock.run(effects -> {
            holding.countDown();
            awaitUninterruptibly(release);
        }), "holder");

        Holder() throws InterruptedException {
            thread.start();
            assertThat(holding.await(1, TimeUnit.MINUTES)).isTrue();
        }

        @Override
        public void close() throws InterruptedException {
            release.countDown();
            thread.join(TimeUnit.MINUTES.toMillis(1));
        }
    }

    @Test
    void stepsHandedOverWhileTheLockIsHeldRunOnceAfterItInOrderOnTheCombiningThreadAndTheirEffectsInTheirContexts() throws Exception {
        List<String> steps = new CopyOnWriteArrayList<>(); // read here without the lock, which is held
        AtomicReference<String> effectContext = new AtomicReference<>();
        AtomicReference<Thread> effectThread = new AtomicReference<>();
        Thread combining;
        try (Holder holder = new Holder()) {
            // The first to hand a step over starts combining: it waits for the lock.
            combining = new Thread(() -> handOver("first", effects -> steps.add("first")), "combining");
            combining.start();
            awaitQueued(combining);
            // The second goes on at once, though the lock is held.
            handOver("second", effects -> {
                steps.add("second");
                effects.add(() -> {
                    effectContext.set(CONTEXT.get());
                    effectThread.set(Thread.currentThread());
                });
            });
            // And so do the next ones: left one after another, they run in that order.
            handOver("third", effects -> steps.add("third"));
            handOver("fourth", effects -> steps.add("fourth"));
            assertThat(steps).as("nothing runs while the lock is held").isEmpty();
            assertThat(holder.thread.isAlive()).isTrue();
        }
        combining.join(TimeUnit.MINUTES.toMillis(1));
        assertThat(combining.isAlive()).isFalse();
        assertThat(steps).containsExactly("first", "second", "third", "fourth");
        assertThat(effectThread.get()).as("the effect ran on the combining thread").isSameAs(combining);
        assertThat(effectContext.get()).as("in the context of the step that decided it").isEqualTo("second");
        assertThat(CONTEXT.get()).isNull();
    }

    @Test
    void anEffectThatWaitsForAStepLeftByAnotherThreadIsNotItsDeadlock() throws Exception {
        // An effect runs foreign code: here it waits for a step another thread hands over, as a listener or a batch's
        // future that submits a batch of the same uploader and waits for it would. The combining thread has stopped combining by
        // then, so the other thread combines itself.
        CountDownLatch otherRan = new CountDownLatch(1);
        AtomicReference<Boolean> waited = new AtomicReference<>();
        handOver("waits", effects -> effects.add(() -> {
            Thread other = new Thread(() -> handOver("other", e -> otherRan.countDown()), "other");
            other.start();
            waited.set(awaitUninterruptibly(otherRan));
        }));
        assertThat(waited.get()).as("the step left from inside an effect ran").isTrue();
    }

    @Test
    void aStepThatFailsIsReportedAndTheOthersRunAndCombiningPassesOn() throws Exception {
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger effects = new AtomicInteger();
        Thread combining;
        try (Holder holder = new Holder()) {
            combining = new Thread(() -> handOver("a", e -> {
                throw new IllegalStateException("a bug");
            }), "combining");
            combining.start();
            awaitQueued(combining);
            handOver("b", e -> {
                ran.incrementAndGet();
                e.add(effects::incrementAndGet);
            });
        }
        combining.join(TimeUnit.MINUTES.toMillis(1));
        assertThat(ran).hasValue(1);
        assertThat(effects).hasValue(1);
        // Once combining stopped: the next step left starts combining afresh, on its own thread.
        handOver("c", e -> e.add(effects::incrementAndGet));
        assertThat(effects).hasValue(2);
    }

    @Test
    void underContentionEveryStepRunsOnceAndEveryEffectOnce() throws Exception {
        int threads = 8;
        int each = 20_000;
        int[] underLock = {0}; // guarded by the lock
        AtomicInteger effectsRun = new AtomicInteger();
        ConcurrentHashMap<Integer, Boolean> seen = new ConcurrentHashMap<>();
        AtomicInteger duplicates = new AtomicInteger();
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<CompletableFuture<Void>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(CompletableFuture.runAsync(() -> {
                    awaitBarrier(start);
                    for (int i = 0; i < each; i++) {
                        int id = thread * each + i;
                        Consumer<Effects> step = effects -> {
                            underLock[0]++;
                            effects.add(() -> {
                                effectsRun.incrementAndGet();
                                if (seen.put(id, true) != null) {
                                    duplicates.incrementAndGet();
                                }
                            });
                        };
                        // Every third a plain step, so that the lock is also held by steps that are not handed over.
                        if (i % 3 == 0) {
                            lock.run(step);
                        } else {
                            handOver("t" + thread, step);
                        }
                    }
                }, pool));
            }
            CompletableFuture.allOf(done.toArray(new CompletableFuture<?>[0])).get(5, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }
        // Every thread has returned: a step it left is run by then only if a thread on duty ran it; each returned
        // thread either ran its own or pushed it while one was on duty, which stops only when nothing is left to take.
        assertThat(lock.read(() -> underLock[0])).isEqualTo(threads * each);
        assertThat(effectsRun).hasValue(threads * each);
        assertThat(duplicates).hasValue(0);
        assertThat(seen).hasSize(threads * each);
    }

    @Test
    void onVirtualThreadsABatchOfManyEndsEveryUploadAndFinishes() {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need Java 21");
        AtomicInteger stored = new AtomicInteger();
        FileUploader storage = new FileUploader() {
            @Override
            public StoredObject upload(UploadRequest request) {
                stored.incrementAndGet();
                return StoredObject.builder(request.key(), request.contentLength().orElse(0)).build();
            }

            @Override
            public void delete(String key) {
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("left").executorType(ExecutorType.VIRTUAL)
                        .maxConcurrentUploads(64).maxConcurrentUploadsPerBatch(64)
                        .maxAttachmentsPerBatch(20_000).maxQueuedUploads(40_000)
                        .failurePolicy(FailurePolicy.COLLECT).build())) {
            for (int round = 0; round < 5; round++) {
                // Two batches at once, so that ends of both meet at the lock.
                CompletableFuture<BatchResult> one = uploader.uploadAllAsync(Batches.of("one", 10_000, 1));
                CompletableFuture<BatchResult> two = uploader.uploadAllAsync(Batches.of("two", 10_000, 1));
                assertThat(one.orTimeout(2, TimeUnit.MINUTES).join().storedObjects()).hasSize(10_000);
                assertThat(two.orTimeout(2, TimeUnit.MINUTES).join().storedObjects()).hasSize(10_000);
                assertThat(uploader.stats().inFlightUploads()).isZero();
            }
        }
        assertThat(stored).hasValue(100_000);
    }

    /** Waits until {@code thread} waits for the lock. */
    private void awaitQueued(Thread thread) {
        await().atMost(Duration.ofMinutes(1)).until(() -> lock.waitsForLock(thread));
    }

    private static boolean awaitUninterruptibly(CountDownLatch latch) {
        try {
            return latch.await(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void awaitBarrier(CyclicBarrier barrier) {
        try {
            barrier.await(1, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
