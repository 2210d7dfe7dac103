package io.github.boundedupload.s3.internal;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.s3.S3UploadOptions;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResult;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.MetadataDirective;

/**
 * Content that is an object of the bucket already ({@code AttachmentContent.ofStoredObject}): HeadObject checks it
 * against its description (size, and the ETag and checksum where given), then one CopyObject, conditional on the ETag
 * just seen (an object replaced in between is not copied), writes it under the upload's key with the upload's fields
 * (content type, disposition, metadata, storage class, encryption, checksum): its bytes never leave S3. Above the
 * multipart threshold (and always above the 5 GiB one CopyObject copies) it is a multipart upload whose parts are
 * copied ({@link Multipart} with a {@link Multipart.CopySource}), cleaned up as any multipart upload. When the
 * copy's answer is lost, HeadObject on the key settles it, as for a PutObject: ours when its size and checksum are
 * the source's. Changes when the steps of a server-side copy change.
 */
final class ObjectCopy {

    private final ObjectUpload upload;

    ObjectCopy(ObjectUpload upload) {
        this.upload = upload;
    }

    CompletableFuture<StoredObject> copy(StoredObject source) {
        HeadObjectRequest.Builder head = HeadObjectRequest.builder().bucket(upload.settings.bucket())
                .key(source.key()).checksumMode(ChecksumMode.ENABLED).overrideConfiguration(upload.callTimeout());
        source.versionId().ifPresent(head::versionId);
        return upload.track(upload.ops.head(head.build())).handle((found, failure) -> {
            if (failure != null) {
                return CompletableFuture.<StoredObject>failedFuture(Failures.notFound(failure)
                        ? new IOException("no object under the key to copy from") : failure);
            }
            String mismatch = mismatch(source, found);
            if (mismatch != null) {
                return CompletableFuture.<StoredObject>failedFuture(new IOException(mismatch));
            }
            if (source.size() > Math.min(upload.options.multipartThreshold(), S3UploadOptions.MAX_SINGLE_UPLOAD_SIZE)) {
                // In parts, as an upload of that size would go: UploadPartCopy of each range, conditional on the ETag.
                try {
                    return new Multipart(upload, new Multipart.CopySource(source.key(), found.eTag(),
                            source.versionId().orElse(null))).upload(new Parts.SliceParts(source.size(),
                                    upload.partSize(source.size()), (offset, size) -> null));
                } catch (IOException e) {
                    return CompletableFuture.<StoredObject>failedFuture(e);
                }
            }
            return copyChecked(source, found);
        }).thenCompose(Function.identity());
    }

    /** Why the object found is not the one described, or {@code null} when it is. */
    private static @Nullable String mismatch(StoredObject source, HeadObjectResponse found) {
        Long size = found.contentLength();
        if (size == null || size != source.size()) {
            return "the object to copy has " + size + " bytes, not the " + source.size() + " it was said to have";
        }
        if (source.eTag().isPresent() && !source.eTag().get().equals(found.eTag())) {
            return "the object to copy has the ETag " + found.eTag() + ", not the " + source.eTag().get()
                    + " it was said to have";
        }
        if (source.checksum().isEmpty()) {
            return null;
        }
        String name = source.checksumAlgorithm().orElse("");
        ChecksumAlgorithm algorithm = ChecksumAlgorithm.fromValue(name);
        if (algorithm == ChecksumAlgorithm.UNKNOWN_TO_SDK_VERSION) {
            return "the object to copy was said to have a checksum of an unknown algorithm (" + name + ")";
        }
        String kept = checksumOf(algorithm, found);
        if (kept == null) {
            return "S3 keeps no " + algorithm + " checksum of the object to copy: it cannot be checked";
        }
        return kept.equals(source.checksum().get()) ? null : "the object to copy has the " + algorithm
                + " checksum " + kept + ", not the " + source.checksum().get() + " it was said to have";
    }

    private static @Nullable String checksumOf(ChecksumAlgorithm algorithm, HeadObjectResponse head) {
        // A checksum of parts ("...-3") is not one of the whole object: it cannot be compared with one.
        String value = Digest.pick(algorithm, head::checksumCRC32, head::checksumCRC32C, head::checksumSHA1,
                head::checksumSHA256);
        return value == null || value.contains("-") ? null : value;
    }

    private CompletableFuture<StoredObject> copyChecked(StoredObject source, HeadObjectResponse found) {
        CopyObjectRequest.Builder copy = CopyObjectRequest.builder();
        ObjectUpload.copyFields(upload.object().build(), copy);
        copy.sourceBucket(upload.settings.bucket()).sourceKey(source.key())
                .destinationBucket(upload.settings.bucket()).destinationKey(upload.key)
                .copySourceIfMatch(found.eTag()).metadataDirective(MetadataDirective.REPLACE)
                .overrideConfiguration(upload.callTimeout());
        source.versionId().ifPresent(copy::sourceVersionId);
        // The source's checksum in the algorithm the copy asks S3 to keep, when S3 keeps that one: what a lost
        // answer's look at the key compares.
        String expected = checksumOf(upload.algorithm, found);
        return upload.track(upload.ops.copy(copy.build())).handle((copied, failure) -> {
            if (failure == null) {
                CopyObjectResult result = copied.copyObjectResult();
                upload.request.reportProgress(source.size());
                return upload.keep(upload.stored(source.size(), result.eTag(), copied.versionId(), Digest.pick(
                        upload.algorithm, result::checksumCRC32, result::checksumCRC32C, result::checksumSHA1,
                        result::checksumSHA256)));
            }
            if (Failures.refused(failure)) {
                return CompletableFuture.<StoredObject>failedFuture(Failures.preconditionFailed(failure)
                        ? new IOException("the object to copy changed after it was checked", failure) : failure);
            }
            return expected == null ? upload.outcomeUnknown(failure, "the copy's answer was lost, and S3 keeps no "
                    + upload.algorithm + " checksum of the source to compare what is stored with")
                    : upload.lookFor(source.size(), expected, failure, true, false);
        }).thenCompose(Function.identity());
    }
}
