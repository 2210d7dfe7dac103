package io.github.boundedupload.s3.internal;

import java.time.Duration;
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
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
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

    private static final int CLEANUP_ATTEMPTS = 3;

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
    public CompletableFuture<ListMultipartUploadsResponse> listUploads(ListMultipartUploadsRequest request) {
        return call(() -> client.listMultipartUploads(request));
    }

    /** Waits on this thread; an interrupt ends the wait early (and stays set). */
    @Override
    public CompletableFuture<Void> settle(Duration delay) {
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
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
                        || !(Failures.unwrap(result.handle((v, e) -> e).join()) instanceof AbortedException)) {
                    return result;
                }
            }
        } finally {
            if (interrupted | Thread.interrupted()) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
