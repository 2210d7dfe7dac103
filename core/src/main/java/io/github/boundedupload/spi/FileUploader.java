package io.github.boundedupload.spi;

import io.github.boundedupload.StoredObject;
import java.io.IOException;

/**
 * The storage, seen from a thread that may block: stores one blob under a key, and deletes a key again.
 * {@link io.github.boundedupload.ConcurrentAttachmentUploader} calls it from its own bounded threads, one upload
 * per thread at a time. For a storage client that does not block, implement {@link AsyncFileUploader} instead: then
 * uploads in flight are bounded by permits, not by threads.
 *
 * <p>Implementations must be thread-safe, must read the content only through {@link UploadRequest#openStream()} or
 * {@link UploadRequest#content()} (opening it again for every attempt), and should stop when the calling thread is
 * interrupted: that is how timeouts and cancellation reach them.
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
}
