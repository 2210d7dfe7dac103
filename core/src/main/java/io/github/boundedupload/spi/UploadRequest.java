package io.github.boundedupload.spi;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * One upload as a {@link FileUploader} sees it: the checked key, the attachment, the resolved content type, and the
 * time it has. Immutable. Changes when what a storage is given for one upload changes.
 *
 * <pre>{@code
 * // in a FileUploader
 * try (InputStream in = request.openStream()) {   // counts progress, enforces the size limit
 *     ...
 * }
 * }</pre>
 */
public final class UploadRequest {

    private static final LongConsumer NO_PROGRESS = bytes -> { };
    private static final CompletionStage<Void> NEVER = new CompletableFuture<Void>().minimalCompletionStage();

    private final String key;
    private final Attachment attachment;
    /** Worked out when first asked for: a storage that does not need it (or a test) does not pay for it. */
    private volatile @Nullable String contentType;
    private final @Nullable Duration timeout;
    private final LongConsumer progress;
    private final long maxBytes;
    /** The length checked before the batch started, or -1 to ask the content. */
    private final long checkedLength;
    private final CompletionStage<Void> cancellation;

    private UploadRequest(Builder builder) {
        this.key = builder.key;
        this.attachment = builder.attachment;
        this.timeout = builder.timeout;
        this.progress = builder.progress;
        this.maxBytes = builder.maxBytes;
        this.cancellation = builder.cancellation;
        this.checkedLength = builder.checkedLength;
    }

    /**
     * A request with no timeout, no progress reporting and no size limit beyond the content's own length.
     *
     * @param key the storage key
     * @param attachment the attachment
     * @return the request
     */
    public static UploadRequest of(String key, Attachment attachment) {
        return builder(key, attachment).build();
    }

    /**
     * A builder for a request; {@link io.github.boundedupload.ConcurrentAttachmentUploader} fills in the timeout,
     * progress reporting and size limit.
     *
     * @param key the storage key
     * @param attachment the attachment
     * @return a new builder
     */
    public static Builder builder(String key, Attachment attachment) {
        return new Builder(key, attachment);
    }

    /**
     * The storage key, already checked.
     *
     * @return the key
     */
    public String key() {
        return key;
    }

    /**
     * The attachment being uploaded.
     *
     * @return the attachment
     */
    public Attachment attachment() {
        return attachment;
    }

    /**
     * The attachment's file name as the client gave it. Use it for a {@code Content-Disposition}, never as a path.
     *
     * @return the file name
     */
    public String fileName() {
        return attachment.fileName();
    }

    /**
     * The declared content type, or one detected from the file name's extension, or
     * {@code application/octet-stream}.
     *
     * @return the content type
     */
    public String contentType() {
        String type = contentType;
        if (type == null) {
            type = attachment.contentType().orElseGet(() -> ContentTypes.fromFileName(attachment.fileName()));
            contentType = type;
        }
        return type;
    }

    /**
     * User metadata to store with the object, already checked.
     *
     * @return an unmodifiable map
     */
    public Map<String, String> metadata() {
        return attachment.metadata();
    }

    /**
     * The content, for implementations that read files or bytes in memory directly ({@link AttachmentContent#path()},
     * {@link AttachmentContent#bytes()}). Those should call {@link #reportProgress(long)} as bytes go out.
     *
     * @return the content
     */
    public AttachmentContent content() {
        return attachment.content();
    }

    /**
     * The content length, when known before reading: the length the uploader checked against its limits before the
     * batch started. A storage must send exactly this many bytes and fail when the content turns out longer or
     * shorter (a file that grew or shrank since), so that what is stored is what was checked;
     * {@link #openStream()} does that for those that read through it.
     *
     * @return the length, or empty
     */
    public OptionalLong contentLength() {
        return checkedLength >= 0 ? OptionalLong.of(checkedLength) : attachment.content().length();
    }

