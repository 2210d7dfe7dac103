package io.github.boundedupload.spring.web;

import java.io.IOException;
import java.nio.file.Path;
import org.springframework.http.codec.multipart.FilePart;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Attachments from the files of a WebFlux multipart request, written to temporary files of their own without blocking
 * (memory stays bounded by Spring's buffers): for an upload that outlives the request or that a non-blocking handler
 * starts. A class of its own, so that Spring MVC applications, which have no Reactor, never load it.
 *
 * <pre>{@code
 * return request.multipartData()
 *         .flatMap(form -> FilePartAttachments.detach(Flux.fromIterable(form.get("files")).cast(FilePart.class)))
 *         .flatMap(detached -> ReactiveUploads.uploadAll(uploader, detached.attachments())
 *                 .doFinally(signal -> detached.close()));
 * }</pre>
 */
public final class FilePartAttachments {

    private FilePartAttachments() {
    }

    /**
     * The chosen files (parts with a file name), each written to a temporary file of its own.
     *
     * @param parts the request's file parts, such as {@code request.multipartData()}'s {@code files}
     * @return emits the attachments and their temporary files once every part is written; on an error, the files
     *         written so far are deleted
     */
    public static Mono<DetachedAttachments> detach(Flux<FilePart> parts) {
        return Mono.defer(() -> {
            DetachedAttachments detached = new DetachedAttachments();
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
}
