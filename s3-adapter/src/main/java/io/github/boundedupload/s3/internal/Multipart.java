package io.github.boundedupload.s3.internal;

import io.github.boundedupload.StoredObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyPartResult;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * A multipart upload: CreateMultipartUpload, the parts (up to {@code partsInFlight} at once, see {@link PartPump}; sent,
 * or copied from an object of the bucket with UploadPartCopy),
 * CompleteMultipartUpload, and the clean-up of each way it can fail: an upload whose creation was not confirmed is
 * looked for and aborted, a failed or cancelled one is aborted before its future completes, and one whose completion
 * lost its answer is settled by its upload id (aborting it either succeeds, or finds it completed).
 * Changes when the steps of a multipart upload change.
 *
 * <p><b>Why our own multipart loop</b> rather than the SDK's multipart client or its Transfer Manager: both are
 * switched on when a client is built ({@code multipartEnabled(true)}, or the CRT client), and these adapters take
 * the client the application already has; neither exists for the blocking {@code S3Client}; and cancelling their
 * futures does not abort the upload (aws-sdk-java-v2#3274), while the core cancels on every timeout.
 */
final class Multipart {

    private static final Logger LOG = ObjectUpload.LOG;
    /** Aborts of one upload whose parts were cut off, at most (see {@link #afterFailedMultipart}). */
    private static final int MAX_ABORTS = 3;

    /** The object of the bucket whose ranges the parts copy, and the ETag it must still have. */
    record CopySource(String key, String eTag, @Nullable String versionId) {
    }

    private final ObjectUpload upload;
    private final @Nullable CopySource copySource;

    Multipart(ObjectUpload upload) {
        this(upload, null);
    }

    /** A multipart upload whose parts without a body are copied from {@code copySource}. */
    Multipart(ObjectUpload upload, @Nullable CopySource copySource) {
        this.upload = upload;
        this.copySource = copySource;
    }

    CompletableFuture<StoredObject> upload(Parts.PartSource source) {
        CreateMultipartUploadRequest.Builder create = CreateMultipartUploadRequest.builder();
        ObjectUpload.copyFields(upload.object().build(), create);
        create.overrideConfiguration(upload.callTimeout());
        Instant asked = Instant.now();
        return upload.track(upload.ops.create(create.build())).handle((created, failure) -> failure == null
                ? uploadParts(source, created.uploadId()) : afterFailedCreate(failure, asked))
                .thenCompose(Function.identity())
                .whenComplete((stored, failure) -> source.close());
    }

    private CompletableFuture<StoredObject> uploadParts(Parts.PartSource source, String uploadId) {
        AtomicBoolean completing = new AtomicBoolean();
        PartPump pump = new PartPump(source, uploadId);
        return pump.run().thenCompose(parts -> {
            completing.set(true);
            return upload.track(upload.ops.complete(CompleteMultipartUploadRequest.builder()
                    .bucket(upload.settings.bucket()).key(upload.key).uploadId(uploadId)
                    .multipartUpload(m -> m.parts(parts))
                    .overrideConfiguration(upload.callTimeout()).build()));
        }).handle((done, failure) -> failure == null
                ? upload.keep(upload.stored(source.bytes(), done.eTag(), done.versionId(), Digest.pick(upload.algorithm,
                        done::checksumCRC32, done::checksumCRC32C, done::checksumSHA1, done::checksumSHA256)))
                : afterFailedMultipart(uploadId, failure, completing.get() && !Failures.refused(failure),
                        pump.cut(), source.bytes()))
                .thenCompose(Function.identity());
    }

    /**
     * CreateMultipartUpload failed without S3 refusing it: S3 may have started an upload whose id never reached us
     * (the answer was lost, or the request arrived late). After the settle time, the key's uploads started since we
     * asked are aborted; with unique keys (the default key strategy) they can only be ours.
     */
    private CompletableFuture<StoredObject> afterFailedCreate(Throwable failure, Instant asked) {
        if (Failures.refused(failure)) {
            return CompletableFuture.failedFuture(failure);
        }
        return upload.ops.cleanup(() -> upload.ops.settle(ObjectUpload.SETTLE)).thenCompose(settled ->
                upload.abortUploadsSince(asked, failure, "starting the multipart upload failed"));
    }

    /**
     * Aborts the upload. When a part's request was cut off ({@code partsCut}: it failed without S3 refusing it, or was
     * cancelled, with its body perhaps still on its way), S3 may still be storing that part after the abort: as S3's
     * own documentation of AbortMultipartUpload says, "it might be necessary to abort a given multipart upload
     * multiple times". Then, after the settle time, abort again until S3 no longer knows the upload (seen on
     * versitygw, where a late part brought an aborted upload back). A part S3 answered with a refusal is not cut off.
     */
    private CompletableFuture<StoredObject> afterFailedMultipart(String uploadId, Throwable failure,
            boolean mayHaveCompleted, boolean partsCut, long size) {
        return abort(uploadId).handle((aborted, abortFailure) -> {
                    if (abortFailure == null && partsCut && !mayHaveCompleted) {
                        return abortAgain(uploadId, failure, MAX_ABORTS - 1);
                    }
                    if (abortFailure == null && mayHaveCompleted) {
                        // Aborted while S3 may have been completing it: a server that does not make the two exclusive
                        // (LocalStack does not) then stores the object and confirms the abort. Look once the
                        // completion has had its moment.
                        return upload.ops.cleanup(() -> upload.ops.settle(ObjectUpload.SETTLE))
                                .thenCompose(settled -> storedAfterAll(failure, size, true));
                    }
                    // Gone without a completion sent: an earlier abort worked (one whose answer an interrupt cut off).
                    if (abortFailure == null || !mayHaveCompleted && Failures.notFound(abortFailure)) {
                        return CompletableFuture.<StoredObject>failedFuture(failure); // nothing stored, parts gone
                    }
                    if (mayHaveCompleted && Failures.notFound(abortFailure)) {
                        // Nobody else knows the upload id: it is gone because CompleteMultipartUpload worked.
                        return storedAfterAll(failure, size, false);
                    }
                    return notAborted(uploadId, failure, Failures.describe(abortFailure));
                }).thenCompose(Function.identity());
    }

    private CompletableFuture<AbortMultipartUploadResponse> abort(String uploadId) {
        return upload.ops.cleanup(() -> upload.ops.abort(AbortMultipartUploadRequest.builder()
                .bucket(upload.settings.bucket()).key(upload.key).uploadId(uploadId)
                .overrideConfiguration(ObjectUpload.CLEANUP).build()));
    }

    /** After the settle time, aborts again: S3 no longer knowing the upload means its parts are gone. */
    private CompletableFuture<StoredObject> abortAgain(String uploadId, Throwable failure, int left) {
        return upload.ops.cleanup(() -> upload.ops.settle(ObjectUpload.SETTLE)).thenCompose(settled -> abort(uploadId))
                .handle((aborted, abortFailure) -> {
                    if (abortFailure != null && Failures.notFound(abortFailure)) {
                        return CompletableFuture.<StoredObject>failedFuture(failure); // nothing stored, parts gone
                    }
                    if (abortFailure == null && left > 1) {
                        return abortAgain(uploadId, failure, left - 1); // a late part had brought it back
                    }
                    return notAborted(uploadId, failure, abortFailure != null ? Failures.describe(abortFailure)
                            : "parts still arrived after " + MAX_ABORTS + " aborts");
                }).thenCompose(Function.identity());
    }

    private CompletableFuture<StoredObject> notAborted(String uploadId, Throwable failure, String why) {
        LOG.warn("s3://{}/{}: could not abort multipart upload {} ({}); its parts stay stored and billed"
                + " until it is aborted, for example by a lifecycle rule", upload.settings.bucket(),
                upload.key, uploadId, why);
        return CompletableFuture.failedFuture(Failures.upload(upload.settings, upload.key,
                upload.request.fileName(), failure, true, "the incomplete multipart upload " + uploadId
                        + " could not be aborted (its parts MAY STILL BE STORED until the key is deleted): " + why));
    }

    /**
     * The object CompleteMultipartUpload stored although its answer was lost or the upload was cancelled (kept, or
     * deleted again when cancelled); with {@code mayBeAbsent}, no object means nothing was stored.
     */
    private CompletableFuture<StoredObject> storedAfterAll(Throwable failure, long size, boolean mayBeAbsent) {
        return upload.ops.cleanup(() -> upload.ops.head(upload.headRequest())).handle((head, headFailure) -> {
            if (headFailure == null) {
                return upload.keep(upload.stored(Objects.requireNonNullElse(head.contentLength(), size), head.eTag(),
                        head.versionId(), upload.checksumOf(head)));
            }
            if (mayBeAbsent && Failures.notFound(headFailure)) {
                return CompletableFuture.<StoredObject>failedFuture(failure); // nothing stored, parts gone
            }
            return upload.outcomeUnknown(failure, "checking for the object failed: " + Failures.describe(headFailure));
        }).thenCompose(Function.identity());
    }

    /**
     * Uploads the parts, up to {@code partsInFlight} at once (blocking operations on a thread per part, see
     * {@link SyncOps}; without part threads one after another), reading the next part while others are in flight. A
     * drain loop instead of recursion: a blocking operation's future may complete at once, and ten thousand parts must
     * not mean ten thousand stack frames.
     */
    private final class PartPump {
        private final Parts.PartSource source;
        private final String uploadId;
        private final AtomicInteger pending = new AtomicInteger();
        private final CompletableFuture<List<CompletedPart>> done = new CompletableFuture<>();
        // Guarded by this:
        private final List<CompletedPart> parts = new ArrayList<>();
        private int inFlight;
        private boolean reading;
        private boolean exhausted;
        private @Nullable Throwable failure;
        private long sent;
        private boolean cut;

        PartPump(Parts.PartSource source, String uploadId) {
            this.source = source;
            this.uploadId = uploadId;
        }

        CompletableFuture<List<CompletedPart>> run() {
            drain();
            return done;
        }

        /** Whether a part's request failed or was cancelled: S3 may still be receiving it. */
        synchronized boolean cut() {
            return cut;
        }

        private void drain() {
            if (pending.getAndIncrement() != 0) {
                return;
            }
            int missed = 1;
            do {
                step();
                missed = pending.addAndGet(-missed);
            } while (missed != 0);
        }

        private void step() {
            synchronized (this) {
                if (done.isDone()) {
                    return;
                }
                if (failure == null && upload.tasks.cancelled()) {
                    failure = new CancellationException("the upload was cancelled");
                }
                if (failure != null || exhausted) {
                    if (inFlight == 0) {
                        if (failure != null) {
                            done.completeExceptionally(failure);
                        } else {
                            parts.sort(Comparator.comparing(CompletedPart::partNumber));
                            done.complete(List.copyOf(parts));
                        }
                    }
                    return;
                }
                if (reading || inFlight >= upload.options.partsInFlight()) {
                    return;
                }
                reading = true;
            }
            upload.track(source.next()).whenComplete((part, error) -> {
                boolean start;
                synchronized (this) {
                    reading = false;
                    if (error != null && failure == null) {
                        failure = error;
                    }
                    exhausted |= error == null && part == null;
                    start = part != null && failure == null;
                    if (start) {
                        inFlight++;
                    }
                }
                if (start) {
                    upload(part);
                }
                drain();
            });
        }

        private void upload(Parts.Part part) {
            Payload payload = part.payload();
            // Each tracks the request's own future, not the one that maps its answer: cancelling the upload interrupts
            // the part's thread, and the part counts as in flight until that thread is done with it.
            (payload != null ? send(part, payload) : copy(part))
                    .whenComplete((response, error) -> {
                        long progress;
                        synchronized (this) {
                            inFlight--;
                            if (error != null) {
                                // Cut off, unless S3 answered with a refusal: then nothing of it is still travelling.
                                cut |= !Failures.refused(error);
                                // A part that fails once the upload is cancelled fails because of the cancel (its
                                // thread was interrupted, perhaps in a file read): the cancel is the reason.
                                if (failure == null) {
                                    failure = upload.tasks.cancelled()
                                            ? new CancellationException("the upload was cancelled") : error;
                                }
                            } else {
                                parts.add(response);
                                sent += part.length();
                            }
                            progress = sent;
                        }
                        if (error == null && source.reportsProgress()) {
                            upload.request.reportProgress(progress);
                        }
                        drain();
                    });
        }

        private CompletableFuture<CompletedPart> send(Parts.Part part, Payload payload) {
            return upload.track(upload.ops.uploadPart(UploadPartRequest.builder()
                    .bucket(upload.settings.bucket()).key(upload.key).uploadId(uploadId).partNumber(part.number())
                    .contentLength(part.length()).checksumAlgorithm(upload.algorithm)
                    .overrideConfiguration(upload.callTimeout()).build(), payload, upload.tasks))
                    .thenApply(response -> Digest.part(part.number(), response.eTag(), upload.algorithm, Digest.pick(
                            upload.algorithm, response::checksumCRC32, response::checksumCRC32C,
                            response::checksumSHA1, response::checksumSHA256)));
        }

        private CompletableFuture<CompletedPart> copy(Parts.Part part) {
            CopySource from = Objects.requireNonNull(copySource, "a part without a body is copied");
            UploadPartCopyRequest.Builder request = UploadPartCopyRequest.builder()
                    .sourceBucket(upload.settings.bucket()).sourceKey(from.key()).copySourceIfMatch(from.eTag())
                    .copySourceRange("bytes=" + part.offset() + "-" + (part.offset() + part.length() - 1))
                    .destinationBucket(upload.settings.bucket()).destinationKey(upload.key).uploadId(uploadId)
                    .partNumber(part.number()).overrideConfiguration(upload.callTimeout());
            if (from.versionId() != null) {
                request.sourceVersionId(from.versionId());
            }
            return upload.track(upload.ops.uploadPartCopy(request.build(), upload.tasks)).thenApply(response -> {
                CopyPartResult result = response.copyPartResult();
                return Digest.part(part.number(), result.eTag(), upload.algorithm, Digest.pick(upload.algorithm,
                        result::checksumCRC32, result::checksumCRC32C, result::checksumSHA1, result::checksumSHA256));
            });
        }
    }
}
