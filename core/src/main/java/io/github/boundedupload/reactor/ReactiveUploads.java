package io.github.boundedupload.reactor;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploadProgress;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;

/**
 * A batch as a {@link Mono}, for WebFlux handlers and other Reactor pipelines. Changes when the way a batch is offered
 * to Reactor changes.
 *
 * <pre>{@code
 * return ReactiveUploads.uploadAll(uploader, attachments)
 *         .map(result -> ResponseEntity.ok(view(result)));
 * }</pre>
 *
 * Each subscription submits the batch (use {@code cache()} to share one); cancelling the subscription cancels the
 * batch as cancelling {@link ConcurrentAttachmentUploader#uploadAllAsync(List)}'s future does: uploads not started are
 * dropped, running ones stopped, and what the batch stored is deleted again. The uploads run on the uploader's own
 * threads (or permits, for a non-blocking storage), never on the caller's event loop; the result is signalled on the
 * thread that completes the batch, so keep what follows short or {@code publishOn} a scheduler of your own.
 */
public final class ReactiveUploads {

    private ReactiveUploads() {
    }

    /**
     * Uploads a batch when subscribed.
     *
     * @param uploader the uploader
     * @param attachments the batch; checked when subscribed (an invalid one signals
     *        {@link io.github.boundedupload.InvalidAttachmentException})
     * @return emits the result, or the exceptions {@link ConcurrentAttachmentUploader#uploadAll(List)} throws
     */
    public static Mono<BatchResult> uploadAll(ConcurrentAttachmentUploader uploader, List<Attachment> attachments) {
        Objects.requireNonNull(uploader, "uploader");
        Objects.requireNonNull(attachments, "attachments");
        // suppressCancel false: a cancelled subscription cancels the future, and so the batch.
        return Mono.fromFuture(() -> uploader.uploadAllAsync(attachments), false);
    }

    /**
     * Uploads a batch when subscribed and emits each attachment's steps as they happen (started, sent, stored,
     * failed, skipped, deleted again), then completes when the batch does, or signals the exceptions
     * {@link ConcurrentAttachmentUploader#uploadAll(List)} throws. At most about fifteen steps per attachment are
     * buffered for a slow subscriber. Cancelling the subscription cancels the batch.
     *
     * @param uploader the uploader
     * @param attachments the batch
     * @return the steps
     */
    public static Flux<UploadProgress> uploadAllWithProgress(ConcurrentAttachmentUploader uploader,
            List<Attachment> attachments) {
        Objects.requireNonNull(uploader, "uploader");
        Objects.requireNonNull(attachments, "attachments");
        return Flux.create(sink -> {
            CompletableFuture<BatchResult> batch = uploader.uploadAllAsync(attachments,
                    UploadProgress.listener(sink::next));
            sink.onCancel(() -> batch.cancel(true));
            batch.whenComplete((result, failure) -> {
                if (failure == null) {
                    sink.complete();
                } else {
                    sink.error(failure instanceof CompletionException && failure.getCause() != null
                            ? failure.getCause() : failure);
                }
            });
        }, FluxSink.OverflowStrategy.BUFFER);
    }
}
