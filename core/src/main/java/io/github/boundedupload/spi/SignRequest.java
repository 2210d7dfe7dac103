package io.github.boundedupload.spi;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What an {@link UploadSigner} signs: one object a client said it would send (its key, its exact size, its content
 * type and, where it gave one, its checksum) and how long the signature may be used. Immutable. Changes when what a
 * client binds itself to changes.
 *
 * <pre>{@code
 * SignRequest.builder("staging/2026/11/28/0b6f...-slides.pdf", 48_213, "application/pdf")
 *     .checksum("CRC32", "rW9Dqg==")
 *     .lifetime(Duration.ofMinutes(10))
 *     .build();
 * }</pre>
 */
public final class SignRequest {

    /** Default {@link #lifetime()}: 10 minutes. */
    public static final Duration DEFAULT_LIFETIME = Duration.ofMinutes(10);

    private final String key;
    private final long size;
    private final String contentType;
    private final @Nullable String checksumAlgorithm;
    private final @Nullable String checksum;
    private final Duration lifetime;

    private SignRequest(Builder builder) {
        this.key = builder.key;
        this.size = builder.size;
        this.contentType = builder.contentType;
        this.checksumAlgorithm = builder.checksumAlgorithm;
        this.checksum = builder.checksum;
        this.lifetime = builder.lifetime;
    }

    /**
     * Starts a request to sign.
     *
     * @param key the key the client stores the object under
     * @param size the object's exact size in bytes, zero or more
     * @param contentType the object's content type, sent by the client as it is signed
     * @return a new builder
     */
    public static Builder builder(String key, long size, String contentType) {
        return new Builder(key, size, contentType);
    }

    /**
     * The key the client stores the object under.
     *
     * @return the key
     */
    public String key() {
        return key;
    }

    /**
     * The object's exact size.
     *
     * @return bytes
     */
    public long size() {
        return size;
    }

    /**
     * The object's content type.
     *
     * @return the content type
     */
    public String contentType() {
        return contentType;
    }

    /**
     * The algorithm of {@link #checksum()}, for example {@code CRC32}.
     *
     * @return the algorithm, or empty without a checksum
     */
    public Optional<String> checksumAlgorithm() {
        return Optional.ofNullable(checksumAlgorithm);
    }

    /**
     * The object's checksum as the client computed it, in S3's format (Base64 of the big-endian CRC, or of the digest).
     *
     * @return the checksum, or empty when the client gave none
     */
    public Optional<String> checksum() {
        return Optional.ofNullable(checksum);
    }

    /**
     * How long the signature may be used; a request started after it is refused.
     *
     * @return the lifetime
     */
    public Duration lifetime() {
        return lifetime;
    }

    @Override
    public String toString() {
        return "SignRequest[" + size + " bytes, " + contentType + (checksumAlgorithm == null ? "" : ", "
                + checksumAlgorithm) + ", for " + lifetime + "]";
    }

    /** Builds a {@link SignRequest}. Not thread-safe. */
    public static final class Builder {
        private final String key;
        private final long size;
        private final String contentType;
        private @Nullable String checksumAlgorithm;
        private @Nullable String checksum;
        private Duration lifetime = DEFAULT_LIFETIME;

        private Builder(String key, long size, String contentType) {
            this.key = Objects.requireNonNull(key, "key");
            if (size < 0) {
                throw new IllegalArgumentException("size must be >= 0, was " + size);
            }
            this.size = size;
            this.contentType = Objects.requireNonNull(contentType, "contentType");
        }

        /**
         * Binds the object to a checksum.
         *
         * @param algorithm the algorithm, for example {@code CRC32}
         * @param value the checksum in S3's format (Base64)
         * @return this builder
         */
        public Builder checksum(String algorithm, String value) {
            this.checksumAlgorithm = Objects.requireNonNull(algorithm, "algorithm");
            this.checksum = Objects.requireNonNull(value, "value");
            return this;
        }

        /**
         * Sets how long the signature may be used.
         *
         * @param lifetime more than zero
         * @return this builder
         */
        public Builder lifetime(Duration lifetime) {
            if (lifetime.isNegative() || lifetime.isZero()) {
                throw new IllegalArgumentException("lifetime must be more than zero, was " + lifetime);
            }
            this.lifetime = lifetime;
            return this;
        }

        /**
         * Builds the request.
         *
         * @return a new, immutable request
         */
        public SignRequest build() {
            return new SignRequest(this);
        }
    }
}
