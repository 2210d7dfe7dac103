package io.github.boundedupload.direct;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One file a client announces before it uploads it itself: its name, its exact size, its content type and, where the
 * client computed one, its checksum. Each is checked before anything is signed, and bound by the grant: the storage
 * refuses other bytes, and the confirm step checks again. Immutable. Changes when what a client announces changes.
 *
 * @param fileName the name the user gave the file (never a key: the grant's key is the application's)
 * @param size the exact size in bytes
 * @param contentType the content type, {@code type/subtype} without parameters
 * @param checksumAlgorithm the algorithm of {@code checksum} ({@code CRC32}, {@code CRC32C}, {@code SHA1},
 *        {@code SHA256}), or {@code null}
 * @param checksum the checksum in S3's format (Base64), or {@code null}
 */
public record FileToUpload(String fileName, long size, String contentType, @Nullable String checksumAlgorithm,
        @Nullable String checksum) {

    /**
     * A file as announced.
     *
     * @param fileName the name the user gave the file
     * @param size the exact size in bytes
     * @param contentType the content type
     * @param checksumAlgorithm the checksum's algorithm, or {@code null}
     * @param checksum the checksum, or {@code null}
     * @throws NullPointerException when the name or the content type is missing
     * @throws IllegalArgumentException when only one of the checksum and its algorithm is given
     */
    public FileToUpload {
        Objects.requireNonNull(fileName, "fileName");
        Objects.requireNonNull(contentType, "contentType");
        if ((checksumAlgorithm == null) != (checksum == null)) {
            throw new IllegalArgumentException("a checksum needs its algorithm, and an algorithm its checksum");
        }
    }

    /**
     * A file announced without a checksum.
     *
     * @param fileName the name the user gave the file
     * @param size the exact size in bytes
     * @param contentType the content type
     * @return the file
     */
    public static FileToUpload of(String fileName, long size, String contentType) {
        return new FileToUpload(fileName, size, contentType, null, null);
    }

    /**
     * The checksum, with {@link #checksumAlgorithm()}.
     *
     * @return the checksum, or empty
     */
    public Optional<String> checksumValue() {
        return Optional.ofNullable(checksum);
    }
}
