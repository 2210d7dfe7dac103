package io.github.boundedupload.s3.internal;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.s3.S3UploadException;
import io.github.boundedupload.spi.UploadRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.function.Function;
import org.slf4j.Logger;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;

/**
 * One upload, for either client ({@link S3Ops}): one PutObject ({@link SinglePut}) up to the multipart threshold, a
 * multipart upload ({@link Multipart}) above it, and for content of unknown length whichever its first part shows.
 * An object of the bucket is copied there ({@link ObjectCopy}). This class plans; the strategies carry out; {@link ObjectUpload} holds what they share.
 * Changes when the choice between one PutObject and a multipart upload changes.
 *
 * <p><b>Lost answers.</b> When a request fails after its whole body was handed to the HTTP client and no answer
 * came (reset, timeout, interrupt, 5xx), S3 may have stored the object. A PutObject is then checked with HeadObject:
 * the object under the key is ours when its size and checksum are those of the bytes sent (computed here while
 * they went out), and the upload succeeds after all; a cancelled upload deletes it instead. A multipart upload is
 * settled by its upload id: aborting it either succeeds (nothing stored) or finds it completed.
 */
public final class Transfer {

    private static final Logger LOG = ObjectUpload.LOG;

    private final ObjectUpload upload;

    public Transfer(Settings settings, S3Ops ops, UploadRequest request) {
        this.upload = new ObjectUpload(settings, ops, request);
    }

    /**
     * Starts the upload. With blocking operations it has ended when this returns. The future fails with an
     * {@link S3UploadException}.
     */
    public CompletableFuture<StoredObject> start() {
        CompletableFuture<StoredObject> planned;
        try {
            planned = plan();
        } catch (IOException | RuntimeException e) {
            planned = CompletableFuture.failedFuture(e);
        }
        return planned.handle((stored, failure) -> {
            if (failure != null) {
                throw Failures.upload(upload.settings, upload.key, upload.request.fileName(), failure, false, null);
            }
            return stored;
        });
    }

    /** Stops every request and read of this upload; what it stored is deleted again. */
    public void cancel() {
        upload.tasks.cancelAll();
    }

