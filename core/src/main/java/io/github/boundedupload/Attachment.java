package io.github.boundedupload;

import io.github.boundedupload.support.SafeText;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One blob to upload: its file name, its {@link AttachmentContent content}, and optionally a content type, user
 * metadata and an explicit storage key. Immutable. Changes when what describes one blob to upload changes.
 *
 * <p>The file name is a name, never a path: it is checked when the batch is submitted (see
 * {@link InvalidAttachmentException}), and becomes part of a storage key only through a {@link KeyStrategy}, which
 * sanitises it.
 *
 * <pre>{@code
 * Attachment.of(Path.of("/tmp/upload-123/Algorithm.png"));
 * Attachment.of("notes.txt", bytes);
 * Attachment.builder("slides.pdf", AttachmentContent.ofStream(file::getInputStream, file.getSize()))
 *     .contentType("application/pdf")
 *     .metadata("study-id", "42")
 *     .build();
 * }</pre>
 */
public final class Attachment {

    private final String fileName;
    private final AttachmentContent content;
    private final @Nullable String contentType;
    private final Map<String, String> metadata;
    private final @Nullable String key;

    private Attachment(Builder builder) {
        this.fileName = builder.fileName;
        this.content = builder.content;
        this.contentType = builder.contentType;
        this.metadata = Collections.unmodifiableMap(new LinkedHashMap<>(builder.metadata));
        this.key = builder.key;
    }

    /**
     * An attachment streamed from a file, named after the file.
     *
     * @param file a regular, readable file
     * @return the attachment
     */
    public static Attachment of(Path file) {
        Path name = Objects.requireNonNull(file, "file").getFileName();
        if (name == null) {
            throw new IllegalArgumentException("the path has no file name: " + file);
        }
        return builder(name.toString(), AttachmentContent.ofPath(file)).build();
    }

    /**
     * An attachment held in memory.
     *
     * @param fileName the file name, not a path
     * @param bytes the content; not copied
     * @return the attachment
     */
    public static Attachment of(String fileName, byte[] bytes) {
        return builder(fileName, AttachmentContent.ofBytes(bytes)).build();
    }

    /**
     * An attachment with the given content.
     *
     * @param fileName the file name, not a path
     * @param content the content
     * @return the attachment
     */
    public static Attachment of(String fileName, AttachmentContent content) {
        return builder(fileName, content).build();
    }

    /**
     * A builder for an attachment with optional content type, metadata and key.
     *
     * @param fileName the file name, not a path
     * @param content the content
     * @return a new builder
     */
    public static Builder builder(String fileName, AttachmentContent content) {
        return new Builder(fileName, content);
    }

    /**
     * A builder that starts with the values of this attachment; the attachment itself does not change.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder builder = new Builder(fileName, content);
        builder.contentType = contentType;
        builder.metadata.putAll(metadata);
        builder.key = key;
        return builder;
    }

    /**
     * The file name as the client gave it.
     *
     * @return the file name
     */
    public String fileName() {
        return fileName;
    }

    /**
     * The content.
     *
     * @return the content
     */
    public AttachmentContent content() {
        return content;
    }

    /**
     * The declared content type (for example {@code image/png}).
     *
     * @return the declared content type, or empty to let the storage detect it from the file name
     */
    public Optional<String> contentType() {
        return Optional.ofNullable(contentType);
    }

    /**
     * User metadata stored with the object.
     *
     * @return an unmodifiable map, in insertion order
     */
    public Map<String, String> metadata() {
        return metadata;
    }

    /**
     * The storage key chosen by the caller.
     *
     * @return the explicit key, or empty to let the configured {@link KeyStrategy} choose one
     */
    public Optional<String> key() {
        return Optional.ofNullable(key);
    }

    @Override
    public String toString() {
        return "Attachment[" + SafeText.quote(fileName) + ", " + content + "]";
    }

    /** Builds an {@link Attachment}. Not thread-safe. */
    public static final class Builder {
        private final String fileName;
        private final AttachmentContent content;
        private @Nullable String contentType;
        private final Map<String, String> metadata = new LinkedHashMap<>();
        private @Nullable String key;

        private Builder(String fileName, AttachmentContent content) {
            this.fileName = Objects.requireNonNull(fileName, "fileName");
            this.content = Objects.requireNonNull(content, "content");
        }

        /**
         * Declares the content type instead of detecting it from the file name.
         *
         * @param contentType a media type such as {@code image/png}, or {@code null} to detect it
         * @return this builder
         */
        public Builder contentType(@Nullable String contentType) {
            this.contentType = contentType;
            return this;
        }

        /**
         * Adds one user metadata entry.
         *
         * @param name the entry's name (ASCII letters, digits, {@code -} and {@code _})
         * @param value the entry's value (printable, no control characters)
         * @return this builder
         */
        public Builder metadata(String name, String value) {
            metadata.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Adds user metadata entries.
         *
         * @param entries the entries to add
         * @return this builder
         */
        public Builder metadata(Map<String, String> entries) {
            entries.forEach(this::metadata);
            return this;
        }

        /**
         * Stores the attachment under this exact key instead of one chosen by the {@link KeyStrategy}. The key is
         * still checked: no empty, {@code .} or {@code ..} segments, no backslashes or control characters.
         *
         * @param key the storage key, or {@code null} to let the key strategy choose
         * @return this builder
         */
        public Builder key(@Nullable String key) {
            this.key = key;
            return this;
        }

        /**
         * Builds the attachment.
         *
         * @return a new, immutable attachment
         */
        public Attachment build() {
            return new Attachment(this);
        }
    }
}
