package io.github.boundedupload.s3.internal;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
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
 * The S3 calls an upload makes, behind one face for both clients, so that one {@link Transfer} serves both
 * uploaders. Every call holds one of the uploader's permits while it runs. The blocking implementation runs each call
 * on the calling thread and returns a completed future; the non-blocking one returns at once.
 * Changes when an upload needs another S3 call.
 */
interface S3Ops {

    /**
     * Whether a request that sends a whole non-empty file fails by itself when the file's size is not the one checked:
     * the blocking client reads every body through one stream that fails when the file ends early and, at its last
     * byte, looks one byte past it ({@code PayloadStreams.Tracked}). When not, the upload asks the file's size again
     * after it was sent.
     */
    boolean noticesChangedFiles();

    CompletableFuture<PutObjectResponse> put(PutObjectRequest request, Payload payload, Cancellables tasks);

    CompletableFuture<CreateMultipartUploadResponse> create(CreateMultipartUploadRequest request);

    CompletableFuture<UploadPartResponse> uploadPart(UploadPartRequest request, Payload payload, Cancellables tasks);

    /** A part copied from an object of the bucket (a range of it), in parallel as {@link #uploadPart} is. */
    CompletableFuture<UploadPartCopyResponse> uploadPartCopy(UploadPartCopyRequest request, Cancellables tasks);

    CompletableFuture<CompleteMultipartUploadResponse> complete(CompleteMultipartUploadRequest request);

    CompletableFuture<AbortMultipartUploadResponse> abort(AbortMultipartUploadRequest request);

    CompletableFuture<HeadObjectResponse> head(HeadObjectRequest request);

    CompletableFuture<CopyObjectResponse> copy(CopyObjectRequest request);

    CompletableFuture<DeleteObjectResponse> delete(DeleteObjectRequest request);

    CompletableFuture<ListMultipartUploadsResponse> listUploads(ListMultipartUploadsRequest request);

    CompletableFuture<ListObjectsV2Response> list(ListObjectsV2Request request);

    /**
     * Completes after {@code delay}: time for a request the network held to reach S3 before the upload's fate is
     * decided. The blocking implementation waits on the calling thread.
     */
    CompletableFuture<Void> settle(Duration delay);

    /**
     * Blocking work (reading content): on the calling thread, or on the uploader's read executor. Cancelling the
     * returned future interrupts the work.
     */
    <T> CompletableFuture<T> read(Callable<T> work);

    /**
     * A call that cleans up after a failure, which must run even when the failure was an interrupt: the blocking
     * implementation runs it with the thread's interrupt status cleared, then restores it.
     */
    <T> CompletableFuture<T> cleanup(Supplier<CompletableFuture<T>> call);
}
