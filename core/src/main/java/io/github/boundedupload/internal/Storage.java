package io.github.boundedupload.internal;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.internal.Attempt.Answer;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadRequest;
import java.util.Objects;
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
            void upload(UploadRequest request, Attempt attempt, Runnable onStart, Answer<StoredObject> answer) {
                attempt.runBlocking(onStart, () -> uploader.upload(request), answer);
            }

            @Override
            void delete(String key, @Nullable StoredObject stored, Attempt attempt, Answer<Void> answer) {
                attempt.runBlocking(() -> { }, () -> {
                    if (stored != null) {
                        uploader.delete(stored);
                    } else {
                        uploader.delete(key);
                    }
                    return null;
                }, answer);
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
            void upload(UploadRequest request, Attempt attempt, Runnable onStart, Answer<StoredObject> answer) {
                attempt.start(onStart, () -> uploader.upload(request), answer);
            }

            @Override
            void delete(String key, @Nullable StoredObject stored, Attempt attempt, Answer<Void> answer) {
                attempt.start(() -> { }, () -> stored != null ? uploader.delete(stored) : uploader.delete(key), answer);
            }

            @Override
            public String toString() {
                return uploader.toString();
            }
        };
    }

    /**
     * Uploads; {@code onStart} runs just before the storage is called, and not at all when it is not. The outcome goes
     * to {@code answer}: on this thread, once the call returned, for a blocking storage; on the thread that completes
     * the storage's future for a non-blocking one.
     */
    abstract void upload(UploadRequest request, Attempt attempt, Runnable onStart, Answer<StoredObject> answer);

    /**
     * Deletes what an upload stored: the object itself where the storage can tell it, or else the key. The outcome
     * goes to {@code answer}, as {@link #upload}'s does.
     */
    abstract void delete(String key, @Nullable StoredObject stored, Attempt attempt, Answer<Void> answer);
}
