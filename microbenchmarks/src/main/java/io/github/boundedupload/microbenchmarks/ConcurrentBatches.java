package io.github.boundedupload.microbenchmarks;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Many requests at once, each with a few attachments: 64 threads each upload a batch of {@code batchSize} (10) at the
 * same time, through one uploader of 64 permits, against the same calls as bare {@code CompletableFuture}s on the same
 * executor ({@link PerUploadOverhead} has the executors and the storage that does nothing). This is the web
 * application's shape (one batch per request thread), where every batch's submission and end meet on the uploader's
 * one lock, and where the issue that asked for it saw about twice a bare pool's time per upload. Average time per batch
 * as each thread sees it, making its batch's list included on both sides; divide by {@code batchSize} for the time per
 * upload. Changes when the shape of the concurrent load changes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Threads(64)
public class ConcurrentBatches {

    /** Attachments per batch, per submitting thread. */
    @Param({"10"})
    public int batchSize;

    /** As in {@link PerUploadOverhead#executor}. */
    @Param({"platform", "virtual", "own", "own-virtual"})
    public String executor;

    private ExecutorService pool;
    private ConcurrentAttachmentUploader uploader;

    /**
     * One submitting thread's batches, each under keys of its own, as a key strategy gives them: batches that write
     * the same key at once would wait for each other (one writer per key), which is not the cost measured here.
     */
    @State(Scope.Thread)
    public static class Submitter {
        private static final AtomicInteger THREADS = new AtomicInteger();
        private final int thread = THREADS.incrementAndGet();
        private long batches;

        List<Attachment> next(int size) {
            return PerUploadOverhead.attachments(size, "jmh/" + thread + "/" + batches++ + "/");
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        pool = PerUploadOverhead.executorFor(executor);
        uploader = PerUploadOverhead.uploaderOn(executor, pool);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        uploader.close();
        pool.shutdownNow();
    }

    @Benchmark
    public BatchResult uploader(Submitter submitter) {
        return uploader.uploadAll(submitter.next(batchSize));
    }

    @Benchmark
    public Object bareCompletableFutures(Submitter submitter) {
        return PerUploadOverhead.bare(submitter.next(batchSize), pool);
    }
}
