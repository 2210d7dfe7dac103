package io.github.boundedupload.spi;

import io.github.boundedupload.StoredObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The storage, for clients that do not block (for example the AWS SDK's {@code S3AsyncClient}): an upload holds one
 * of the uploader's permits until its future completes, but no thread. 500 uploads of two seconds each then finish
 * in about two seconds with a handful of threads. Changes when what the uploader asks of a non-blocking storage
 * changes.
 *
 * <p>Implementations must be thread-safe and must return quickly: do not block in these methods. The uploader calls
 * them on its threads (its own, or the supplied executor's); with its own threads, by default, also on the thread
 * that completed the future of another upload (yours), which handles that answer (listeners, the batch's context) and
 * starts the next upload itself rather than waking one of the uploader's threads for it. Complete the futures on
 * threads that may run that work, or set {@link io.github.boundedupload.UploaderConfig#keepWorkOnUploaderThreads()},
 * which hands every answer to the uploader's threads. When the uploader
 * gives up on an upload (timeout, stopped batch, close), it completes the request's
 * {@link UploadRequest#cancellation()}: stop the requests, remove what the upload started, and then complete the
 * returned future, exceptionally when nothing is stored. The uploader reports the attachment only then. A future that
 * has not completed {@link io.github.boundedupload.UploaderConfig#stopTimeout()} later is cancelled, and the uploader
 * deletes the key itself.
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

    /**
     * Starts deleting an object this storage stored, to undo its upload. Where the storage can tell one object under
     * a key from another (a version id, or a delete conditional on the ETag), only that object is deleted: an object
     * that has replaced it under the same key since, written by another process, stays. The default deletes the key.
     *
     * @param stored what {@link #upload(UploadRequest)} completed with
     * @return completes when the object is gone, or exceptionally
     */
    default CompletableFuture<Void> delete(StoredObject stored) {
        return delete(stored.key());
    }

    /**
     * Starts listing the objects whose keys start with {@code prefix}, as {@link FileUploader#list} does. The default
     * fails: a storage that cannot list cannot be reconciled.
     *
     * @param prefix the start of the keys
     * @param after the last key of the previous page, or {@code null} for the first page
     * @param limit the most objects to return, one or more
     * @return completes with the objects in key order, fewer than {@code limit} only on the last page
     */
    default CompletableFuture<List<ListedObject>> listAsync(String prefix, @Nullable String after, int limit) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException(getClass().getName()
                + " cannot list its objects"));
    }
}
