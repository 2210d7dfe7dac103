package io.github.boundedupload;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Flow;

/**
 * The bytes of an attachment, in a form that can be read again from the start for every attempt, so that storage
 * clients can retry. Changes when a new source of an attachment's bytes is supported.
 *
 * <p>Nothing here reads a whole file into memory: a {@link #ofPath(Path) path} is streamed from disk, a
 * {@link #ofStream(StreamOpener, long) stream} or a {@link #ofPublisher(PublisherOpener, long) publisher} is opened
 * anew for each attempt, and only content the caller already holds as a {@link #ofBytes(byte[]) byte array} is in
 * memory.
 *
 * <pre>{@code
 * AttachmentContent.ofPath(Path.of("week-3/slides.pdf"));
 * AttachmentContent.ofBytes(thumbnailPng);
 * AttachmentContent.ofStream(multipartFile::getInputStream, multipartFile.getSize());
 * AttachmentContent.ofStream(() -> URI.create(url).toURL().openStream()); // length unknown
 * AttachmentContent.ofPublisher(() -> JdkFlowAdapter.publisherToFlowPublisher(buffers()), length); // no thread
 * AttachmentContent.ofStoredObject(StoredObject.builder("staging/0b6f...", 48_213).build()); // copied, not sent
 * }</pre>
 */
public abstract class AttachmentContent {

    /**
     * Opens a new stream positioned at the first byte of the content. Called once for every attempt.
     */
    @FunctionalInterface
    public interface StreamOpener {
        /**
         * Opens the content from its first byte.
         *
         * @return a new stream, closed by whoever reads it
         * @throws IOException when the content cannot be opened
         */
        InputStream open() throws IOException;
    }

    /**
     * Opens a new publisher of the content from its first byte. Called once for every attempt.
     */
    @FunctionalInterface
    public interface PublisherOpener {
        /**
         * Opens the content from its first byte.
         *
         * @return a new publisher, which honours the demand of its subscriber and hands it each buffer for good (it
         *         does not reuse a buffer it has emitted)
         */
        Flow.Publisher<ByteBuffer> open();
    }

    AttachmentContent() {
    }

    /**
     * Content streamed from a file. The file must exist when the batch is submitted and must not change until
     * the upload has finished.
     *
     * @param file a regular, readable file
     * @return the content
     */
    public static AttachmentContent ofPath(Path file) {
        return new PathContent(file);
    }

    /**
     * Content the caller already holds in memory. The array is not copied (copying would double the memory of
     * large uploads): do not modify it until the upload has finished.
     *
     * @param bytes the content
     * @return the content
     */
    public static AttachmentContent ofBytes(byte[] bytes) {
        return new BytesContent(bytes);
    }

