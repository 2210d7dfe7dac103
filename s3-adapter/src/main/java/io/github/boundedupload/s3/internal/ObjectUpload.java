package io.github.boundedupload.s3.internal;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.s3.S3UploadOptions;
import io.github.boundedupload.spi.UploadRequest;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * One upload's state and what every step of it uses: the request, where it goes, its deadline and its running
 * requests (cancelled together), the fields every object is stored with, and how a result becomes a
 * {@link StoredObject} (or is deleted again when the upload was cancelled meanwhile). {@link Transfer} plans the
 * upload; {@link SinglePut}, {@link Multipart} and {@link Parts} carry it out.
 * Changes when what the steps of an upload share changes.
 */
final class ObjectUpload {

    static final Logger LOG = LoggerFactory.getLogger("io.github.boundedupload.s3");
    /** How long each clean-up request (abort, check, delete) may take, even after the upload's own time ran out. */
    static final Duration CLEANUP_TIMEOUT = Duration.ofSeconds(10);
    static final AwsRequestOverrideConfiguration CLEANUP =
            AwsRequestOverrideConfiguration.builder().apiCallTimeout(CLEANUP_TIMEOUT).build();
    /**
     * How long to wait, after a request whose answer was lost, before deciding that S3 did not act on it: a request
     * held by the network can still arrive.
     */
    static final Duration SETTLE = Duration.ofSeconds(2);
    /** How far S3's clock may be behind ours when telling our multipart uploads from older ones. */
    static final Duration CLOCK_SKEW = Duration.ofMinutes(1);
    /** The most bytes asked of a stream in one read (see {@link Parts#readFully}). */
    static final int READ_STEP = 64 * 1024;
    /** S3's limit of parts per upload. */
    static final int MAX_PARTS = 10_000;

    final Settings settings;
    final S3UploadOptions options;
    final S3Ops ops;
    final UploadRequest request;
    final String key;
    final ChecksumAlgorithm algorithm;
    final @Nullable Long deadline;
    final Cancellables tasks = new Cancellables();

    ObjectUpload(Settings settings, S3Ops ops, UploadRequest request) {
        this.settings = settings;
        this.options = settings.options();
        this.ops = ops;
        this.request = request;
        this.key = request.key();
        this.algorithm = options.checksumAlgorithm();
        this.deadline = request.timeout().map(t -> System.nanoTime() + t.toNanos()).orElse(null);
    }

    <T> CompletableFuture<T> track(CompletableFuture<T> future) {
        return tasks.add(future);
    }

