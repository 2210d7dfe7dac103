package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import io.github.boundedupload.spi.ContextPropagator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
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
