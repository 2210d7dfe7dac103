package io.github.boundedupload.s3.internal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.internal.crt.S3CrtAsyncClient;
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
 * {@link S3Ops} on the non-blocking client: every call goes through the {@link RequestLimiter}, so that no more
 * requests are in flight than the client's connection pool serves; blocking reads run on the read executor.
 * Changes when the non-blocking client is called otherwise.
 */
public final class AsyncOps implements S3Ops {

    /** As many requests may wait as Netty lets wait for a connection by default (maxPendingConnectionAcquires). */
    public static final int MAX_WAITING = 10_000;

    private final S3AsyncClient client;
    private final RequestLimiter limiter;
    private final Executor reads;
    private final boolean crt;

    public AsyncOps(S3AsyncClient client, int maxConcurrency, Executor reads) {
        this.client = client;
        this.limiter = new RequestLimiter(maxConcurrency, MAX_WAITING);
        this.reads = reads;
        this.crt = client instanceof S3CrtAsyncClient;
    }

    /** The limiter, for tests that watch it. */
    public RequestLimiter limiter() {
        return limiter;
    }

    /** A file body reads its range and does not look past it. */
    @Override
    public boolean noticesChangedFiles() {
        return false;
    }

    @Override
    public CompletableFuture<PutObjectResponse> put(PutObjectRequest request, Payload payload, Cancellables tasks) {
        Optional<Path> file = crt ? payload.wholeFile() : Optional.empty();
        if (file.isPresent()) {
            // The CRT client reads a file it is given by path in native code, in parallel parts. Scenario C on
            // versitygw (docs/benchmarks.md): 440 MB/s and 0.74 CPU-s a run, against 290 MB/s and 2.19 CPU-s for the
            // same files as a Java body.
            return limiter.run(() -> {
                payload.sent.readByClient(file.get()); // only once the client has the request
                return client.putObject(request, file.get()).thenApply(response -> {
                    payload.sent.succeeded();
                    return response;
                });
            });
        }
        return limiter.run(() -> client.putObject(request, payload.async(reads, tasks)));
    }

    @Override
    public CompletableFuture<CreateMultipartUploadResponse> create(CreateMultipartUploadRequest request) {
        return limiter.run(() -> client.createMultipartUpload(request));
    }

    @Override
    public CompletableFuture<UploadPartResponse> uploadPart(UploadPartRequest request, Payload payload,
            Cancellables tasks) {
        return limiter.run(() -> client.uploadPart(request, payload.async(reads, tasks)));
    }

    @Override
    public CompletableFuture<UploadPartCopyResponse> uploadPartCopy(UploadPartCopyRequest request,
            Cancellables tasks) {
        return limiter.run(() -> client.uploadPartCopy(request));
    }

    @Override
    public CompletableFuture<CompleteMultipartUploadResponse> complete(CompleteMultipartUploadRequest request) {
        return limiter.run(() -> client.completeMultipartUpload(request));
    }

    @Override
    public CompletableFuture<AbortMultipartUploadResponse> abort(AbortMultipartUploadRequest request) {
        return limiter.run(() -> client.abortMultipartUpload(request));
    }

    @Override
    public CompletableFuture<CopyObjectResponse> copy(CopyObjectRequest request) {
        return limiter.run(() -> client.copyObject(request));
    }

    @Override
    public CompletableFuture<HeadObjectResponse> head(HeadObjectRequest request) {
        return limiter.run(() -> client.headObject(request));
    }

    @Override
    public CompletableFuture<DeleteObjectResponse> delete(DeleteObjectRequest request) {
        return limiter.run(() -> client.deleteObject(request));
    }

    @Override
    public CompletableFuture<ListMultipartUploadsResponse> listUploads(ListMultipartUploadsRequest request) {
        return limiter.run(() -> client.listMultipartUploads(request));
    }

    @Override
    public CompletableFuture<ListObjectsV2Response> list(ListObjectsV2Request request) {
        return limiter.run(() -> client.listObjectsV2(request));
    }

    /** The JDK's shared delay scheduler; no thread of ours waits. */
    @Override
    public CompletableFuture<Void> settle(Duration delay) {
        return CompletableFuture.runAsync(() -> { },
                CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS));
    }

    @Override
    public <T> CompletableFuture<T> read(Callable<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        FutureTask<T> task = new FutureTask<>(work) {
            @Override
            protected void done() {
                try {
                    T value = get();
                    if (!result.complete(value) && value instanceof AutoCloseable) {
                        close((AutoCloseable) value); // nobody waits for it any more: an open stream must not leak
                    }
                } catch (ExecutionException e) {
                    result.completeExceptionally(e.getCause());
                } catch (InterruptedException | RuntimeException e) {
                    result.completeExceptionally(e);
                }
            }
        };
        result.whenComplete((value, failure) -> {
            if (result.isCancelled()) {
                task.cancel(true);
            }
        });
        try {
            reads.execute(task);
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(e);
        }
        return result;
    }

    @Override
    public <T> CompletableFuture<T> cleanup(Supplier<CompletableFuture<T>> call) {
        return call.get();
    }

    private static void close(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            // What was read is thrown away; failing to close it changes nothing for the upload.
        }
    }
}
