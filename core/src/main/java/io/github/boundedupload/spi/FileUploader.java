package io.github.boundedupload.spi;

import io.github.boundedupload.StoredObject;
import java.io.IOException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The storage, seen from a thread that may block: stores one blob under a key, and deletes a key again.
 * {@link io.github.boundedupload.ConcurrentAttachmentUploader} calls it from its own bounded threads, one upload
 * per thread at a time. For a storage client that does not block, implement {@link AsyncFileUploader} instead: then
 * uploads in flight are bounded by permits, not by threads. Changes when what the uploader asks of a blocking storage
 * changes.
 *
 * <p>Implementations must be thread-safe, must read the content only through {@link UploadRequest#openStream()} or
 * {@link UploadRequest#content()} (opening it again for every attempt), and should stop when the calling thread is
 * interrupted: that is how timeouts and cancellation reach them. Before returning from an interrupted upload, remove
 * what it started (an incomplete multipart upload), and fail with an exception that says it was stopped
 * ({@link java.io.InterruptedIOException}, or an {@link io.github.boundedupload.UploadException} whose
 * {@code isCancellation()} is true). A call that does not return
 * {@link io.github.boundedupload.UploaderConfig#stopTimeout()} after the interrupt is given up on: its attachment
 * fails, and if it stores the object after all, the uploader deletes it.
 *
 * <pre>{@code
 * FileUploader local = new LocalFileUploader(Path.of("/var/lib/app/uploads"));
 * FileUploader s3 = S3FileUploader.builder(s3Client, "my-bucket").build();
 * }</pre>
 */
public interface FileUploader {

    /**
     * Stores the request's content under its key, replacing any object with that key.
     *
     * @param request what to store and where
     * @return what the storage now holds
     * @throws IOException when the content cannot be read or written
     * @throws RuntimeException when the storage refuses (a storage-specific
     *         {@link io.github.boundedupload.UploadException} where the implementation has one)
     */
    StoredObject upload(UploadRequest request) throws IOException;

    /**
     * Deletes the object under a key; deleting a key that holds nothing is not an error. Used to undo uploads
     * of a failed batch.
     *
     * @param key the key
     * @throws IOException when the storage cannot be reached
     */
    void delete(String key) throws IOException;

    /**
     * Deletes an object this storage stored, to undo its upload. Where the storage can tell one object under a key
     * from another (a version id, or a delete conditional on the ETag), only that object is deleted: an object that
     * has replaced it under the same key since, written by another process, stays. The default deletes the key.
     *
     * @param stored what {@link #upload(UploadRequest)} returned
     * @throws IOException when the storage cannot be reached
     */
    default void delete(StoredObject stored) throws IOException {
        delete(stored.key());
    }

    /**
     * The objects whose keys start with {@code prefix}, in key order, from the first key after {@code after}: at most
     * {@code limit} of them. For clean-ups that must find what nothing else records, such as the staging prefix of
     * direct uploads ({@link io.github.boundedupload.direct.DirectUploads}). The default refuses: a storage that
     * cannot list cannot be reconciled.
     *
     * @param prefix the start of the keys, for example {@code staging/}
     * @param after the last key of the previous page, or {@code null} for the first page
     * @param limit the most objects to return, one or more
     * @return the objects, fewer than {@code limit} only on the last page
     * @throws IOException when the storage cannot be read
     * @throws UnsupportedOperationException when the storage cannot list its objects
     */
    default List<ListedObject> list(String prefix, @Nullable String after, int limit) throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " cannot list its objects");
    }
}
