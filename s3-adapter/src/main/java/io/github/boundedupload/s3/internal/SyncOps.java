package io.github.boundedupload.s3.internal;

import io.github.boundedupload.support.Causes;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;
import software.amazon.awssdk.services.s3.model.UploadPartCopyResponse;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * {@link S3Ops} on the blocking client: every call runs on the calling thread, after taking one of
 * {@code maxConcurrency} permits (fairly, interruptibly), so that more threads than the client has connections wait
 * here, for as long as their upload may take, instead of failing in the client's pool after its acquisition timeout.
 * Changes when the blocking client is called otherwise.
 *
 * <p>Parts of a multipart upload are the exception when there are part threads: each part then runs on a thread of
 * its own (virtual where the JDK has them, never a pool), so that up to {@code partsInFlight} parts of one upload are
 * sent at once, each still holding a permit. Cancelling the upload interrupts them; the future of a part completes
 * only when its thread is done with it, so that a multipart upload is never aborted while one of its parts is still
 * being sent (S3 could keep that part).
 */
public final class SyncOps implements S3Ops {

    private static final int CLEANUP_ATTEMPTS = 3;

    private final S3Client client;
    private final Semaphore permits;
    private final @Nullable ThreadFactory partThreads;

    /**
     * @param partThreads where parts run, a thread each; {@code null}: on the calling thread, one after another
     */
    public SyncOps(S3Client client, int maxConcurrency, @Nullable ThreadFactory partThreads) {
        this.client = client;
        this.permits = new Semaphore(maxConcurrency, true);
        this.partThreads = partThreads;
    }

    private <T> CompletableFuture<T> call(Supplier<T> call) {
        try {
            permits.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(AbortedException.builder()
                    .message("interrupted while waiting for a connection permit").cause(e).build());
        }
        try {
            return CompletableFuture.completedFuture(call.get());
        } catch (RuntimeException | Error e) {
            return CompletableFuture.failedFuture(e);
        } finally {
            permits.release();
        }
    }

    /** Every body is read through a stream that fails when the file ends early or goes on past its size. */
    @Override
    public boolean noticesChangedFiles() {
        return true;
    }

    @Override
    public CompletableFuture<PutObjectResponse> put(PutObjectRequest request, Payload payload, Cancellables tasks) {
        return call(() -> client.putObject(request, payload.sync()));
    }

    @Override
    public CompletableFuture<CreateMultipartUploadResponse> create(CreateMultipartUploadRequest request) {
        return call(() -> client.createMultipartUpload(request));
    }

    @Override
    public CompletableFuture<UploadPartResponse> uploadPart(UploadPartRequest request, Payload payload,
            Cancellables tasks) {
        Supplier<CompletableFuture<UploadPartResponse>> part = () -> call(() -> client.uploadPart(request,
                payload.sync()));
        return partThreads == null ? part.get() : new OwnThread<>(part, tasks).start(partThreads);
    }

    @Override
    public CompletableFuture<UploadPartCopyResponse> uploadPartCopy(UploadPartCopyRequest request,
            Cancellables tasks) {
        Supplier<CompletableFuture<UploadPartCopyResponse>> part = () -> call(() -> client.uploadPartCopy(request));
        return partThreads == null ? part.get() : new OwnThread<>(part, tasks).start(partThreads);
    }

    @Override
    public CompletableFuture<CompleteMultipartUploadResponse> complete(CompleteMultipartUploadRequest request) {
        return call(() -> client.completeMultipartUpload(request));
    }

    @Override
    public CompletableFuture<AbortMultipartUploadResponse> abort(AbortMultipartUploadRequest request) {
        return call(() -> client.abortMultipartUpload(request));
    }

    @Override
    public CompletableFuture<CopyObjectResponse> copy(CopyObjectRequest request) {
        return call(() -> client.copyObject(request));
    }

    @Override
    public CompletableFuture<HeadObjectResponse> head(HeadObjectRequest request) {
        return call(() -> client.headObject(request));
    }

    @Override
    public CompletableFuture<DeleteObjectResponse> delete(DeleteObjectRequest request) {
        return call(() -> client.deleteObject(request));
    }

    @Override
    public CompletableFuture<ListMultipartUploadsResponse> listUploads(ListMultipartUploadsRequest request) {
        return call(() -> client.listMultipartUploads(request));
    }

    @Override
    public CompletableFuture<ListObjectsV2Response> list(ListObjectsV2Request request) {
        return call(() -> client.listObjectsV2(request));
    }

