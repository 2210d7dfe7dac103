package io.github.boundedupload.benchmarks;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * One file of a workload, uploaded the same way by every strategy: the same key, the same content type, the same
 * bytes, held in memory (an attachment of a request) or on disk. Changes when what describes one file of a workload
 * changes.
 *
 * @param fileName the file name
 * @param key the object key
 * @param bytes the content in memory, or {@code null} for a file
 * @param file the content on disk, or {@code null} for bytes
 */
public record Item(String fileName, String key, byte[] bytes, Path file) {

    /** The content type every strategy sends, so that no strategy does less work than another. */
    static final String CONTENT_TYPE = "application/octet-stream";

    /** An item held in memory. */
    static Item ofBytes(String fileName, String key, byte[] bytes) {
        return new Item(fileName, key, bytes, null);
    }

    /** An item on disk. */
    static Item ofFile(String key, Path file) {
        return new Item(file.getFileName().toString(), key, null, file);
    }

    /** The content length in bytes. */
    long size() {
        if (bytes != null) {
            return bytes.length;
        }
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The same item under another key. */
    Item withKey(String newKey) {
        return new Item(fileName, newKey, bytes, file);
    }

    /** The PutObject request of the raw-SDK strategies. */
    PutObjectRequest putRequest(String bucket) {
        return PutObjectRequest.builder().bucket(bucket).key(key).contentType(CONTENT_TYPE).build();
    }

    /** The body for the blocking client: streamed from disk, or the bytes. */
    RequestBody requestBody() {
        return bytes != null ? RequestBody.fromBytes(bytes) : RequestBody.fromFile(file);
    }

    /** The body for the non-blocking client. */
    AsyncRequestBody asyncRequestBody() {
        return bytes != null ? AsyncRequestBody.fromBytes(bytes) : AsyncRequestBody.fromFile(file);
    }

    /** The attachment this library uploads, under the same key. */
    Attachment attachment() {
        AttachmentContent content = bytes != null ? AttachmentContent.ofBytes(bytes) : AttachmentContent.ofPath(file);
        return Attachment.builder(fileName, content).contentType(CONTENT_TYPE).key(key).build();
    }
}
