package io.github.boundedupload.s3.internal;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * {@link S3Ops} on the blocking client: every call runs on the calling thread, after taking one of
 * {@code maxConcurrency} permits (fairly, interruptibly), so that more threads than the client has connections wait
 * here, for as long as their upload may take, instead of failing in the client's pool after its acquisition timeout.
 */
public final class SyncOps implements S3Ops {

    private final S3Client client;
    private final Semaphore permits;

    public SyncOps(S3Client client, int maxConcurrency) {
        this.client = client;
        this.permits = new Semaphore(maxConcurrency, true);
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
        return call(() -> client.uploadPart(request, payload.sync()));
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
    public CompletableFuture<HeadObjectResponse> head(HeadObjectRequest request) {
        return call(() -> client.headObject(request));
    }

    @Override
    public CompletableFuture<DeleteObjectResponse> delete(DeleteObjectRequest request) {
        return call(() -> client.deleteObject(request));
    }

    @Override
    public <T> CompletableFuture<T> read(Callable<T> work) {
        try {
            return CompletableFuture.completedFuture(work.call());
        } catch (Exception | Error e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public <T> CompletableFuture<T> cleanup(Supplier<CompletableFuture<T>> call) {
        boolean interrupted = Thread.interrupted();
        try {
            return call.get();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
