package io.github.boundedupload.s3.internal;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.s3.S3UploadException;
import io.github.boundedupload.s3.S3UploadOptions;
import io.github.boundedupload.spi.UploadRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * One upload, for either client ({@link S3Ops}): one PutObject up to the multipart threshold, a multipart upload
 * above it, and for content of unknown length whichever its first part shows.
 *
 * <p><b>Why our own multipart loop</b> rather than the SDK's multipart client or its Transfer Manager: both are
 * switched on when a client is built ({@code multipartEnabled(true)}, or the CRT client), and these adapters take
 * the client the application already has; neither exists for the blocking {@code S3Client}; and cancelling their
 * futures does not abort the upload (aws-sdk-java-v2#3274), while the core cancels on every timeout. Here, every
 * request of a multipart upload holds a permit, a part of a file is read from disk by position (no buffer), a part of
 * a stream is the only thing buffered ({@code partSize × (partsInFlight + 1)} at most), and a failed, cancelled or
 * interrupted upload is aborted before its future completes.
 *
 * <p><b>Lost answers.</b> When a request fails after its whole body was handed to the HTTP client and no answer
 * came (reset, timeout, interrupt, 5xx), S3 may have stored the object. A PutObject is then checked with HeadObject:
 * the object under the key is ours when its size and checksum are those of the bytes sent (computed here while
 * they went out), and the upload succeeds after all; a cancelled upload deletes it instead. A multipart upload is
 * settled by its upload id: aborting it either succeeds (nothing stored) or finds it completed.
 */
public final class Transfer {

    private static final Logger LOG = LoggerFactory.getLogger("io.github.boundedupload.s3");
    /** How long each clean-up request (abort, check, delete) may take, even after the upload's own time ran out. */
    static final Duration CLEANUP_TIMEOUT = Duration.ofSeconds(10);
    private static final AwsRequestOverrideConfiguration CLEANUP =
            AwsRequestOverrideConfiguration.builder().apiCallTimeout(CLEANUP_TIMEOUT).build();
    /**
     * How long to wait, after a request whose answer was lost, before deciding that S3 did not act on it: a request
     * held by the network can still arrive.
     */
    static final Duration SETTLE = Duration.ofSeconds(2);
    /** How far S3's clock may be behind ours when telling our multipart uploads from older ones. */
    private static final Duration CLOCK_SKEW = Duration.ofMinutes(1);
    /** The most bytes asked of a stream in one read (see {@link #readFully}). */
    private static final int READ_STEP = 64 * 1024;
    /** S3's limit of parts per upload. */
    static final int MAX_PARTS = 10_000;

    private final Settings settings;
    private final S3UploadOptions options;
    private final S3Ops ops;
    private final UploadRequest request;
    private final String key;
    private final ChecksumAlgorithm algorithm;
    private final @Nullable Long deadline;
    private final Cancellables tasks = new Cancellables();

    public Transfer(Settings settings, S3Ops ops, UploadRequest request) {
        this.settings = settings;
        this.options = settings.options();
        this.ops = ops;
        this.request = request;
        this.key = request.key();
        this.algorithm = options.checksumAlgorithm();
        this.deadline = request.timeout().map(t -> System.nanoTime() + t.toNanos()).orElse(null);
    }

    /**
     * Starts the upload. With blocking operations it has ended when this returns. The future fails with an
     * {@link S3UploadException}.
     */
    public CompletableFuture<StoredObject> start() {
        CompletableFuture<StoredObject> upload;
        try {
            upload = plan();
        } catch (IOException | RuntimeException e) {
            upload = CompletableFuture.failedFuture(e);
        }
        return upload.handle((stored, failure) -> {
            if (failure != null) {
                throw Failures.upload(settings, key, request.fileName(), failure, false, null);
            }
            return stored;
        });
    }

    /** Stops every request and read of this upload; what it stored is deleted again. */
    public void cancel() {
        tasks.cancelAll();
    }

    private CompletableFuture<StoredObject> plan() throws IOException {
        OptionalLong length;
        try {
            length = request.contentLength();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        Optional<Path> file = request.content().path();
        if (file.isPresent()) {
            long size = length.orElseThrow();
            return (size <= options.multipartThreshold()
                    ? putOnce(Payload.fileSlice(file.get(), 0, Sent.tracked(size, algorithm, request::reportProgress),
                            true))
                    : multipart(new SliceParts(size, partSize(size), (offset, n) -> Payload.fileSlice(file.get(),
                            offset, Sent.untracked(n), offset + n == size))))
                    .thenCompose(stored -> unchanged(file.get(), size, stored));
        }
        Optional<ByteBuffer> bytes = request.content().bytes();
        if (bytes.isPresent()) {
            // In memory already: sent as it is, not through a stream, so the non-blocking client needs no read thread.
            ByteBuffer content = bytes.get();
            int size = content.remaining();
            return size <= options.multipartThreshold()
                    ? putOnce(Payload.bytes(content, Sent.tracked(size, algorithm, request::reportProgress)))
                    : multipart(new SliceParts(size, partSize(size), (offset, n) -> Payload.bytes(
                            content.slice(content.position() + (int) offset, (int) n), Sent.untracked(n))));
        }
        if (length.isPresent() && length.getAsLong() == 0) {
            // Nothing to stream; but content that claims to be empty must be.
            return track(ops.read(() -> {
                try (InputStream in = request.openStream()) {
                    if (in.read() >= 0) {
                        throw new IOException("the content goes on past its declared length of 0 bytes");
                    }
                }
                return Boolean.TRUE;
            })).thenCompose(empty -> putOnce(Payload.bytes(new byte[0], 0, Sent.tracked(0, algorithm, null))));
        }
        if (length.isPresent() && length.getAsLong() <= options.multipartThreshold()) {
            return putOnce(Payload.stream(request::openStream, Sent.tracked(length.getAsLong(), algorithm, null)));
        }
        if (length.isPresent()) {
            long size = length.getAsLong();
            long partSize = partSize(size);
            return track(ops.read(request::openStream))
                    .thenCompose(in -> multipart(new StreamParts(in, size, partSize, null)));
        }
        // Unknown length: its first part decides. Short content goes up from memory, in one request.
        int partSize = (int) Math.min(options.partSize(), Integer.MAX_VALUE - 8);
        return track(ops.read(() -> {
            InputStream in = request.openStream();
            try {
                return new StreamParts(in, -1, partSize, in.readNBytes(partSize));
            } catch (IOException | RuntimeException e) {
                close(in);
                throw e;
            }
        })).thenCompose(parts -> {
            byte[] first = Objects.requireNonNull(parts.first);
            if (first.length == partSize) {
                return multipart(parts);
            }
            parts.close();
            return putOnce(Payload.bytes(first, first.length, Sent.tracked(first.length, algorithm, null)));
        });
    }

    /**
     * The file still has the size that was checked and sent. The blocking client notices a file that grew or shrank
     * while it reads it; the non-blocking client's file body reads a range and does not look past it, so S3 may have
     * stored the checked number of bytes of a file that is longer now: then that object is deleted again, and the
     * upload fails instead of being reported stored cut short.
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
        DeleteObjectRequest.Builder delete = DeleteObjectRequest.builder().bucket(settings.bucket()).key(key)
                .overrideConfiguration(CLEANUP);
        stored.versionId().ifPresent(delete::versionId);
        return ops.cleanup(() -> ops.delete(delete.build())).handle((deleted, failure) -> {
            if (failure != null) {
                LOG.warn("s3://{}/{}: the file changed during its upload, and deleting what S3 stored failed ({});"
                        + " the object is still stored", settings.bucket(), key, Failures.describe(failure));
                return CompletableFuture.<StoredObject>failedFuture(Failures.upload(settings, key, request.fileName(),
                        changed, true, "deleting what S3 stored failed (the object MAY STILL BE STORED): "
                                + Failures.describe(failure)));
            }
            return CompletableFuture.<StoredObject>failedFuture(changed);
        }).thenCompose(Function.identity());
    }

    /** The configured part size, raised where the content would need more than {@link #MAX_PARTS} parts. */
    private long partSize(long size) throws IOException {
        long partSize = Math.max(options.partSize(), (size + MAX_PARTS - 1) / MAX_PARTS);
        if (partSize > S3UploadOptions.MAX_SINGLE_UPLOAD_SIZE) {
            throw new IOException("the content is " + size + " bytes, more than S3 stores in one object");
        }
        return partSize;
    }

    // ---- one PutObject ------------------------------------------------------------------------------------

    private CompletableFuture<StoredObject> putOnce(Payload payload) {
        PutObjectRequest put = object().contentLength(payload.length()).overrideConfiguration(callTimeout()).build();
        return track(ops.put(put, payload, tasks)).handle((response, failure) -> failure == null
                ? keep(stored(payload.length(), response.eTag(), response.versionId(), Digest.pick(algorithm,
                        response::checksumCRC32, response::checksumCRC32C, response::checksumSHA1,
                        response::checksumSHA256)))
                : afterFailedPut(failure, payload.sent)).thenCompose(Function.identity());
    }

    private CompletableFuture<StoredObject> afterFailedPut(Throwable failure, Sent sent) {
        if (Failures.refused(failure) || !sent.fullySent()) {
            LOG.debug("s3://{}/{}: not stored ({}): {}", settings.bucket(), key,
                    sent.fullySent() ? "refused" : "the content did not all go out", Failures.describe(failure));
            return CompletableFuture.failedFuture(failure); // S3 stored nothing of this request
        }
        // The whole content went out and no answer came: S3 may have stored it, or may still (a request the network
        // held can arrive late). Look; when nothing is there, look once more after the settle time.
        return lookFor(sent, failure, true);
    }

    private CompletableFuture<StoredObject> lookFor(Sent sent, Throwable failure, boolean again) {
        return ops.cleanup(() -> ops.head(headRequest())).handle((head, headFailure) -> {
            if (headFailure != null && !Failures.notFound(headFailure)) {
                return outcomeUnknown(failure, "checking for the object failed: " + Failures.describe(headFailure));
            }
            if (headFailure != null) {
                LOG.debug("s3://{}/{}: no answer and no object{}", settings.bucket(), key,
                        again ? "; looking again after " + SETTLE : ": not stored");
                return again ? ops.cleanup(() -> ops.settle(SETTLE)).thenCompose(x -> lookFor(sent, failure, false))
                        : CompletableFuture.<StoredObject>failedFuture(failure);
            }
            String stored = checksumOf(head);
            if (head.contentLength() == null || head.contentLength() != sent.length() || stored == null
                    || !stored.equals(sent.checksum())) {
                return CompletableFuture.<StoredObject>failedFuture(failure); // not ours: an older object
            }
            LOG.debug("s3://{}/{}: the answer was lost, but the object is stored", settings.bucket(), key);
            return keep(stored(sent.length(), head.eTag(), head.versionId(), stored));
        }).thenCompose(Function.identity());
    }

    /**
     * What is stored with the object, whether it goes up in one request or in parts: the one place the options and
     * the attachment become request fields.
     */
    private PutObjectRequest.Builder object() {
        PutObjectRequest.Builder object = PutObjectRequest.builder()
                .bucket(settings.bucket())
                .key(key)
                .contentType(request.contentType())
                .contentDisposition(Headers.contentDisposition(options.contentDisposition(), request.fileName()))
                .metadata(Headers.metadata(request.metadata()))
                .checksumAlgorithm(algorithm);
        options.storageClass().ifPresent(object::storageClass);
        options.serverSideEncryption().ifPresent(object::serverSideEncryption);
        options.kmsKeyId().ifPresent(object::ssekmsKeyId);
        return object;
    }

    /** Copies every field that both requests have, by name (how the SDK converts between its own requests). */
    private static void copyFields(SdkPojo from, SdkPojo to) {
        Map<String, SdkField<?>> fields = new HashMap<>();
        to.sdkFields().forEach(field -> fields.put(field.memberName(), field));
        for (SdkField<?> field : from.sdkFields()) {
            SdkField<?> target = fields.get(field.memberName());
            Object value = field.getValueOrDefault(from);
            if (target != null && value != null) {
                target.set(to, value);
            }
        }
    }

    // ---- multipart ----------------------------------------------------------------------------------------

    private CompletableFuture<StoredObject> multipart(PartSource source) {
        CreateMultipartUploadRequest.Builder create = CreateMultipartUploadRequest.builder();
        copyFields(object().build(), create);
        create.overrideConfiguration(callTimeout());
        Instant asked = Instant.now();
        return track(ops.create(create.build())).handle((created, failure) -> failure == null
                ? uploadParts(source, created.uploadId()) : afterFailedCreate(failure, asked))
                .thenCompose(Function.identity())
                .whenComplete((stored, failure) -> source.close());
    }

    private CompletableFuture<StoredObject> uploadParts(PartSource source, String uploadId) {
        AtomicBoolean completing = new AtomicBoolean();
        return new PartPump(source, uploadId).run().thenCompose(parts -> {
            completing.set(true);
            return track(ops.complete(CompleteMultipartUploadRequest.builder().bucket(settings.bucket())
                    .key(key).uploadId(uploadId).multipartUpload(m -> m.parts(parts))
                    .overrideConfiguration(callTimeout()).build()));
        }).handle((done, failure) -> failure == null
                ? keep(stored(source.bytes(), done.eTag(), done.versionId(), Digest.pick(algorithm,
                        done::checksumCRC32, done::checksumCRC32C, done::checksumSHA1, done::checksumSHA256)))
                : afterFailedMultipart(uploadId, failure, completing.get() && !Failures.refused(failure),
                        source.bytes()))
                .thenCompose(Function.identity());
    }

    /**
     * CreateMultipartUpload failed without S3 refusing it: S3 may have started an upload whose id never reached us
     * (the answer was lost, or the request arrived late). After the settle time, the key's uploads started since we
     * asked are aborted; with unique keys (the default key strategy) they can only be ours.
     */
    private CompletableFuture<StoredObject> afterFailedCreate(Throwable failure, Instant asked) {
        if (Failures.refused(failure)) {
            return CompletableFuture.failedFuture(failure);
        }
        return ops.cleanup(() -> ops.settle(SETTLE))
                .thenCompose(settled -> ops.cleanup(() -> ops.listUploads(ListMultipartUploadsRequest.builder()
                        .bucket(settings.bucket()).prefix(key).overrideConfiguration(CLEANUP).build())))
                .thenCompose(listed -> CompletableFuture.allOf(listed.uploads().stream()
                        .filter(upload -> key.equals(upload.key()) && upload.initiated() != null
                                && !upload.initiated().isBefore(asked.minus(CLOCK_SKEW)))
                        .map(upload -> ops.cleanup(() -> ops.abort(AbortMultipartUploadRequest.builder()
                                .bucket(settings.bucket()).key(key).uploadId(upload.uploadId())
                                .overrideConfiguration(CLEANUP).build())))
                        .toArray(CompletableFuture[]::new)))
                .handle((aborted, cleanupFailure) -> {
                    if (cleanupFailure == null) {
                        return CompletableFuture.<StoredObject>failedFuture(failure);
                    }
                    LOG.warn("s3://{}/{}: starting the multipart upload failed ({}), and an upload it may have started"
                            + " could not be aborted ({}); a lifecycle rule aborts it", settings.bucket(), key,
                            Failures.describe(failure), Failures.describe(cleanupFailure));
                    return CompletableFuture.<StoredObject>failedFuture(Failures.upload(settings, key,
                            request.fileName(), failure, true, "a multipart upload it may have started could not be"
                                    + " aborted (its parts MAY STILL BE STORED until the key is deleted): "
                                    + Failures.describe(cleanupFailure)));
                }).thenCompose(Function.identity());
    }

    private CompletableFuture<StoredObject> afterFailedMultipart(String uploadId, Throwable failure,
            boolean mayHaveCompleted, long size) {
        return ops.cleanup(() -> ops.abort(AbortMultipartUploadRequest.builder().bucket(settings.bucket()).key(key)
                .uploadId(uploadId).overrideConfiguration(CLEANUP).build())).handle((aborted, abortFailure) -> {
                    // Gone without a completion sent: an earlier abort worked (one whose answer an interrupt cut off).
                    if (abortFailure == null || !mayHaveCompleted && Failures.notFound(abortFailure)) {
                        return CompletableFuture.<StoredObject>failedFuture(failure); // nothing stored, parts gone
                    }
                    if (mayHaveCompleted && Failures.notFound(abortFailure)) {
                        // Nobody else knows the upload id: it is gone because CompleteMultipartUpload worked.
                        return ops.cleanup(() -> ops.head(headRequest()))
                                .handle((head, headFailure) -> headFailure != null
                                        ? outcomeUnknown(failure, "checking for the object failed: "
                                                + Failures.describe(headFailure))
                                        : keep(stored(Objects.requireNonNullElse(head.contentLength(), size),
                                                head.eTag(), head.versionId(), checksumOf(head))))
                                .thenCompose(Function.identity());
                    }
                    LOG.warn("s3://{}/{}: could not abort multipart upload {} ({}); its parts stay stored and billed"
                            + " until it is aborted, for example by a lifecycle rule", settings.bucket(), key,
                            uploadId, Failures.describe(abortFailure));
                    return CompletableFuture.<StoredObject>failedFuture(Failures.upload(settings, key,
                            request.fileName(), failure, true, "the incomplete multipart upload " + uploadId
                                    + " could not be aborted (its parts MAY STILL BE STORED until the key is deleted): "
                                    + Failures.describe(abortFailure)));
                }).thenCompose(Function.identity());
    }

    /**
     * Uploads the parts, up to {@code partsInFlight} at once (with blocking operations one after another: each
     * completes before the next starts), reading the next part while others are in flight. A drain loop instead of
     * recursion: with blocking operations every future completes at once, and ten thousand parts must not mean ten
     * thousand stack frames.
     */
    private final class PartPump {
        private final PartSource source;
        private final String uploadId;
        private final AtomicInteger pending = new AtomicInteger();
        private final CompletableFuture<List<CompletedPart>> done = new CompletableFuture<>();
        // Guarded by this:
        private final List<CompletedPart> parts = new ArrayList<>();
        private int inFlight;
        private boolean reading;
        private boolean exhausted;
        private @Nullable Throwable failure;
        private long sent;

        PartPump(PartSource source, String uploadId) {
            this.source = source;
            this.uploadId = uploadId;
        }

        CompletableFuture<List<CompletedPart>> run() {
            drain();
            return done;
        }

        private void drain() {
            if (pending.getAndIncrement() != 0) {
                return;
            }
            int missed = 1;
            do {
                step();
                missed = pending.addAndGet(-missed);
            } while (missed != 0);
        }

        private void step() {
            synchronized (this) {
                if (done.isDone()) {
                    return;
                }
                if (failure == null && tasks.cancelled()) {
                    failure = new CancellationException("the upload was cancelled");
                }
                if (failure != null || exhausted) {
                    if (inFlight == 0) {
                        if (failure != null) {
                            done.completeExceptionally(failure);
                        } else {
                            parts.sort(Comparator.comparing(CompletedPart::partNumber));
                            done.complete(List.copyOf(parts));
                        }
                    }
                    return;
                }
                if (reading || inFlight >= options.partsInFlight()) {
                    return;
                }
                reading = true;
            }
            track(source.next()).whenComplete((part, error) -> {
                boolean start;
                synchronized (this) {
                    reading = false;
                    if (error != null && failure == null) {
                        failure = error;
                    }
                    exhausted |= error == null && part == null;
                    start = part != null && failure == null;
                    if (start) {
                        inFlight++;
                    }
                }
                if (start) {
                    upload(part);
                }
                drain();
            });
        }

        private void upload(Part part) {
            track(ops.uploadPart(UploadPartRequest.builder()
                    .bucket(settings.bucket()).key(key).uploadId(uploadId).partNumber(part.number())
                    .contentLength(part.payload().length()).checksumAlgorithm(algorithm)
                    .overrideConfiguration(callTimeout()).build(), part.payload(), tasks))
                    .whenComplete((response, error) -> {
                        long progress;
                        synchronized (this) {
                            inFlight--;
                            if (error != null) {
                                failure = failure == null ? error : failure;
                            } else {
                                parts.add(Digest.part(part.number(), response.eTag(), algorithm, Digest.pick(
                                        algorithm, response::checksumCRC32, response::checksumCRC32C,
                                        response::checksumSHA1, response::checksumSHA256)));
                                sent += part.payload().length();
                            }
                            progress = sent;
                        }
                        if (error == null && source.reportsProgress()) {
                            request.reportProgress(progress);
                        }
                        drain();
                    });
        }
    }

    // ---- parts --------------------------------------------------------------------------------------------

    /** One part: its number (from 1) and its body. */
    private record Part(int number, Payload payload) {
    }

    /** Where parts come from; called by one pump, one call at a time. */
    private interface PartSource extends AutoCloseable {
        /** The next part, or null after the last. */
        CompletableFuture<@Nullable Part> next();

        /** The bytes of all parts handed out so far (the content's length, once the last was). */
        long bytes();

        /** Whether the transfer reports progress (files); streams report it themselves as they are read. */
        boolean reportsProgress();

        @Override
        void close();
    }

    /**
     * Slices of content that is whole already: a file, read from disk by position when sent, or bytes in memory.
     * Nothing buffered.
     */
    private static final class SliceParts implements PartSource {
        /** The payload of {@code size} bytes from {@code offset}. */
        interface Slicer {
            Payload slice(long offset, long size);
        }

        private final long length;
        private final long partSize;
        private final Slicer slicer;
        private long offset;
        private int number;

        SliceParts(long length, long partSize, Slicer slicer) {
            this.length = length;
            this.partSize = partSize;
            this.slicer = slicer;
        }

        @Override
        public CompletableFuture<@Nullable Part> next() {
            if (offset >= length) {
                return CompletableFuture.completedFuture(null);
            }
            long size = Math.min(partSize, length - offset);
            Part part = new Part(++number, slicer.slice(offset, size));
            offset += size;
            return CompletableFuture.completedFuture(part);
        }

        @Override
        public long bytes() {
            return offset;
        }

        @Override
        public boolean reportsProgress() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    /** Parts read from one stream into memory, one part at a time, on the read executor. */
    private final class StreamParts implements PartSource {
        private final InputStream in;
        private final long length;
        private final int partSize;
        private @Nullable byte[] first;
        private long offset;
        private int number;

        StreamParts(InputStream in, long length, long partSize, @Nullable byte[] first) {
            this.in = in;
            this.length = length;
            this.partSize = (int) Math.min(partSize, Integer.MAX_VALUE - 8);
            this.first = first;
        }

        @Override
        public CompletableFuture<@Nullable Part> next() {
            byte[] head = first;
            if (head != null) {
                first = null;
                return CompletableFuture.completedFuture(part(head));
            }
            return ops.read(() -> {
                byte[] bytes;
                if (length >= 0) {
                    bytes = new byte[(int) Math.min(partSize, length - offset)];
                    int read = readFully(in, bytes);
                    if (read < bytes.length) {
                        throw new IOException("the content ended after " + (offset + read)
                                + " bytes, before its declared length of " + length);
                    }
                } else {
                    bytes = in.readNBytes(partSize);
                }
                if (bytes.length == 0) {
                    return null;
                }
                if (number == MAX_PARTS) {
                    throw new IOException("the content is longer than " + MAX_PARTS + " parts of " + partSize
                            + " bytes: raise the part size");
                }
                return part(bytes);
            });
        }

        private Part part(byte[] bytes) {
            offset += bytes.length;
            return new Part(++number, Payload.bytes(bytes, bytes.length, Sent.untracked(bytes.length)));
        }

        @Override
        public long bytes() {
            return offset;
        }

        @Override
        public boolean reportsProgress() {
            return false;
        }

        @Override
        public void close() {
            Transfer.close(in);
        }
    }

    // ---- helpers ------------------------------------------------------------------------------------------

    private <T> CompletableFuture<T> track(CompletableFuture<T> future) {
        return tasks.add(future);
    }

    /** Per-request timeout: what is left of the upload's time, so that the SDK gives up when the uploader does. */
    private @Nullable AwsRequestOverrideConfiguration callTimeout() {
        if (deadline == null) {
            return null;
        }
        long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
        return AwsRequestOverrideConfiguration.builder().apiCallTimeout(Duration.ofMillis(left)).build();
    }

    /**
     * Deletes what this upload stored, because its caller cancelled it just as S3 stored the object (the caller saw
     * the cancel, not the object). Failures are logged. Completes when done.
     */
    public CompletableFuture<?> discard() {
        tasks.cancelAll();
        return deleteAgain();
    }

    /** A stored object for the caller, or, when the upload was cancelled meanwhile, deleted again. */
    private CompletableFuture<StoredObject> keep(StoredObject stored) {
        return tasks.cancelled() ? deleteAgain() : CompletableFuture.completedFuture(stored);
    }

    private CompletableFuture<StoredObject> deleteAgain() {
        LOG.debug("s3://{}/{}: stored, but the upload was cancelled: deleting it", settings.bucket(), key);
        CancellationException cancelled = new CancellationException("the upload was cancelled");
        return ops.cleanup(() -> ops.delete(DeleteObjectRequest.builder().bucket(settings.bucket()).key(key)
                .overrideConfiguration(CLEANUP).build()))
                .handle((deleted, failure) -> {
                    if (failure == null) {
                        return CompletableFuture.<StoredObject>failedFuture(cancelled);
                    }
                    LOG.warn("s3://{}/{}: the upload was cancelled after S3 stored the object, and deleting it failed"
                            + " ({}); the object is still stored", settings.bucket(), key, Failures.describe(failure));
                    return outcomeUnknown(cancelled, "deleting the object failed: " + Failures.describe(failure));
                }).thenCompose(Function.identity());
    }

    private CompletableFuture<StoredObject> outcomeUnknown(Throwable failure, String note) {
        LOG.warn("s3://{}/{}: the object may be stored although its upload failed: {}", settings.bucket(), key, note);
        return CompletableFuture.failedFuture(Failures.upload(settings, key, request.fileName(), failure, true,
                note + "; the whole content was sent and no answer came: the object MAY BE STORED"));
    }

    private StoredObject stored(long size, @Nullable String eTag, @Nullable String versionId,
            @Nullable String checksum) {
        StoredObject.Builder stored = StoredObject.builder(key, size).eTag(eTag).versionId(versionId);
        if (checksum != null) {
            stored.checksum(algorithm.toString(), checksum);
        }
        try {
            URI location = settings.location().apply(key);
            stored.location(location);
        } catch (RuntimeException e) {
            // The object is stored; a URL we cannot make must not turn that into a failure.
            LOG.warn("s3://{}/{}: stored, but its location could not be made: {}", settings.bucket(), key,
                    Failures.describe(e));
        }
        return stored.build();
    }

    private HeadObjectRequest headRequest() {
        return HeadObjectRequest.builder().bucket(settings.bucket()).key(key).checksumMode(ChecksumMode.ENABLED)
                .overrideConfiguration(CLEANUP).build();
    }

    private @Nullable String checksumOf(HeadObjectResponse head) {
        return Digest.pick(algorithm, head::checksumCRC32, head::checksumCRC32C, head::checksumSHA1,
                head::checksumSHA256);
    }

    /**
     * Fills the array from the stream, 64 KiB per read: asked for a whole part at once, a stream over a file channel
     * reads through a temporary direct buffer of that size, which the JDK then caches for the thread (direct memory
     * growing by threads × part size).
     */
    private static int readFully(InputStream in, byte[] bytes) throws IOException {
        int filled = 0;
        while (filled < bytes.length) {
            int read = in.read(bytes, filled, Math.min(READ_STEP, bytes.length - filled));
            if (read < 0) {
                break;
            }
            filled += read;
        }
        return filled;
    }

    private static void close(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            LOG.debug("closing content failed", e);
        }
    }
}