    /** Per-request timeout: what is left of the upload's time, so that the SDK gives up when the uploader does. */
    @Nullable AwsRequestOverrideConfiguration callTimeout() {
        if (deadline == null) {
            return null;
        }
        return settings.callTimeout(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
    }

    /**
     * What is stored with the object, whether it goes up in one request or in parts: the one place the options and
     * the attachment become request fields.
     */
    PutObjectRequest.Builder object() {
        PutObjectRequest.Builder object = PutObjectRequest.builder()
                .bucket(settings.bucket())
                .key(key)
                .contentType(request.contentType())
                .contentDisposition(Headers.contentDisposition(options.contentDisposition(), request.fileName()))
                .checksumAlgorithm(algorithm);
        if (!request.metadata().isEmpty()) {
            // Only when there is some: a request with metadata, even none, is copied whole by the SDK's
            // ObjectMetadataInterceptor (to trim the names), on every PutObject.
            object.metadata(Headers.metadata(request.metadata()));
        }
        options.storageClass().ifPresent(object::storageClass);
        options.serverSideEncryption().ifPresent(object::serverSideEncryption);
        options.kmsKeyId().ifPresent(object::ssekmsKeyId);
        return object;
    }

    /** Copies every field that both requests have, by name (how the SDK converts between its own requests). */
    static void copyFields(SdkPojo from, SdkPojo to) {
        Map<String, SdkField<?>> fields = new HashMap<>();
        to.sdkFields().forEach(field -> fields.put(field.memberName(), field));
        for (SdkField<?> field : from.sdkFields()) {
            SdkField<?> target = fields.get(field.memberName());
            Object value = field.getValueOrDefault(from);
            if (target != null && value != null) {
                target.set(to, value);
            }
        }
    }

    /** A stored object for the caller, or, when the upload was cancelled meanwhile, deleted again. */
    CompletableFuture<StoredObject> keep(StoredObject stored) {
        return tasks.cancelled() ? deleteAgain() : CompletableFuture.completedFuture(stored);
    }

    CompletableFuture<StoredObject> deleteAgain() {
        LOG.debug("s3://{}/{}: stored, but the upload was cancelled: deleting it", settings.bucket(), key);
        CancellationException cancelled = new CancellationException("the upload was cancelled");
        return ops.cleanup(() -> ops.delete(DeleteObjectRequest.builder().bucket(settings.bucket()).key(key)
                .overrideConfiguration(CLEANUP).build()))
                .handle((deleted, failure) -> {
                    if (failure == null) {
                        return CompletableFuture.<StoredObject>failedFuture(cancelled);
                    }
                    LOG.warn("s3://{}/{}: the upload was cancelled after S3 stored the object, and deleting it failed"
                            + " ({}); the object is still stored", settings.bucket(), key, Failures.describe(failure));
                    return outcomeUnknown(cancelled, "deleting the object failed: " + Failures.describe(failure));
                }).thenCompose(Function.identity());
    }

    /**
     * Aborts the key's multipart uploads started since {@code asked} (with unique keys, the default key strategy, they
     * can only be this upload's), then fails with {@code failure}; or, when they cannot be aborted, with a failure
     * that says their parts may still be stored.
     */
    CompletableFuture<StoredObject> abortUploadsSince(Instant asked, Throwable failure, String what) {
        return ops.cleanup(() -> ops.listUploads(ListMultipartUploadsRequest.builder().bucket(settings.bucket())
                .prefix(key).overrideConfiguration(CLEANUP).build()))
                .thenCompose(listed -> CompletableFuture.allOf(listed.uploads().stream()
                        .filter(upload -> key.equals(upload.key()) && upload.initiated() != null
                                && !upload.initiated().isBefore(asked.minus(CLOCK_SKEW)))
                        .map(upload -> ops.cleanup(() -> ops.abort(AbortMultipartUploadRequest.builder()
                                .bucket(settings.bucket()).key(key).uploadId(upload.uploadId())
                                .overrideConfiguration(CLEANUP).build())))
                        .toArray(CompletableFuture[]::new)))
                .handle((aborted, cleanupFailure) -> {
                    if (cleanupFailure == null) {
                        return CompletableFuture.<StoredObject>failedFuture(failure);
                    }
                    LOG.warn("s3://{}/{}: {} ({}), and a multipart upload it may have started could not be aborted"
                            + " ({}); a lifecycle rule aborts it", settings.bucket(), key, what,
                            Failures.describe(failure), Failures.describe(cleanupFailure));
                    return CompletableFuture.<StoredObject>failedFuture(Failures.upload(settings, key,
                            request.fileName(), failure, true, "a multipart upload it may have started could not be"
                                    + " aborted (its parts MAY STILL BE STORED until the key is deleted): "
                                    + Failures.describe(cleanupFailure)));
                }).thenCompose(Function.identity());
    }

    CompletableFuture<StoredObject> outcomeUnknown(Throwable failure, String note) {
        LOG.warn("s3://{}/{}: the object may be stored although its upload failed: {}", settings.bucket(), key, note);
        return CompletableFuture.failedFuture(Failures.upload(settings, key, request.fileName(), failure, true,
                note + "; the whole content was sent and no answer came: the object MAY BE STORED"));
    }

    StoredObject stored(long size, @Nullable String eTag, @Nullable String versionId,
            @Nullable String checksum) {
        StoredObject.Builder stored = StoredObject.builder(key, size).eTag(eTag).versionId(versionId);
        if (checksum != null) {
            stored.checksum(algorithm.toString(), checksum);
        }
        try {
            URI location = settings.location().apply(key);
            stored.location(location);
        } catch (RuntimeException e) {
            // The object is stored; a URL we cannot make must not turn that into a failure.
            LOG.warn("s3://{}/{}: stored, but its location could not be made: {}", settings.bucket(), key,
                    Failures.describe(e));
        }
        return stored.build();
    }

    /**
     * After a request that may have stored {@code size} bytes of checksum {@code checksum} under the key lost its
     * answer: HeadObject tells. Stored (and ours) when the object there has that size and checksum; when nothing is
     * there, looked for once more after the settle time ({@code again}), then not stored; another object there is an
     * older one. {@code clientParts}: the client may have sent the content in parts of its own (the CRT client), so that
     * an object of the size with another checksum may be ours after all.
     */
    CompletableFuture<StoredObject> lookFor(long size, @Nullable String checksum, Throwable failure, boolean again,
            boolean clientParts) {
        return ops.cleanup(() -> ops.head(headRequest())).handle((head, headFailure) -> {
            if (headFailure != null && !Failures.notFound(headFailure)) {
                return outcomeUnknown(failure, "checking for the object failed: " + Failures.describe(headFailure));
            }
            if (headFailure != null) {
                LOG.debug("s3://{}/{}: no answer and no object{}", settings.bucket(), key,
                        again ? "; looking again after " + SETTLE : ": not stored");
                return again ? ops.cleanup(() -> ops.settle(SETTLE))
                        .thenCompose(x -> lookFor(size, checksum, failure, false, clientParts))
                        : CompletableFuture.<StoredObject>failedFuture(failure);
            }
            String stored = checksumOf(head);
            boolean sameSize = head.contentLength() != null && head.contentLength() == size;
            if (!sameSize || stored == null || !stored.equals(checksum)) {
                return sameSize && clientParts ? outcomeUnknown(failure, "an object of the file's size is stored,"
                        + " with a checksum that cannot be compared with the file's")
                        : CompletableFuture.<StoredObject>failedFuture(failure); // not ours: an older object
            }
            LOG.debug("s3://{}/{}: the answer was lost, but the object is stored", settings.bucket(), key);
            return keep(stored(size, head.eTag(), head.versionId(), stored));
        }).thenCompose(Function.identity());
    }

    /** The configured part size, raised where the content would need more than {@link #MAX_PARTS} parts. */
    long partSize(long size) throws IOException {
        long partSize = Math.max(options.partSize(), (size + MAX_PARTS - 1) / MAX_PARTS);
        if (partSize > S3UploadOptions.MAX_SINGLE_UPLOAD_SIZE) {
            throw new IOException("the content is " + size + " bytes, more than S3 stores in one object");
        }
        return partSize;
    }

    HeadObjectRequest headRequest() {
        return HeadObjectRequest.builder().bucket(settings.bucket()).key(key).checksumMode(ChecksumMode.ENABLED)
                .overrideConfiguration(CLEANUP).build();
    }

    @Nullable String checksumOf(HeadObjectResponse head) {
        return Digest.pick(algorithm, head::checksumCRC32, head::checksumCRC32C, head::checksumSHA1,
                head::checksumSHA256);
    }
}
