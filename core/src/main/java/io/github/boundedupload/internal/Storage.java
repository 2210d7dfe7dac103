package io.github.boundedupload.internal;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadRequest;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Either storage SPI behind one face, so that the uploader has one code path. Changes when the storage SPI changes.
 */
abstract class Storage {

    private final boolean blocking;

    private Storage(boolean blocking) {
        this.blocking = blocking;
    }

    /** Whether calls hold the calling thread until they end. */
    boolean blocking() {
        return blocking;
    }

    /** A blocking storage: calls run on the calling thread and hold it. */
    static Storage of(FileUploader uploader) {
        Objects.requireNonNull(uploader, "storage");
        return new Storage(true) {
            @Override
            CompletableFuture<StoredObject> upload(UploadRequest request, Attempt attempt, Runnable onStart) {
                return attempt.runBlocking(onStart, () -> uploader.upload(request));
            }

            @Override
            CompletableFuture<Void> delete(String key, @Nullable StoredObject stored, Attempt attempt) {
                return attempt.runBlocking(() -> { }, () -> {
                    if (stored != null) {
                        uploader.delete(stored);
                    } else {
                        uploader.delete(key);
                    }
                    return null;
                });
            }

            @Override
            public String toString() {
                return uploader.toString();
            }
        };
    }

    /** A non-blocking storage: calls return at once and complete later. */
    static Storage of(AsyncFileUploader uploader) {
        Objects.requireNonNull(uploader, "storage");
        return new Storage(false) {
            @Override
            CompletableFuture<StoredObject> upload(UploadRequest request, Attempt attempt, Runnable onStart) {
                return attempt.start(onStart, () -> uploader.upload(request));
            }

            @Override
            CompletableFuture<Void> delete(String key, @Nullable StoredObject stored, Attempt attempt) {
                return attempt.start(() -> { }, () -> stored != null ? uploader.delete(stored) : uploader.delete(key));
            }

            @Override
            public String toString() {
                return uploader.toString();
            }
        };
    }

    /** Uploads; {@code onStart} runs just before the storage is called, and not at all when it is not. */
    abstract CompletableFuture<StoredObject> upload(UploadRequest request, Attempt attempt, Runnable onStart);

    /** Deletes what an upload stored: the object itself where the storage can tell it, or else the key. */
    abstract CompletableFuture<Void> delete(String key, @Nullable StoredObject stored, Attempt attempt);
}
