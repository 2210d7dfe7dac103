package io.github.boundedupload.spi;

import io.github.boundedupload.StoredObject;
import java.util.concurrent.CompletableFuture;

/**
 * The storage, for clients that do not block (for example the AWS SDK's {@code S3AsyncClient}): an upload holds one
 * of the uploader's permits until its future completes, but no thread. 500 uploads of two seconds each then finish
 * in about two seconds with a handful of threads.
 *
 * <p>Implementations must be thread-safe and must return quickly: do not block in these methods. Cancelling a
 * returned future must abort the request (the uploader cancels it on timeout).
 */
public interface AsyncFileUploader {

    /**
     * Starts storing the request's content under its key, replacing any object with that key.
     *
     * @param request what to store and where
     * @return completes with what the storage holds, or exceptionally
     */
    CompletableFuture<StoredObject> upload(UploadRequest request);

    /**
     * Starts deleting the object under a key; deleting a key that holds nothing is not an error.
     *
     * @param key the key
     * @return completes when the object is gone, or exceptionally
     */
    CompletableFuture<Void> delete(String key);
}
