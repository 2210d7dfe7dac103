package io.github.boundedupload.s3.internal;

import io.github.boundedupload.support.Checksums;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * The checksum S3 keeps for an object: computed locally over the bytes sent ({@link Checksums}, the core's, in S3's
 * format), and the one field of each response that holds it. Changes when S3 keeps another kind of checksum.
 */
final class Digest {

    private Digest() {
    }

    /** A running checksum of the algorithm; one the core does not know (CRC64NVME) is refused. */
    static Checksums of(ChecksumAlgorithm algorithm) {
        return Checksums.of(String.valueOf(algorithm));
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
