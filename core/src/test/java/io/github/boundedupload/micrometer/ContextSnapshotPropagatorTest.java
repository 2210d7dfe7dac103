package io.github.boundedupload.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import io.github.boundedupload.spi.ContextPropagator;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshotFactory;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * Thread-locals registered with context-propagation reach the upload threads along with the MDC, and are removed from
 * them afterwards.
 */
class ContextSnapshotPropagatorTest {

    private static final ThreadLocal<String> TENANT = new ThreadLocal<>();

    @Test
    void registeredThreadLocalsAndTheMdcReachTheUploadThreadsAndLeaveThemAfterwards() throws Exception {
        ContextRegistry registry = new ContextRegistry().registerThreadLocalAccessor("tenant", TENANT);
        ContextPropagator propagator = ContextPropagator.of(ContextPropagator.mdc(),
                new ContextSnapshotPropagator(ContextSnapshotFactory.builder().contextRegistry(registry).build()));
        FakeStorage storage = new FakeStorage();
        Map<String, String> tenantByKey = new ConcurrentHashMap<>();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        storage.behaviour = request -> {
            tenantByKey.put(request.key(), String.valueOf(TENANT.get()));
            threads.add(Thread.currentThread());
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxConcurrentUploads(1).maxConcurrentUploadsPerBatch(1).contextPropagator(propagator).build())) {
            TENANT.set("acme");
            MDC.put("requestId", "r-1");
            try {
                uploader.uploadAll(Batches.of("c", 3));
            } finally {
                TENANT.remove();
                MDC.clear();
            }
            assertThat(tenantByKey).hasSize(3).containsOnlyKeys(storage.mdcByKey.keySet())
                    .allSatisfy((key, tenant) -> assertThat(tenant).isEqualTo("acme"));
            assertThat(storage.mdcByKey.values()).allSatisfy(mdc -> assertThat(mdc).containsEntry("requestId",
                    "r-1"));

            // The same thread, running another batch without a tenant, sees none: the context was restored.
            storage.behaviour = request -> tenantByKey.put("after", String.valueOf(TENANT.get()));
            uploader.uploadAll(Batches.of("d", 1));
            assertThat(tenantByKey).containsEntry("after", "null");
        }
        assertThat(threads).doesNotContain(Thread.currentThread());
    }
}