    /**
     * Content of a known length from a source that can be opened again for every attempt.
     *
     * @param opener opens the content from its first byte; called once per attempt
     * @param length the exact number of bytes the stream yields, zero or more
     * @return the content
     */
    public static AttachmentContent ofStream(StreamOpener opener, long length) {
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0, was " + length);
        }
        return new StreamContent(opener, length);
    }

    /**
     * Content of unknown length from a source that can be opened again for every attempt. Prefer
     * {@link #ofStream(StreamOpener, long)} when the length is known: an upload of unknown length counts against
     * {@link UploaderConfig#maxBytesInFlight()} with the largest size it may have ({@link UploaderConfig#maxAttachmentSize()}),
     * and storage clients may have to upload it in parts.
     *
     * @param opener opens the content from its first byte; called once per attempt
     * @return the content
     */
    public static AttachmentContent ofStream(StreamOpener opener) {
        return new StreamContent(opener, -1);
    }

    /**
     * Content of a known length published as buffers, for sources that do not block, such as the parts of a WebFlux
     * request ({@code FilePartAttachments.of} in the Spring Boot module) or a non-blocking client's response body. A
     * {@link io.github.boundedupload.spi.AsyncFileUploader non-blocking storage} that takes {@link #publisher()} sends
     * it without a thread of its own; a storage that reads streams reads it through {@link #openStream()}, which asks
     * the publisher for a few buffers at a time, so that memory stays bounded however fast the publisher could go.
     *
     * @param opener opens the content from its first byte; called once per attempt, so that a storage can retry
     * @param length the exact number of bytes the publisher emits, zero or more
     * @return the content
     */
    public static AttachmentContent ofPublisher(PublisherOpener opener, long length) {
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0, was " + length);
        }
        return new PublisherContent(opener, length);
    }

    /**
     * Content that is already in the storage: an object a client uploaded directly (under a grant), described as the
     * client said it would be. The storage checks the object under {@link StoredObject#key()} against the description
     * before anything is written (it exists, has exactly {@link StoredObject#size()} bytes, and, where given, the
     * {@link StoredObject#checksum() checksum} and {@link StoredObject#eTag() ETag}), then copies it to the
     * attachment's key within the storage: its bytes never cross the application. The object under the source key is
     * left as it is. A storage that cannot copy its own objects fails the attachment: {@link #openStream()} refuses.
     *
     * @param source the object to copy, and what it must be
     * @return the content
     * @see #storedObject()
     */
    public static AttachmentContent ofStoredObject(StoredObject source) {
        return new StoredObjectContent(Objects.requireNonNull(source, "source"));
    }

    /**
     * Opens the content from its first byte. Each call returns a new stream.
     *
     * @return a stream the caller must close
     * @throws IOException when the content cannot be opened
     */
    public abstract InputStream openStream() throws IOException;

    /**
     * The length in bytes, when known before reading.
     *
     * @return the length, or empty for a stream of unknown length
     * @throws java.io.UncheckedIOException when the size of a file cannot be read
     */
    public abstract OptionalLong length();

    /**
     * The file behind this content, for storage clients that read files more efficiently than streams.
     *
     * @return the file, or empty when the content is not a file
     */
    public Optional<Path> path() {
        return Optional.empty();
    }

    /**
     * The bytes behind this content, for storage clients that send memory as it is: a non-blocking client then needs
     * no thread to read a stream. Each call returns a new read-only view of the caller's array, not a copy.
     *
     * @return the bytes, or empty when the content is not held in memory
     */
    public Optional<ByteBuffer> bytes() {
        return Optional.empty();
    }

    /**
     * The content as a publisher of buffers, for storage clients that do not block: each subscription opens the
     * content anew, from its first byte (an attempt each). Those should call
     * {@link io.github.boundedupload.spi.UploadRequest#reportProgress(long)} as bytes go out, and must fail when it
     * emits more or fewer bytes than {@link #length()}.
     *
     * @return a publisher, or empty when the content is not published (read it through {@link #openStream()})
     */
    public Optional<Flow.Publisher<ByteBuffer>> publisher() {
        return Optional.empty();
    }

    /**
     * The object in the storage this content is, for storages that copy their own objects
     * ({@link #ofStoredObject(StoredObject)}): such a storage checks it and copies it instead of reading a stream.
     *
     * @return the object to copy and what it must be, or empty when the content is not in the storage
     */
    public Optional<StoredObject> storedObject() {
        return Optional.empty();
    }

    private static final class PathContent extends AttachmentContent {
        private final Path file;

        PathContent(Path file) {
            this.file = Objects.requireNonNull(file, "file");
        }

        @Override
        public InputStream openStream() throws IOException {
            return Files.newInputStream(file);
        }

        @Override
        public OptionalLong length() {
            try {
                return OptionalLong.of(Files.size(file));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public Optional<Path> path() {
            return Optional.of(file);
        }

        @Override
        public String toString() {
            return "file content";
        }
    }

    private static final class BytesContent extends AttachmentContent {
        private final byte[] bytes;

        BytesContent(byte[] bytes) {
            this.bytes = Objects.requireNonNull(bytes, "bytes");
        }

        @Override
        public InputStream openStream() {
            return new ByteArrayInputStream(bytes);
        }

        @Override
        public OptionalLong length() {
            return OptionalLong.of(bytes.length);
        }

        @Override
        public Optional<ByteBuffer> bytes() {
            return Optional.of(ByteBuffer.wrap(bytes).asReadOnlyBuffer());
        }

        @Override
        public String toString() {
            return bytes.length + " bytes in memory";
        }
    }

    private static final class StreamContent extends AttachmentContent {
        private final StreamOpener opener;
        private final long length;

        StreamContent(StreamOpener opener, long length) {
            this.opener = Objects.requireNonNull(opener, "opener");
            this.length = length;
        }

        @Override
        public InputStream openStream() throws IOException {
            InputStream stream = opener.open();
            if (stream == null) {
                throw new IOException("the stream opener returned null");
            }
            return stream;
        }

        @Override
        public OptionalLong length() {
            return length < 0 ? OptionalLong.empty() : OptionalLong.of(length);
        }

        @Override
        public String toString() {
            return length < 0 ? "stream of unknown length" : "stream of " + length + " bytes";
        }
    }

    private static final class PublisherContent extends AttachmentContent {
        private final PublisherOpener opener;
        private final long length;

        PublisherContent(PublisherOpener opener, long length) {
            this.opener = Objects.requireNonNull(opener, "opener");
            this.length = length;
        }

        @Override
        public InputStream openStream() throws IOException {
            return PublisherInputStream.of(open());
        }

        private Flow.Publisher<ByteBuffer> open() throws IOException {
            Flow.Publisher<ByteBuffer> publisher = opener.open();
            if (publisher == null) {
                throw new IOException("the publisher opener returned null");
            }
            return publisher;
        }

        @Override
        public OptionalLong length() {
            return OptionalLong.of(length);
        }

        @Override
        public Optional<Flow.Publisher<ByteBuffer>> publisher() {
            return Optional.of(subscriber -> {
                Flow.Publisher<ByteBuffer> publisher;
                try {
                    publisher = open();
                } catch (IOException | RuntimeException e) {
                    // A publisher that cannot be opened fails its subscriber, as a stream that cannot be opened fails
                    // its reader.
                    subscriber.onSubscribe(new Flow.Subscription() {
                        @Override
                        public void request(long n) {
                        }

                        @Override
                        public void cancel() {
                        }
                    });
                    subscriber.onError(e);
                    return;
                }
                publisher.subscribe(subscriber);
            });
        }

        @Override
        public String toString() {
            return "publisher of " + length + " bytes";
        }
    }

    private static final class StoredObjectContent extends AttachmentContent {
        private final StoredObject source;

        StoredObjectContent(StoredObject source) {
            this.source = source;
        }

        @Override
        public InputStream openStream() throws IOException {
            throw new IOException("the content is an object in the storage, to be copied there: this storage reads"
                    + " streams and cannot copy its objects");
        }

        @Override
        public OptionalLong length() {
            return OptionalLong.of(source.size());
        }

        @Override
        public Optional<StoredObject> storedObject() {
            return Optional.of(source);
        }

        @Override
        public String toString() {
            return "stored object (" + source.size() + " bytes)";
        }
    }
}
