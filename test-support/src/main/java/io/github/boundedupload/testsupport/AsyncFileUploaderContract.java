package io.github.boundedupload.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.ListedObject;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadRequest;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * What every {@link AsyncFileUploader} does: everything a {@link FileUploaderContract} asks (run through a blocking
 * view that waits for the futures, and cancels them when the waiting thread is interrupted), and on top that
 * {@code upload} does not wait for the content, and that cancelling its future stops the upload and leaves nothing
 * stored. Changes when what is asked of every non-blocking storage changes.
 */
public abstract class AsyncFileUploaderContract extends FileUploaderContract {

    /** For subclasses. */
    protected AsyncFileUploaderContract() {
    }

    /**
     * The uploader under test. Called once or more per test; may return the same instance every time.
     *
     * @return the uploader
     */
    protected abstract AsyncFileUploader asyncUploader();

    /** The asynchronous uploader seen as a blocking one: waits for its futures, cancels them when interrupted. */
    @Override
    protected final FileUploader uploader() {
        AsyncFileUploader async = asyncUploader();
        return new FileUploader() {
            @Override
            public StoredObject upload(UploadRequest request) throws IOException {
                return join(async.upload(request));
            }

            @Override
            public void delete(String key) throws IOException {
                join(async.delete(key));
            }

            @Override
            public List<ListedObject> list(String prefix, @Nullable String after, int limit) throws IOException {
                return join(async.listAsync(prefix, after, limit));
            }
        };
    }

    private static <T> T join(CompletableFuture<T> future) throws IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted; the upload is cancelled");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException) {
                throw (IOException) cause;
            }
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            throw new UncheckedIOException(new IOException(cause));
        }
    }

    @Test
    void uploadReturnsBeforeTheContentIsRead() throws Exception {
        CountDownLatch opened = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AttachmentContent gated = AttachmentContent.ofStream(() -> {
            opened.countDown();
            try {
                if (!release.await(60, TimeUnit.SECONDS)) {
                    throw new IOException("the test never released the content");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException();
            }
            return TestData.stream(11, 50_000);
        }, 50_000);
        String key = newKey("gated.bin");
        CompletableFuture<StoredObject> future = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> asyncUploader().upload(UploadRequest.of(key, Attachment.of("gated.bin", gated))),
                "upload() must return without waiting for the content");
        assertThat(future).isNotDone();
        release.countDown();
        assertThat(future.get(60, TimeUnit.SECONDS).size()).isEqualTo(50_000);
        assertThat(read(key)).hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(TestData.bytes(11, 50_000)));
        assertThat(opened.getCount()).isZero();
    }

    @Test
    void cancellingTheFutureStopsTheUploadAndStoresNothing() throws Exception {
        String key = newKey("cancelled.bin");
        CountDownLatch reading = new CountDownLatch(1);
        AttachmentContent slow = AttachmentContent.ofStream(() -> BrokenContent.stalling(64 * 1024, reading),
                2_000_000);
        CompletableFuture<StoredObject> future =
                asyncUploader().upload(UploadRequest.of(key, Attachment.of("cancelled.bin", slow)));
        assertThat(reading.await(60, TimeUnit.SECONDS)).as("the uploader started reading").isTrue();
        assertThat(future.cancel(true)).isTrue();
        await().atMost(SETTLE).untilAsserted(() -> assertThat(exists(key)).isFalse());
    }
}
