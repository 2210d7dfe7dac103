package io.github.boundedupload;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What the storage really holds after an upload: the key, where to find it, its size, and what the storage reported
 * to identify the bytes (ETag, checksum, version). Immutable; built by {@link io.github.boundedupload.spi.FileUploader}
 * implementations. Changes when what a stored object records changes.
 *
 * <pre>{@code
 * StoredObject.builder("2026/11/22/5f0c...-slides.pdf", 48213)
 *     .location(URI.create("https://bucket.s3.amazonaws.com/2026/11/22/5f0c...-slides.pdf"))
 *     .eTag("\"9b2cf535f27731c974343645a3985328\"")
 *     .checksum("CRC32", "rW9Dqg==")
 *     .build();
 * }</pre>
 */
public final class StoredObject {

    private final String key;
    private final long size;
    private final @Nullable URI location;
    private final @Nullable String eTag;
    private final @Nullable String checksumAlgorithm;
    private final @Nullable String checksum;
    private final @Nullable String versionId;

    private StoredObject(Builder builder) {
        this.key = builder.key;
        this.size = builder.size;
        this.location = builder.location;
        this.eTag = builder.eTag;
        this.checksumAlgorithm = builder.checksumAlgorithm;
        this.checksum = builder.checksum;
        this.versionId = builder.versionId;
    }

    /**
     * Starts a description of a stored object.
     *
     * @param key the key the object is stored under
     * @param size the number of bytes stored
     * @return a new builder
     */
    public static Builder builder(String key, long size) {
        return new Builder(key, size);
    }

    /**
     * The key the object is stored under.
     *
     * @return the key
     */
    public String key() {
        return key;
    }

    /**
     * The number of bytes stored.
     *
     * @return the size in bytes
     */
    public long size() {
        return size;
    }

    /**
     * Where the object can be read: a {@code file:} URI, an object URL, or a presigned URL, depending on the storage
     * and its settings. A presigned URL is a credential: do not log it.
     *
     * @return the location, or empty when the storage has none to give
     */
    public Optional<URI> location() {
        return Optional.ofNullable(location);
    }

    /**
     * The entity tag the storage returned.
     *
     * @return the ETag, or empty
     */
    public Optional<String> eTag() {
        return Optional.ofNullable(eTag);
    }

    /**
     * The name of the checksum algorithm, for example {@code CRC32}, {@code CRC32C} or {@code SHA256}.
     *
     * @return the algorithm, or empty when no checksum was computed
     */
    public Optional<String> checksumAlgorithm() {
        return Optional.ofNullable(checksumAlgorithm);
    }

    /**
     * The checksum of the stored bytes, Base64-encoded as S3 reports it.
     *
     * @return the checksum, or empty when none was computed
     */
    public Optional<String> checksum() {
        return Optional.ofNullable(checksum);
    }

    /**
     * The version id, when the storage keeps versions.
     *
     * @return the version id, or empty
     */
    public Optional<String> versionId() {
        return Optional.ofNullable(versionId);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof StoredObject)) {
            return false;
        }
        StoredObject other = (StoredObject) o;
        return size == other.size && key.equals(other.key) && Objects.equals(location, other.location)
                && Objects.equals(eTag, other.eTag) && Objects.equals(checksumAlgorithm, other.checksumAlgorithm)
                && Objects.equals(checksum, other.checksum) && Objects.equals(versionId, other.versionId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, size, location, eTag, checksumAlgorithm, checksum, versionId);
    }

    /** The key, size and checksum; never the location, which may be a presigned URL. */
    @Override
    public String toString() {
        return "StoredObject[key=" + key + ", size=" + size
                + (checksum == null ? "" : ", " + checksumAlgorithm + "=" + checksum) + "]";
    }

    /** Builds a {@link StoredObject}. Not thread-safe. */
    public static final class Builder {
        private final String key;
        private final long size;
        private @Nullable URI location;
        private @Nullable String eTag;
        private @Nullable String checksumAlgorithm;
        private @Nullable String checksum;
        private @Nullable String versionId;

        private Builder(String key, long size) {
            this.key = Objects.requireNonNull(key, "key");
            if (size < 0) {
                throw new IllegalArgumentException("size must be >= 0, was " + size);
            }
            this.size = size;
        }

        /**
         * Sets where the object can be read.
         *
         * @param location the location, or {@code null}
         * @return this builder
         */
        public Builder location(@Nullable URI location) {
            this.location = location;
            return this;
        }

        /**
         * Sets the entity tag the storage returned.
         *
         * @param eTag the ETag, or {@code null}
         * @return this builder
         */
        public Builder eTag(@Nullable String eTag) {
            this.eTag = eTag;
            return this;
        }

        /**
         * Sets the checksum of the stored bytes.
         *
         * @param algorithm the algorithm, for example {@code CRC32}
         * @param value the Base64-encoded checksum
         * @return this builder
         */
        public Builder checksum(String algorithm, String value) {
            this.checksumAlgorithm = Objects.requireNonNull(algorithm, "algorithm");
            this.checksum = Objects.requireNonNull(value, "value");
            return this;
        }

        /**
         * Sets the version id.
         *
         * @param versionId the version id, or {@code null}
         * @return this builder
         */
        public Builder versionId(@Nullable String versionId) {
            this.versionId = versionId;
            return this;
        }

        /**
         * Builds the description.
         *
         * @return a new, immutable stored object
         */
        public StoredObject build() {
            return new StoredObject(this);
        }
    }
}