    /**
     * Opens the content from its first byte, counting bytes for progress reporting and failing with an
     * {@link IOException} as soon as it yields more than its declared length or the configured maximum size, or ends
     * before its declared length.
     *
     * @return a new stream; the caller closes it
     * @throws IOException when the content cannot be opened
     */
    public InputStream openStream() throws IOException {
        long declared = contentLength().orElse(-1);
        long limit = declared >= 0 ? Math.min(declared, maxBytes) : maxBytes;
        boolean exact = declared >= 0 && declared <= maxBytes;
        return new MeteredInputStream(attachment.content().openStream(), limit,
                exact ? "its declared length" : "the maximum attachment size", exact, progress);
    }

    /**
     * Reports how many bytes of this attempt have been sent so far, for implementations that do not read through
     * {@link #openStream()}.
     *
     * @param bytesSoFar bytes sent in this attempt
     */
    public void reportProgress(long bytesSoFar) {
        progress.accept(bytesSoFar);
    }

    /**
     * How long this upload may take. Pass it to the storage client's own per-request timeout where it has one, so
     * that the request is aborted at the same moment the uploader gives up on it.
     *
     * @return the time left, or empty when unlimited
     */
    public Optional<Duration> timeout() {
        return Optional.ofNullable(timeout);
    }

    /**
     * Completes when the uploader gives up on this upload (its timeout passed, its batch stopped, the uploader
     * closed); never completes otherwise. A {@link AsyncFileUploader non-blocking storage} must then stop its
     * requests, remove what the upload started (an incomplete multipart upload, an object stored in the meantime),
     * and only then complete the future it returned: exceptionally when nothing is stored, or with the object when
     * it is stored after all (the uploader then deletes it where the batch requires). The uploader reports the
     * attachment only when that future completes, so that its status is true when reported. A blocking storage is
     * interrupted as well and may ignore this.
     *
     * <pre>{@code
     * request.cancellation().thenRun(transfer::abort);
     * }</pre>
     *
     * @return a stage that completes (normally) when the upload is cancelled
     */
    public CompletionStage<Void> cancellation() {
        return cancellation;
    }

    @Override
    public String toString() {
        return "UploadRequest[key=" + key + ", " + attachment + "]";
    }

    /** Builds an {@link UploadRequest}. Not thread-safe. */
    public static final class Builder {
        private final String key;
        private final Attachment attachment;
        private @Nullable Duration timeout;
        private LongConsumer progress = NO_PROGRESS;
        private long maxBytes = Long.MAX_VALUE;
        private CompletionStage<Void> cancellation = NEVER;
        private long checkedLength = -1;

        private Builder(String key, Attachment attachment) {
            this.key = Objects.requireNonNull(key, "key");
            this.attachment = Objects.requireNonNull(attachment, "attachment");
        }

        /**
         * Sets how long the upload may take.
         *
         * @param timeout a positive duration, or {@code null} for no limit
         * @return this builder
         */
        public Builder timeout(@Nullable Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /**
         * Sets what receives the number of bytes sent so far.
         *
         * @param progress called with the bytes sent so far in the current attempt
         * @return this builder
         */
        public Builder progress(LongConsumer progress) {
            this.progress = Objects.requireNonNull(progress, "progress");
            return this;
        }

        /**
         * Sets the most bytes the content may yield.
         *
         * @param maxBytes the limit
         * @return this builder
         */
        public Builder maxBytes(long maxBytes) {
            this.maxBytes = maxBytes;
            return this;
        }

        /**
         * Sets the length the content had when it was checked, which the upload must send exactly; by default the
         * content is asked for its length.
         *
         * @param length the length in bytes, or -1 for unknown
         * @return this builder
         */
        public Builder contentLength(long length) {
            this.checkedLength = length < 0 ? -1 : length;
            return this;
        }

        /**
         * Sets what signals that the uploader gave up on the upload (see {@link UploadRequest#cancellation()}).
         *
         * @param cancellation completes when the upload is cancelled
         * @return this builder
         */
        public Builder cancellation(CompletionStage<Void> cancellation) {
            this.cancellation = Objects.requireNonNull(cancellation, "cancellation");
            return this;
        }

        /**
         * Builds the request.
         *
         * @return a new, immutable request
         */
        public UploadRequest build() {
            return new UploadRequest(this);
        }
    }
}
