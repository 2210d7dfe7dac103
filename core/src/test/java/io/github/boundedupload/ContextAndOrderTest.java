package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import io.github.boundedupload.spi.ContextPropagator;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class ContextAndOrderTest {

    private final FakeStorage storage = new FakeStorage();

    @AfterEach
    void clearMdc() {
        MDC.clear();
    }

    @Test
    void resultsComeBackInInputOrderWhateverOrderUploadsFinishIn() {
        storage.behaviour = request -> Thread.sleep(ThreadLocalRandom.current().nextInt(10)); // fake latency
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage)) {
            List<Attachment> batch = Batches.of("o", 100);

            BatchResult result = uploader.uploadAll(batch);

            for (int i = 0; i < batch.size(); i++) {
                assertThat(result.results().get(i).attachment()).isSameAs(batch.get(i));
                assertThat(result.results().get(i).index()).isEqualTo(i);
                assertThat(storage.objects.get(result.results().get(i).key()))
                        .startsWith(("o-" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void aBatchStartsItsLargestUploadsFirstAndReportsThemInInputOrder() {
        List<String> started = new CopyOnWriteArrayList<>();
        storage.behaviour = request -> started.add(request.attachment().fileName());
        List<Attachment> batch = List.of(Attachment.of("small.txt", new byte[10]),
                Attachment.of("large-1.bin", new byte[1000]), Attachment.of("medium.bin", new byte[100]),
                Attachment.of("large-2.bin", new byte[1000]), Attachment.of("unknown-length.bin",
                        AttachmentContent.ofStream(() -> new java.io.ByteArrayInputStream(new byte[5]))));
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploads(1).maxConcurrentUploadsPerBatch(1).build())) {
            BatchResult result = uploader.uploadAll(batch);

            // One at a time: the order they start in is the order they are offered in. An unknown length weighs the
            // largest allowed; equal weights keep the batch's order.
            assertThat(started).containsExactly("unknown-length.bin", "large-1.bin", "large-2.bin", "medium.bin",
                    "small.txt");
            assertThat(result.results()).extracting(UploadResult::attachment).containsExactlyElementsOf(batch);
            assertThat(result.allStored()).isTrue();
        }
    }

    @Test
    void theCallersMdcIsVisibleInUploadThreadsAndClearedAfterwards() throws Exception {
        List<Map<String, String>> mdcAfterEachTask = new CopyOnWriteArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().executor(task -> pool.execute(() -> {
                    task.run();
                    Map<String, String> left = MDC.getCopyOfContextMap();
                    mdcAfterEachTask.add(left == null ? Map.of() : left);
                })).build())) {
            MDC.put("requestId", "req-42");

            BatchResult result = uploader.uploadAll(Batches.of("m", 6));

            assertThat(result.storedObjects()).allSatisfy(o ->
                    assertThat(storage.mdcByKey.get(o.key())).containsExactly(Map.entry("requestId", "req-42")));
            assertThat(storage.threads).noneMatch(t -> t == Thread.currentThread());
            // The batch may complete inside the last task, before the wrapper records what that task left behind.
            org.awaitility.Awaitility.await().until(() -> mdcAfterEachTask.size() == 6);
            assertThat(mdcAfterEachTask).allSatisfy(m -> assertThat(m).isEmpty());
            assertThat(MDC.get("requestId")).isEqualTo("req-42");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aWorkerThreadKeepsItsOwnMdcAroundTheUpload() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        pool.submit(() -> MDC.put("worker", "own")).get();
        List<Map<String, String>> after = new CopyOnWriteArrayList<>();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().executor(task -> pool.execute(() -> {
                    task.run();
                    after.add(MDC.getCopyOfContextMap());
                })).build())) {
            MDC.put("requestId", "r1");
            BatchResult result = uploader.uploadAll(Batches.of("w", 1));

            assertThat(storage.mdcByKey.get(result.storedObjects().get(0).key()))
                    .containsExactly(Map.entry("requestId", "r1"));
            org.awaitility.Awaitility.await().until(() -> after.size() == 1);
            assertThat(after).singleElement().isEqualTo(Map.of("worker", "own"));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void contextPropagationCanBeTurnedOff() {
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().contextPropagator(ContextPropagator.none()).build())) {
            MDC.put("requestId", "req-43");

            BatchResult result = uploader.uploadAll(Batches.of("n", 2));

            assertThat(result.storedObjects()).allSatisfy(o -> assertThat(storage.mdcByKey.get(o.key())).isEmpty());
        }
    }

    @Test
    void anAttachmentTheExecutorRefusesIsReportedInItsOwnBatchsContext() throws Exception {
        // Batch b's call is started (and refused) on the thread that ends batch a's call, inside a's context.
        CountDownLatch gate = new CountDownLatch(1);
        storage.behaviour = request -> gate.await();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        AtomicInteger accepted = new AtomicInteger();
        Executor firstOnly = task -> {
            if (accepted.getAndIncrement() > 0) {
                throw new RejectedExecutionException("full");
            }
            pool.execute(task);
        };
        Map<String, String> reportedIn = new ConcurrentHashMap<>();
        UploadListener listener = new UploadListener() {
            @Override
            public void uploadSkipped(UploadEvent upload, Throwable reason) {
                reportedIn.put(upload.key(), String.valueOf(MDC.get("requestId")));
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().executor(firstOnly).maxConcurrentUploads(1).maxConcurrentUploadsPerBatch(1)
                        .listener(listener).failurePolicy(FailurePolicy.COLLECT).build())) {
            MDC.put("requestId", "a");
            CompletableFuture<BatchResult> a = uploader.uploadAllAsync(Batches.of("a", 1));
            MDC.put("requestId", "b");
            CompletableFuture<BatchResult> b = uploader.uploadAllAsync(Batches.of("b", 1));
            MDC.remove("requestId");
            gate.countDown();

            assertThat(a.get().storedObjects()).hasSize(1);
            UploadResult refused = b.get().results().get(0);
            assertThat(refused.status()).isEqualTo(UploadResult.Status.FAILED);
            assertThat(reportedIn).containsExactly(Map.entry(refused.key(), "b"));
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- contexts that can only wrap work (Spring's TaskDecorator) -------------------------------------------------

    private static final ThreadLocal<String> TENANT = new ThreadLocal<>();

    /** A context in the style of a TaskDecorator: it wraps the work, and cannot be applied apart from it. */
    private static final ContextPropagator WRAPPING_TENANT = () -> {
        String captured = TENANT.get();
        return new ContextPropagator.Captured() {
            @Override
            public ContextPropagator.Scope apply() {
                throw new UnsupportedOperationException("wraps work only");
            }

            @Override
            public void run(Runnable action) {
                String previous = TENANT.get();
                TENANT.set(captured);
                try {
                    action.run();
                } finally {
                    TENANT.set(previous);
                }
            }
        };
    };

    @Test
    void aContextThatOnlyWrapsWorkReachesEveryUploadWhicheverThreadSubmitsIt() throws Exception {
        Map<String, String> tenantByKey = new java.util.concurrent.ConcurrentHashMap<>();
        storage.behaviour = request -> tenantByKey.put(request.key(), String.valueOf(TENANT.get()));
        // One upload at a time: most uploads are handed to a thread by another batch's finishing upload.
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploads(1).maxConcurrentUploadsPerBatch(1)
                        .contextPropagator(ContextPropagator.of(ContextPropagator.mdc(), WRAPPING_TENANT)).build())) {
            ExecutorService callers = Executors.newFixedThreadPool(2);
            try {
                List<java.util.concurrent.Future<BatchResult>> results = new java.util.ArrayList<>();
                for (String tenant : List.of("alpha", "beta")) {
                    results.add(callers.submit(() -> {
                        TENANT.set(tenant);
                        MDC.put("tenant", tenant);
                        try {
                            return uploader.uploadAll(Batches.of(tenant, 10));
                        } finally {
                            TENANT.remove();
                            MDC.clear();
                        }
                    }));
                }
                for (int i = 0; i < 2; i++) {
                    String tenant = i == 0 ? "alpha" : "beta";
                    assertThat(results.get(i).get().storedObjects()).hasSize(10).allSatisfy(o -> {
                        assertThat(tenantByKey.get(o.key())).isEqualTo(tenant);
                        assertThat(storage.mdcByKey.get(o.key())).containsExactly(Map.entry("tenant", tenant));
                    });
                }
            } finally {
                callers.shutdownNow();
            }
        }
    }

    @Test
    void aPropagatorThatFailsOrDropsTheWorkCostsTheContextNeverTheUpload() {
        ContextPropagator failing = () -> new ContextPropagator.Captured() {
            @Override
            public ContextPropagator.Scope apply() {
                throw new IllegalStateException("no context today");
            }
        };
        ContextPropagator dropping = () -> new ContextPropagator.Captured() {
            @Override
            public ContextPropagator.Scope apply() {
                throw new UnsupportedOperationException();
            }

            @Override
            public void run(Runnable action) {
                // forgets to run it
            }
        };
        for (ContextPropagator propagator : List.of(failing, dropping)) {
            try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                    UploaderConfig.builder().contextPropagator(propagator).build())) {
                BatchResult result = uploader.uploadAll(Batches.of("c", 3));

                assertThat(result.allStored()).isTrue();
                assertThat(result.storedObjects()).allSatisfy(o -> assertThat(storage.objects).containsKey(o.key()));
            }
        }
    }

    // ---- issue 11, defect 5: MDC leaks into the uploader's threads -------------------------------------------

    /** What SLF4J's BasicMDCAdapter (and log4j2, when configured so) keeps the MDC in: inherited by new threads. */
    private static final InheritableThreadLocal<String> INHERITED = new InheritableThreadLocal<>();

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = ExecutorType.class, names = {"PLATFORM", "VIRTUAL"})
    void uploadThreadsStartCleanInsteadOfInheritingTheFirstCallersContext(ExecutorType type) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(type != ExecutorType.VIRTUAL
                || Runtime.version().feature() >= 21, "virtual threads need Java 21");
        Map<String, String> seen = new java.util.concurrent.ConcurrentHashMap<>();
        storage.behaviour = request -> seen.put(request.key(), String.valueOf(INHERITED.get()));
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().executorType(type).contextPropagator(ContextPropagator.none()).build())) {
            // The first caller creates the threads (they are created lazily, from the submitting thread).
            Thread first = new Thread(() -> {
                INHERITED.set("first caller's user");
                uploader.uploadAll(Batches.of("first", 8));
            });
            first.start();
            first.join();

            uploader.uploadAll(Batches.of("second", 8));

            assertThat(seen).hasSize(16).allSatisfy((key, value) -> assertThat(value).isEqualTo("null"));
        }
    }
}
