package io.github.boundedupload.s3;

import io.github.boundedupload.spi.SignRequest;
import io.github.boundedupload.spi.SignedRequest;
import io.github.boundedupload.spi.UploadSigner;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.PresignedPutObjectRequest;

/**
 * {@link UploadSigner} on the AWS SDK's {@link S3Presigner}, which the application builds and keeps (this never closes
 * it): a presigned PutObject whose signature covers the content type, the content length and, where the client gave
 * one, its checksum header ({@code x-amz-checksum-crc32} and the like), so that S3 refuses a body of another length
 * or content, and a request started after the lifetime. Thread-safe. Changes when what a signed PUT binds changes.
 *
 * <pre>{@code
 * S3UploadSigner signer = S3UploadSigner.builder(presigner, "my-bucket").build();
 * }</pre>
 */
public final class S3UploadSigner implements UploadSigner {

    /** Headers the client's HTTP stack sets itself (a browser may not set them); the signature still binds them. */
    private static final List<String> SET_BY_THE_CLIENT = List.of("host", "content-length");

    private final S3Presigner presigner;
    private final String bucket;

    private S3UploadSigner(S3Presigner presigner, String bucket) {
        this.presigner = presigner;
        this.bucket = bucket;
    }

    /**
     * A builder of a signer for one bucket.
     *
     * @param presigner the application's presigner, with its credentials, region and endpoint
     * @param bucket the bucket the clients store objects in
     * @return a new builder
     */
    public static Builder builder(S3Presigner presigner, String bucket) {
        return new Builder(presigner, bucket);
    }

    /** The longest a SigV4 signature lives. */
    private static final Duration LONGEST = Duration.ofDays(7);

    @Override
    public SignedRequest signPut(SignRequest request) {
        if (request.lifetime().compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException("lifetime " + request.lifetime() + " is more than the " + LONGEST
                    + " a signature of S3 lives");
        }
        PutObjectRequest.Builder put = PutObjectRequest.builder().bucket(bucket).key(request.key())
                .contentType(request.contentType()).contentLength(request.size());
        if (request.checksum().isPresent()) {
            String value = request.checksum().get();
            String name = request.checksumAlgorithm().orElseThrow();
            switch (checksumAlgorithm(name)) {
                case CRC32 -> put.checksumCRC32(value);
                case CRC32_C -> put.checksumCRC32C(value);
                case SHA1 -> put.checksumSHA1(value);
                case SHA256 -> put.checksumSHA256(value);
                default -> throw new IllegalArgumentException("S3 keeps no checksum of the algorithm " + name);
            }
        }
        PresignedPutObjectRequest signed = presigner.presignPutObject(p -> p.signatureDuration(request.lifetime())
                .putObjectRequest(put.build()));
        Map<String, String> headers = new LinkedHashMap<>();
        signed.signedHeaders().forEach((name, values) -> {
            if (!SET_BY_THE_CLIENT.contains(name.toLowerCase(Locale.ROOT))) {
                headers.put(name, String.join(",", values));
            }
        });
        try {
            return new SignedRequest("PUT", signed.url().toURI(), headers, signed.expiration());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("the SDK signed a URL that is not a URI", e);
        }
    }

    private static ChecksumAlgorithm checksumAlgorithm(String name) {
        ChecksumAlgorithm algorithm = ChecksumAlgorithm.fromValue(name.toUpperCase(Locale.ROOT));
        if (algorithm == ChecksumAlgorithm.UNKNOWN_TO_SDK_VERSION) {
            throw new IllegalArgumentException("S3 keeps no checksum of the algorithm " + name);
        }
        return algorithm;
    }

    @Override
    public String toString() {
        return "S3UploadSigner[" + bucket + "]";
    }

    /** Builds an {@link S3UploadSigner}. Not thread-safe. */
    public static final class Builder {
        private final S3Presigner presigner;
        private final String bucket;

        private Builder(S3Presigner presigner, String bucket) {
            this.presigner = Objects.requireNonNull(presigner, "presigner");
            this.bucket = Objects.requireNonNull(bucket, "bucket");
        }

        /**
         * Builds the signer.
         *
         * @return a new signer
         */
        public S3UploadSigner build() {
            return new S3UploadSigner(presigner, bucket);
        }
    }
}