    private CompletableFuture<StoredObject> plan() throws IOException {
        OptionalLong length;
        try {
            length = upload.request.contentLength();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        Optional<StoredObject> source = upload.request.content().storedObject();
        if (source.isPresent()) {
            return new ObjectCopy(upload).copy(source.get()); // in the bucket already: copied there
        }
        Optional<Path> file = upload.request.content().path();
        if (file.isPresent()) {
            long size = length.orElseThrow();
            if (size <= upload.options.multipartThreshold()) {
                CompletableFuture<StoredObject> put = new SinglePut(upload).put(Payload.fileSlice(file.get(), 0,
                        tracked(size), true));
                // An empty file is sent without a stream, which could have looked past its end.
                return size > 0 && upload.ops.noticesChangedFiles() ? put
                        : put.thenCompose(stored -> unchanged(file.get(), size, stored));
            }
            // Parts are read at different times (and at once): a file that changed between them is caught only here.
            return new Multipart(upload).upload(new Parts.SliceParts(size, upload.partSize(size), (offset, n) ->
                    Payload.fileSlice(file.get(), offset, Sent.untracked(n), offset + n == size)))
                    .thenCompose(stored -> unchanged(file.get(), size, stored));
        }
        Optional<ByteBuffer> bytes = upload.request.content().bytes();
        if (bytes.isPresent()) {
            // In memory already: sent as it is, not through a stream, so the non-blocking client needs no read thread.
            ByteBuffer content = bytes.get();
            int size = content.remaining();
            return size <= upload.options.multipartThreshold()
                    ? new SinglePut(upload).put(Payload.bytes(content, tracked(size)))
                    : new Multipart(upload).upload(new Parts.SliceParts(size, upload.partSize(size), (offset, n) ->
                            Payload.bytes(content.slice(content.position() + (int) offset, (int) n),
                                    Sent.untracked(n))));
        }
        if (length.isPresent() && length.getAsLong() == 0) {
            // Nothing to stream; but content that claims to be empty must be.
            return upload.track(upload.ops.read(() -> {
                try (InputStream in = upload.request.openStream()) {
                    if (in.read() >= 0) {
                        throw new IOException("the content goes on past its declared length of 0 bytes");
                    }
                }
                return Boolean.TRUE;
            })).thenCompose(empty -> new SinglePut(upload).put(Payload.bytes(new byte[0], 0,
                    Sent.tracked(0, upload.algorithm, null))));
        }
        Optional<Flow.Publisher<ByteBuffer>> published = upload.request.content().publisher();
        if (published.isPresent() && length.isPresent() && length.getAsLong() <= upload.options.multipartThreshold()) {
            // Sent as it is published, so the non-blocking client needs no read thread; larger content goes up in parts
            // read from it as a stream (a few buffers at a time), below.
            return new SinglePut(upload).put(Payload.published(published.get(), upload.request.content()::openStream,
                    tracked(length.getAsLong())));
        }
        if (length.isPresent() && length.getAsLong() <= upload.options.multipartThreshold()) {
            return new SinglePut(upload).put(Payload.stream(upload.request::openStream,
                    Sent.tracked(length.getAsLong(), upload.algorithm, null)));
        }
        if (length.isPresent()) {
            long size = length.getAsLong();
            long partSize = upload.partSize(size);
            return upload.track(upload.ops.read(upload.request::openStream))
                    .thenCompose(in -> new Multipart(upload)
                            .upload(new Parts.StreamParts(upload, in, size, partSize, null)));
        }
        // Unknown length: its first part decides. Short content goes up from memory, in one request.
        int partSize = (int) Math.min(upload.options.partSize(), Integer.MAX_VALUE - 8);
        return upload.track(upload.ops.read(() -> {
            InputStream in = upload.request.openStream();
            try {
                return new Parts.StreamParts(upload, in, -1, partSize, in.readNBytes(partSize));
            } catch (IOException | RuntimeException e) {
                Parts.close(in);
                throw e;
            }
        })).thenCompose(parts -> {
            byte[] first = Objects.requireNonNull(parts.first);
            if (first.length == partSize) {
                return new Multipart(upload).upload(parts);
            }
            parts.close();
            return new SinglePut(upload).put(Payload.bytes(first, first.length,
                    Sent.tracked(first.length, upload.algorithm, null)));
        });
    }

    /**
     * The file still has the size that was checked and sent, unless one request read it whole on a client that
     * notices a changed file itself ({@link S3Ops#noticesChangedFiles()}): the non-blocking client's file body reads a
     * range and does not look past it, and the parts of a multipart upload are read at different times, so S3 may
     * have stored the checked number of bytes of a file that is longer now: then that object is deleted again, and
     * the upload fails instead of being reported stored cut short.
     */
    private CompletableFuture<StoredObject> unchanged(Path file, long size, StoredObject stored) {
        long now;
        try {
            now = java.nio.file.Files.size(file);
        } catch (IOException e) {
            now = -1;
        }
        if (now == size) {
            return CompletableFuture.completedFuture(stored);
        }
        IOException changed = new IOException("the file is " + (now < 0 ? "gone" : now + " bytes") + " now, not the "
                + size + " bytes it had when it was checked: it changed during the upload");
        DeleteObjectRequest.Builder delete = DeleteObjectRequest.builder().bucket(upload.settings.bucket())
                .key(upload.key).overrideConfiguration(ObjectUpload.CLEANUP);
        stored.versionId().ifPresent(delete::versionId);
        return upload.ops.cleanup(() -> upload.ops.delete(delete.build())).handle((deleted, failure) -> {
            if (failure != null) {
                LOG.warn("s3://{}/{}: the file changed during its upload, and deleting what S3 stored failed ({});"
                        + " the object is still stored", upload.settings.bucket(), upload.key,
                        Failures.describe(failure));
                return CompletableFuture.<StoredObject>failedFuture(Failures.upload(upload.settings, upload.key,
                        upload.request.fileName(), changed, true,
                        "deleting what S3 stored failed (the object MAY STILL BE STORED): "
                                + Failures.describe(failure)));
            }
            return CompletableFuture.<StoredObject>failedFuture(changed);
        }).thenCompose(Function.identity());
    }

    /** Counts what goes out, for the lost-answer check, and reports progress. */
    private Sent tracked(long size) {
        return Sent.tracked(size, upload.algorithm, upload.request::reportProgress);
    }

    /**
     * Deletes what this upload stored, because its caller cancelled it just as S3 stored the object (the caller saw
     * the cancel, not the object). Failures are logged. Completes when done.
     */
    public CompletableFuture<?> discard() {
        upload.tasks.cancelAll();
        return upload.deleteAgain();
    }
}
