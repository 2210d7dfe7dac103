package io.github.boundedupload.spring.web;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.web.multipart.MultipartFile;

/**
 * Attachments from the files of a Spring MVC multipart request ({@link FilePartAttachments} for WebFlux's).
 * Changes when the way Spring MVC's multipart files become attachments changes.
 *
 * <p>Spring deletes a request's temporary files when the request ends (spring-framework#25481): an upload still
 * running then, or retried then, would read a file that is gone. So:
 * <ul>
 *   <li>{@link #of(List)} reads each file where Spring keeps it, again for every attempt: for {@code uploadAll},
 *       which ends within the request;</li>
 *   <li>{@link #detach(List)} moves the files to temporary files of their own first (a rename where Spring kept the
 *       file on the same disk), readable until the batch has completed: {@link DetachedAttachments#uploadAllAsync}
 *       deletes them then; or delete them with {@link DetachedAttachments#close()}.</li>
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
    public static DetachedAttachments detach(@Nullable List<MultipartFile> files) throws IOException {
        DetachedAttachments detached = new DetachedAttachments();
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
}
