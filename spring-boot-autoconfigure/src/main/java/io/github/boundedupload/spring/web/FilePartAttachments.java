package io.github.boundedupload.spring.web;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.codec.multipart.FilePart;
import reactor.adapter.JdkFlowAdapter;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Attachments from the files of a WebFlux multipart request, without blocking. A class of its own, so that Spring MVC
 * applications, which have no Reactor, never load it. Changes when the way WebFlux's file parts become attachments
 * changes.
 *
 * <ul>
 *   <li>{@link #of(Flux)} streams each part from where Spring keeps it (in memory when small, on disk otherwise),
 *       again for every attempt: no copy, and with a non-blocking storage ({@code S3AsyncFileUploader}) no thread,
 *       with a few buffers per upload in memory. Spring deletes those files when the request ends, so the batch must
 *       end within the handler's chain, as {@code ReactiveUploads.uploadAll} does there.</li>
 *   <li>{@link #detach(Flux)} writes each part to a temporary file of its own first, for an upload that outlives the
 *       request.</li>
 * </ul>
 *
 * <pre>{@code
 * return request.multipartData()
 *         .flatMap(form -> FilePartAttachments.of(Flux.fromIterable(form.getOrDefault("files", List.of()))
 *                 .cast(FilePart.class)))
 *         .flatMap(attachments -> ReactiveUploads.uploadAll(uploader, attachments))
 *         .flatMap(result -> ServerResponse.ok().bodyValue(result.storedObjects()));
 * }</pre>
 */
public final class FilePartAttachments {

    private FilePartAttachments() {
    }

    /**
     * The chosen files (parts with a file name), streamed from the request: each part is read once to measure it,
     * then once for every attempt, so the parts must be readable again, as those of {@code multipartData()} and
     * {@code @RequestPart} are (a part of a streaming reader, which reads once, fails its upload). Read only while the
     * request is being handled: upload them within its chain.
     *
     * @param parts the request's file parts, such as {@code request.multipartData()}'s {@code files}
     * @return emits one attachment per chosen file, in order, once each is measured
     */
    public static Mono<List<Attachment>> of(Flux<FilePart> parts) {
        return parts.filter(part -> !part.filename().isEmpty())
                .concatMap(part -> part.content()
                        .map(FilePartAttachments::released)
                        .reduce(0L, Long::sum)
                        .map(length -> Attachment.of(part.filename(), AttachmentContent.ofPublisher(
                                () -> JdkFlowAdapter.publisherToFlowPublisher(part.content()
                                        .map(FilePartAttachments::copied)), length))))
                .collectList();
    }

    /** The buffer's size; the buffer is given back. */
    private static long released(DataBuffer buffer) {
        try {
            return buffer.readableByteCount();
        } finally {
            DataBufferUtils.release(buffer);
        }
    }

    /**
     * The buffer's bytes in a buffer of their own, and the buffer given back (a pooled one goes back to its pool): the
     * storage keeps what it is handed until it is sent. Its read position is left as it was, so that content Spring
     * keeps in memory reads the same for the next attempt.
     */
    private static ByteBuffer copied(DataBuffer buffer) {
        try {
            ByteBuffer copy = ByteBuffer.allocate(buffer.readableByteCount());
            try (DataBuffer.ByteBufferIterator readable = buffer.readableByteBuffers()) {
                while (readable.hasNext()) {
                    copy.put(readable.next());
                }
            }
            return copy.flip();
        } finally {
            DataBufferUtils.release(buffer);
        }
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