    /**
     * Waits on this thread for the whole delay, interrupted or not (the interrupt stays set for afterwards). The core
     * interrupts an upload when it times out (when the SDK's own call timeout, set to the same deadline, has just given
     * up the request) or when its batch fails: a wait an interrupt cut short looked again at once, while the request
     * held by the network was still on its way, and the object it stored a moment later was left behind, reported not
     * stored. The core gives up a call that takes longer than its stop timeout, and removes what it stores at last.
     */
    @Override
    public CompletableFuture<Void> settle(Duration delay) {
        long end = System.nanoTime() + delay.toNanos();
        boolean interrupted = false;
        for (long left = delay.toNanos(); left > 0; left = end - System.nanoTime()) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public <T> CompletableFuture<T> read(Callable<T> work) {
        try {
            return CompletableFuture.completedFuture(work.call());
        } catch (Exception | Error e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Runs with the interrupt status cleared, and again (at most {@value #CLEANUP_ATTEMPTS} times) when an interrupt
     * arrives during the call: the core interrupts an upload once, at any moment, also while it cleans up after the
     * SDK's own timeout. The interrupt status is restored afterwards.
     */
    @Override
    public <T> CompletableFuture<T> cleanup(Supplier<CompletableFuture<T>> call) {
        boolean interrupted = false;
        try {
            for (int attempt = 1; ; attempt++) {
                interrupted |= Thread.interrupted();
                CompletableFuture<T> result = call.get();
                if (attempt == CLEANUP_ATTEMPTS || !result.isCompletedExceptionally()
                        || !byInterrupt(Causes.unwrap(result.handle((v, e) -> e).join()))) {
                    return result;
                }
            }
        } finally {
            if (interrupted | Thread.interrupted()) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Whether a blocking call failed because its thread was interrupted: the SDK's {@code AbortedException}, an
     * interrupted read, or a {@code CancellationException} (seen once in LostAnswerIT: the core's timeout interrupted
     * the HeadObject of the lost-answer check, and Apache's client ended it so; nothing else cancels a blocking call).
     */
    private static boolean byInterrupt(Throwable failure) {
        return Failures.interrupted(failure) || failure instanceof CancellationException;
    }

    /**
     * A call on a thread of its own, registered with the upload's tasks: cancelling the upload interrupts the thread,
     * or, before it started, skips the call. Its future cannot be cancelled from outside: it completes when the thread
     * is done with the call.
     */
    private static final class OwnThread<T> implements Runnable, Future<T> {
        private final Supplier<CompletableFuture<T>> call;
        private final Cancellables tasks;
        private final CompletableFuture<T> result = new CompletableFuture<>() {
            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                return false;
            }
        };
        // Guarded by this:
        private @Nullable Thread runner;
        private boolean started;
        private boolean skipped;

        OwnThread(Supplier<CompletableFuture<T>> call, Cancellables tasks) {
            this.call = call;
            this.tasks = tasks;
        }

        CompletableFuture<T> start(ThreadFactory threads) {
            tasks.add(this);
            Thread thread;
            try {
                thread = threads.newThread(this);
                if (thread != null) {
                    thread.start();
                    return result;
                }
            } catch (RuntimeException | Error e) { // no thread to be had (the JVM's limit): the part fails, and says why
                tasks.remove(this);
                result.completeExceptionally(e);
                return result;
            }
            run(); // a factory that gives no thread: here, then
            return result;
        }

        @Override
        public void run() {
            synchronized (this) {
                if (skipped) {
                    return;
                }
                started = true;
                runner = Thread.currentThread();
            }
            try {
                // Completed while this thread still counts as running it: what follows the call (the next part, the
                // completion of the upload) is interrupted by a cancel too.
                call.get().whenComplete((value, failure) -> {
                    if (failure != null) {
                        result.completeExceptionally(failure);
                    } else {
                        result.complete(value);
                    }
                });
            } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
            } finally {
                synchronized (this) {
                    runner = null;
                }
                tasks.remove(this);
            }
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            synchronized (this) {
                if (started) {
                    if (runner != null) {
                        runner.interrupt();
                    }
                    return false;
                }
                skipped = true;
            }
            tasks.remove(this);
            return result.completeExceptionally(new CancellationException("the upload was cancelled"));
        }

        @Override
        public synchronized boolean isCancelled() {
            return skipped;
        }

        @Override
        public boolean isDone() {
            return result.isDone();
        }

        @Override
        public T get() throws InterruptedException, ExecutionException {
            return result.get();
        }

        @Override
        public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
            return result.get(timeout, unit);
        }
    }
}
