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
import org.jspecify.annotations.Nullable;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.web.multipart.MultipartFile;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Attachments from the files of a multipart request.
 *
 * <p>Spring deletes a request's temporary files when the request ends (spring-framework#25481): an upload still
 * running then, or retried then, would read a file that is gone. So:
 * <ul>
 *   <li>{@link #of(List)} reads each file where Spring keeps it, again for every attempt: for {@code uploadAll},
 *       which ends within the request;</li>
 *   <li>{@link #detach(List)} (Spring MVC) and {@link #detach(Flux)} (WebFlux) move the files to temporary files of
 *       their own first (a rename where Spring kept the file on the same disk), readable until the batch has
 *       completed: {@link Detached#uploadAllAsync} deletes them then; or delete them with {@link Detached#close()}.</li>
 * </ul>
 * A browser sends an empty part without a file name when no file was chosen: that part is skipped. A file name
 * reaches the uploader as the client sent it: the uploader refuses dangerous names and sanitises the rest.
 *
 * <pre>{@code
 * @PostMapping("/weeks")
 * BatchResult create(@RequestParam List<MultipartFile> files) {
 *     return uploader.uploadAll(MultipartAttachments.of(files));
 * }
 *
 * @PostMapping("/weeks/async")
 * CompletableFuture<BatchResult> createAsync(@RequestParam List<MultipartFile> files) throws IOException {
 *     return MultipartAttachments.detach(files).uploadAllAsync(uploader);
 * }
 * }</pre>
 */
public final class MultipartAttachments {

    private MultipartAttachments() {
    }

    /**
     * The chosen files, read where Spring keeps them, for an upload that ends within the request.
     *
     * @param files the request's files (a {@code List<MultipartFile>} parameter); null when it has none
     * @return one attachment per chosen file, in order
     */
    public static List<Attachment> of(@Nullable List<MultipartFile> files) {
        List<Attachment> attachments = new ArrayList<>();
        for (MultipartFile file : chosen(files)) {
            attachments.add(Attachment.of(name(file.getOriginalFilename()),
                    AttachmentContent.ofStream(file::getInputStream, file.getSize())));
        }
        return attachments;
    }

    /**
     * The chosen files, moved out of the request's reach, for an upload that outlives it.
     *
     * @param files the request's files; null when it has none
     * @return the attachments, and their temporary files to delete
     * @throws IOException when a file cannot be moved; those moved already are deleted again
     */
    public static Detached detach(@Nullable List<MultipartFile> files) throws IOException {
        Detached detached = new Detached();
        try {
            for (MultipartFile file : chosen(files)) {
                Path copy = detached.newFile();
                file.transferTo(copy);
                detached.add(name(file.getOriginalFilename()), copy);
            }
            return detached;
        } catch (IOException | RuntimeException e) {
            detached.close();
            throw e;
        }
    }

    /**
     * The chosen files of a WebFlux request, written to temporary files of their own without blocking (memory stays
     * bounded by Spring's buffers), for an upload that outlives the request or that a non-blocking handler starts.
     *
     * @param parts the request's file parts, such as {@code request.multipartData()}'s {@code files}
     * @return emits the attachments and their temporary files once every part is written; on an error, the files
     *         written so far are deleted
     */
    public static Mono<Detached> detach(Flux<FilePart> parts) {
        return Mono.defer(() -> {
            Detached detached = new Detached();
            return parts.filter(part -> !part.filename().isEmpty())
                    .concatMap(part -> {
                        Path copy;
                        try {
                            copy = detached.newFile();
                        } catch (IOException e) {
                            return Mono.error(e);
                        }
                        return part.transferTo(copy).then(Mono.fromRunnable(() -> detached.add(part.filename(),
                                copy)));
                    })
                    .then(Mono.just(detached))
                    .doOnError(e -> detached.close())
                    .doOnCancel(detached::close);
        });
    }

    private static List<MultipartFile> chosen(@Nullable List<MultipartFile> files) {
        if (files == null) {
            return List.of();
        }
        return files.stream().filter(file -> !(file.isEmpty() && name(file.getOriginalFilename()).isEmpty()))
                .toList();
    }

    private static String name(@Nullable String name) {
        return name == null ? "" : name;
    }

    /**
     * Attachments on temporary files of their own, deleted by {@link #close()} or once the batch
     * {@link #uploadAllAsync} started has completed.
     */
    public static final class Detached implements AutoCloseable {

        private final List<Attachment> attachments = new ArrayList<>();
        private final List<Path> files = new ArrayList<>();

        private Detached() {
        }

        private synchronized Path newFile() throws IOException {
            Path file = Files.createTempFile("bounded-upload-", ".part");
            files.add(file);
            return file;
        }

        private synchronized void add(String name, Path file) {
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
}
