package io.github.boundedupload.s3.internal;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * The checksum S3 keeps for an object, computed locally over the bytes sent, in S3's format (Base64 of the
 * big-endian CRC, or of the digest); and the one field of each response that holds it.
 * Changes when S3 keeps another kind of checksum.
 */
final class Digest {

    private final @Nullable Checksum crc;
    private final @Nullable MessageDigest digest;

    private Digest(@Nullable Checksum crc, @Nullable MessageDigest digest) {
        this.crc = crc;
        this.digest = digest;
    }

    static Digest of(ChecksumAlgorithm algorithm) {
        switch (algorithm) {
            case CRC32:
                return new Digest(new CRC32(), null);
            case CRC32_C:
                return new Digest(new CRC32C(), null);
            case SHA1:
                return new Digest(null, messageDigest("SHA-1"));
            case SHA256:
                return new Digest(null, messageDigest("SHA-256"));
            default:
                throw new IllegalArgumentException("unsupported checksum algorithm " + algorithm);
        }
    }

    private static MessageDigest messageDigest(String name) {
        try {
            return MessageDigest.getInstance(name);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(name + " is missing from this JVM", e);
        }
    }

    /** The digest, when this is not a CRC: the constructor is given exactly one of the two. */
    private MessageDigest digest() {
        return Objects.requireNonNull(digest, "a digest");
    }

    void update(byte[] bytes, int offset, int length) {
        if (crc != null) {
            crc.update(bytes, offset, length);
        } else {
            digest().update(bytes, offset, length);
        }
    }

    void update(ByteBuffer buffer) {
        ByteBuffer view = buffer.duplicate();
        if (crc != null) {
            crc.update(view);
        } else {
            digest().update(view);
        }
    }

    String base64() {
        byte[] value = crc != null ? ByteBuffer.allocate(4).putInt((int) crc.getValue()).array() : digest().digest();
        return Base64.getEncoder().encodeToString(value);
    }

    /** The field of a response that holds the checksum of the given algorithm. */
    static @Nullable String pick(ChecksumAlgorithm algorithm, Supplier<@Nullable String> crc32,
            Supplier<@Nullable String> crc32c, Supplier<@Nullable String> sha1, Supplier<@Nullable String> sha256) {
        switch (algorithm) {
            case CRC32:
                return crc32.get();
            case CRC32_C:
                return crc32c.get();
            case SHA1:
                return sha1.get();
            case SHA256:
                return sha256.get();
            default:
                return null;
        }
    }

    /** A completed part carrying its checksum, as CompleteMultipartUpload needs it. */
    static CompletedPart part(int number, String eTag, ChecksumAlgorithm algorithm, @Nullable String checksum) {
        CompletedPart.Builder part = CompletedPart.builder().partNumber(number).eTag(eTag);
        if (checksum != null) {
            switch (algorithm) {
                case CRC32 -> part.checksumCRC32(checksum);
                case CRC32_C -> part.checksumCRC32C(checksum);
                case SHA1 -> part.checksumSHA1(checksum);
                case SHA256 -> part.checksumSHA256(checksum);
                default -> { }
            }
        }
        return part.build();
    }
}
