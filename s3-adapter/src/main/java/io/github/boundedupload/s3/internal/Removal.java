package io.github.boundedupload.s3.internal;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.support.Causes;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;

/**
 * Deleting what uploads left under a key, to undo them, for either client. Deleting a stored object deletes exactly
 * the version the upload stored where the bucket keeps versions, and otherwise only if the key still holds that
 * object (a delete conditional on its ETag, {@code If-Match}), so that an object another writer stored under the same
 * key since stays; a server that does not implement conditional deletes (LocalStack answers 501) gets a plain delete of
 * the key from then on. Deleting a key (what a failed upload may have left) deletes the object and aborts the
 * incomplete multipart uploads of exactly that key, whose parts would otherwise stay stored and billed.
 * Changes when what undoing an upload deletes changes.
 */
public final class Removal {

    /** More incomplete multipart uploads of one key than this means something else is wrong: stop, say so. */
    private static final int MAX_PAGES = 10;

    private final Settings settings;
    private final S3Ops ops;
    /** Whether the server honours If-Match on a delete, until it says it does not. */
    private volatile boolean conditionalDeletes = true;

    public Removal(Settings settings, S3Ops ops) {
        this.settings = settings;
        this.ops = ops;
    }

    /**
     * The object an upload stored: its version when it has one; else the key's object if it still has the ETag the
     * upload got (an object with another ETag replaced it: the upload's is gone already); else the key's object.
     */
    public CompletableFuture<Void> object(StoredObject stored) {
        DeleteObjectRequest.Builder delete = DeleteObjectRequest.builder().bucket(settings.bucket())
                .key(stored.key());
        String version = stored.versionId().orElse(null);
        String eTag = stored.eTag().orElse(null);
        if (version != null) {
            delete.versionId(version);
        } else if (eTag != null && conditionalDeletes) {
            return ops.delete(delete.ifMatch(eTag).build()).handle((deleted, failure) -> {
                if (failure == null || Failures.preconditionFailed(failure) || Failures.notFound(failure)) {
                    return CompletableFuture.<Void>completedFuture(null); // gone, or replaced by another object
                }
                if (Failures.notImplemented(failure)) {
                    conditionalDeletes = false;
                    return object(stored);
                }
                return CompletableFuture.<Void>failedFuture(failure);
            }).thenCompose(done -> done);
        }
        return ops.delete(delete.build()).thenApply(deleted -> null);
    }

    /** The key's object, and every incomplete multipart upload of exactly that key. */
    public CompletableFuture<Void> key(String key) {
        return ops.delete(DeleteObjectRequest.builder().bucket(settings.bucket()).key(key).build())
                .thenCompose(deleted -> abortUploads(key, null, null, 1));
    }

    private CompletableFuture<Void> abortUploads(String key, @Nullable String keyMarker,
            @Nullable String uploadIdMarker, int page) {
        return ops.listUploads(ListMultipartUploadsRequest.builder().bucket(settings.bucket()).prefix(key)
                        .keyMarker(keyMarker).uploadIdMarker(uploadIdMarker).build())
                .thenCompose(listed -> CompletableFuture.allOf(listed.uploads().stream()
                                .filter(upload -> key.equals(upload.key()))
                                .map(upload -> abort(key, upload.uploadId()))
                                .toArray(CompletableFuture[]::new))
                        .thenCompose(aborted -> next(key, listed, page)));
    }

    private CompletableFuture<Void> next(String key, ListMultipartUploadsResponse listed, int page) {
        if (!Boolean.TRUE.equals(listed.isTruncated())) {
            return CompletableFuture.completedFuture(null);
        }
        if (page == MAX_PAGES) {
            return CompletableFuture.failedFuture(new IllegalStateException("more than " + MAX_PAGES
                    + " pages of incomplete multipart uploads start with this key; abort them with a lifecycle rule"));
        }
        return abortUploads(key, listed.nextKeyMarker(), listed.nextUploadIdMarker(), page + 1);
    }

    private CompletableFuture<Void> abort(String key, String uploadId) {
        return ops.abort(AbortMultipartUploadRequest.builder().bucket(settings.bucket()).key(key).uploadId(uploadId)
                        .build())
                .handle((aborted, failure) -> {
                    if (failure != null && !Failures.notFound(failure)) {
                        throw new java.util.concurrent.CompletionException(Causes.unwrap(failure));
                    }
                    return null; // aborted, or gone already (completed or aborted meanwhile)
                });
    }
}
