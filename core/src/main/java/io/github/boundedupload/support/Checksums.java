package io.github.boundedupload.support;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.jspecify.annotations.Nullable;

/**
 * A running checksum of one of the algorithms S3 knows ({@code CRC32}, {@code CRC32C}, {@code SHA1}, {@code SHA256}),
 * given in S3's format: Base64 of the big-endian CRC, or of the digest. For a storage that checks or reports what it
 * was sent as S3 does. Not thread-safe. Changes when S3 knows another algorithm.
 */
public final class Checksums {

    /** The algorithms, as S3 names them. */
    public static final Set<String> ALGORITHMS = Set.of("CRC32", "CRC32C", "SHA1", "SHA256");

    private final @Nullable Checksum crc;
    private final @Nullable MessageDigest digest;

    private Checksums(@Nullable Checksum crc, @Nullable MessageDigest digest) {
        this.crc = crc;
        this.digest = digest;
    }

    /**
     * A new running checksum.
     *
     * @param algorithm {@code CRC32}, {@code CRC32C}, {@code SHA1} or {@code SHA256}, in any case
     * @return the checksum, at zero bytes
     * @throws IllegalArgumentException for any other algorithm
     */
    public static Checksums of(String algorithm) {
        switch (algorithm.toUpperCase(Locale.ROOT)) {
            case "CRC32":
                return new Checksums(new CRC32(), null);
            case "CRC32C":
                return new Checksums(new CRC32C(), null);
            case "SHA1":
                return new Checksums(null, messageDigest("SHA-1"));
            case "SHA256":
                return new Checksums(null, messageDigest("SHA-256"));
            default:
                throw new IllegalArgumentException("unknown checksum algorithm " + algorithm
                        + " (CRC32, CRC32C, SHA1 or SHA256)");
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

    /**
     * Adds bytes.
     *
     * @param bytes the bytes
     * @param offset where they start
     * @param length how many
     */
    public void update(byte[] bytes, int offset, int length) {
        if (crc != null) {
            crc.update(bytes, offset, length);
        } else {
            digest().update(bytes, offset, length);
        }
    }

    /**
     * Adds the remaining bytes of a buffer, leaving the buffer's position where it was.
     *
     * @param buffer the bytes
     */
    public void update(ByteBuffer buffer) {
        ByteBuffer view = buffer.duplicate();
        if (crc != null) {
            crc.update(view);
        } else {
            digest().update(view);
        }
    }

    /**
     * The checksum of the bytes so far, in S3's format. A digest is finished by this: call it once.
     *
     * @return Base64 of the big-endian CRC, or of the digest
     */
    public String base64() {
        byte[] value = crc != null ? ByteBuffer.allocate(4).putInt((int) crc.getValue()).array() : digest().digest();
        return Base64.getEncoder().encodeToString(value);
    }
}
