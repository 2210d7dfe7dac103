package io.github.boundedupload.spring.web;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Attachments on temporary files of their own ({@link MultipartAttachments#detach}, {@link FilePartAttachments#detach}),
 * deleted by {@link #close()} or once the batch {@link #uploadAllAsync} started has completed. Changes when the
 * lifetime of detached temporary files changes.
 */
public final class DetachedAttachments implements AutoCloseable {

    private final List<Attachment> attachments = new ArrayList<>();
    private final List<Path> files = new ArrayList<>();

    DetachedAttachments() {
    }

    synchronized Path newFile() throws IOException {
        Path file = Files.createTempFile("bounded-upload-", ".part");
        files.add(file);
        return file;
    }

    synchronized void add(String name, Path file) {
        attachments.add(Attachment.of(name, AttachmentContent.ofPath(file)));
    }

    /**
     * The attachments, in the order of the files.
     *
     * @return the attachments
     */
    public synchronized List<Attachment> attachments() {
        return List.copyOf(attachments);
    }

    /**
     * Uploads the attachments without waiting, and deletes their temporary files once the batch has completed
     * (stored, failed, or cancelled), or at once when it is refused.
     *
     * @param uploader the uploader
     * @return completes as {@link ConcurrentAttachmentUploader#uploadAllAsync(List)}'s future, once the files are
     *         deleted (a failure wrapped in a {@link java.util.concurrent.CompletionException}); cancelling it
     *         cancels the batch
     */
    public CompletableFuture<BatchResult> uploadAllAsync(ConcurrentAttachmentUploader uploader) {
        CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(attachments());
        // Completes once the files are deleted; cancelling it cancels the batch (which then deletes them).
        CompletableFuture<BatchResult> done = batch.whenComplete((result, failure) -> close());
        done.whenComplete((result, failure) -> {
            if (done.isCancelled()) {
                batch.cancel(true);
            }
        });
        return done;
    }

    /** Deletes the temporary files; a file already gone is no error. */
    @Override
    public synchronized void close() {
        UncheckedIOException failure = null;
        for (Path file : files) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                if (failure == null) {
                    failure = new UncheckedIOException("could not delete a temporary upload file", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        files.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
