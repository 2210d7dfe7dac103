package io.github.boundedupload.microbenchmarks;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.ExecutorType;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.spi.ContextPropagator;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadRequest;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the uploader itself costs per upload: a batch of N attachments to a storage that does nothing, through the
 * uploader, against the same N no-op calls as bare {@code CompletableFuture.supplyAsync} on the same executor (what
 * source 000 does by hand). Time per batch; divide by {@code batchSize} for the cost per upload. Run with
 * {@code -prof gc} for allocation ({@code gc.alloc.rate.norm}, bytes per batch). Changes when what the uploader's cost
 * per upload is measured against, or how, changes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class PerUploadOverhead {

    /** Attachments per batch. */
    @Param({"1", "10", "100", "1000", "10000", "100000"})
    public int batchSize;

    /**
     * The executor both run on: a pool of 64 platform threads, or virtual threads (Java 21+), supplied to the
     * uploader; or the uploader's own: ({@code own}) its pool of 64 platform threads, against the bare futures on a
     * pool of 64 of their own, or ({@code own-virtual}) its virtual threads ({@code ExecutorType.VIRTUAL}; {@code AUTO}
     * picks them on Java 24+ for a non-blocking storage only), against the bare futures on virtual threads.
     */
    @Param({"platform", "virtual", "own", "own-virtual"})
    public String executor;

    private ExecutorService pool;
    private ConcurrentAttachmentUploader uploader;
    private List<Attachment> batch;

    /** A storage that stores nothing and answers at once: only the uploader's own work is measured. */
    static final class NoOpStorage implements FileUploader {
        @Override
        public StoredObject upload(UploadRequest request) {
            return StoredObject.builder(request.key(), request.contentLength().orElse(0)).build();
        }

        @Override
        public void delete(String key) {
        }
    }

    private static final NoOpStorage STORAGE = new NoOpStorage();
    private static final byte[] CONTENT = new byte[16];

    @Setup(Level.Trial)
    public void setUp() {
        pool = executorFor(executor);
        uploader = uploaderOn(executor, pool);
        batch = attachments(batchSize, "jmh/");
    }

    /** The executor named by the {@code executor} parameter: 64 platform threads, or virtual threads. */
    static ExecutorService executorFor(String executor) {
        return executor.endsWith("virtual") ? virtualThreads() : Executors.newFixedThreadPool(64);
    }

    /**
     * An uploader of 64 permits on {@code pool}, or ({@code own}, {@code own-virtual}) on its own threads, that takes
     * batches of up to 100,000, collects failures and propagates no context.
     */
    static ConcurrentAttachmentUploader uploaderOn(String executor, ExecutorService pool) {
        UploaderConfig.Builder config = UploaderConfig.builder();
        if (executor.equals("own")) {
            config.executorType(ExecutorType.PLATFORM);
        } else if (executor.equals("own-virtual")) {
            config.executorType(ExecutorType.VIRTUAL);
        } else {
            config.executor(pool);
        }
        return ConcurrentAttachmentUploader.create(STORAGE, config
                .name("jmh")
                .maxConcurrentUploads(64).maxConcurrentUploadsPerBatch(64)
                .maxAttachmentsPerBatch(100_000).maxQueuedUploads(100_000)
                .failurePolicy(FailurePolicy.COLLECT)
                .contextPropagator(ContextPropagator.none())
                .build());
    }

    /**
     * {@code size} attachments of 16 bytes with explicit keys, {@code prefix} and their index (a key strategy's cost
     * is not the engine's).
     */
    static List<Attachment> attachments(int size, String prefix) {
        List<Attachment> attachments = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            attachments.add(Attachment.builder("f" + i + ".bin",
                    io.github.boundedupload.AttachmentContent.ofBytes(CONTENT)).key(prefix + i).build());
        }
        return attachments;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        uploader.close();
        pool.shutdownNow();
    }

    @Benchmark
    public BatchResult uploader() {
        return uploader.uploadAll(batch);
    }

    @Benchmark
    public Object bareCompletableFutures() {
        return bare(batch, pool);
    }

    /** What source 000 does by hand: one {@code supplyAsync} per attachment on {@code pool}, then all joined. */
    static Object bare(List<Attachment> batch, ExecutorService pool) {
        @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array, as allOf takes it
        CompletableFuture<StoredObject>[] futures = new CompletableFuture[batch.size()];
        for (int i = 0; i < futures.length; i++) {
            UploadRequest request = UploadRequest.of(batch.get(i).key().orElseThrow(), batch.get(i));
            futures[i] = CompletableFuture.supplyAsync(() -> STORAGE.upload(request), pool);
        }
        CompletableFuture.allOf(futures).join();
        return futures;
    }

    /** {@code Executors.newVirtualThreadPerTaskExecutor()}, compiled for Java 17. */
    private static ExecutorService virtualThreads() {
        try {
            return (ExecutorService) MethodHandles.publicLookup().findStatic(Executors.class,
                    "newVirtualThreadPerTaskExecutor", MethodType.methodType(ExecutorService.class)).invoke();
        } catch (Throwable e) {
            throw new IllegalStateException("virtual threads need Java 21 or later", e);
        }
    }
}
