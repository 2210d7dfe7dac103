package io.github.boundedupload.s3;

import io.github.boundedupload.spi.SignRequest;
import io.github.boundedupload.spi.SignedRequest;
import io.github.boundedupload.s3.internal.PostPolicy;
import io.github.boundedupload.s3.internal.SignerCalls;
import io.github.boundedupload.spi.SignedParts;
import io.github.boundedupload.spi.UploadSigner;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.PresignedPutObjectRequest;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * {@link UploadSigner} on the AWS SDK's {@link S3Presigner}, which the application builds and keeps (this never closes
 * it): a presigned PutObject whose signature covers the content type, the content length and, where the client gave
 * one, its checksum header ({@code x-amz-checksum-crc32} and the like), so that S3 refuses a body of another length
 * or content, and a request started after the lifetime. Forms ({@link #signPost(SignRequest)}) are signed here, as a
 * SigV4 POST policy (the SDK has none), with the credentials and the region given to {@link Builder#forms}: the
 * presigner does not tell its own. With the application's client ({@link Builder#client}), multipart uploads
 * ({@link #signParts}, for files above 5 GiB or any size a {@code DirectUploads} sends in parts) are started, completed
 * and aborted, their parts presigned UploadParts that each bind their length, and the size of what a form stored is
 * read ({@link #storedSize}). Thread-safe. Changes when what a signed request binds changes.
 *
 * <pre>{@code
 * S3UploadSigner signer = S3UploadSigner.builder(presigner, "my-bucket")
 *     .forms(credentialsProvider, Region.EU_WEST_1)   // only for signPost
 *     .client(s3Client)                               // for signParts, and to confirm forms
 *     .build();
 * }</pre>
 */
public final class S3UploadSigner implements UploadSigner {

    /** The largest object one PutObject stores: 5 GiB. */
    public static final long LARGEST_PUT = 5L * 1024 * 1024 * 1024;

    private final S3Presigner presigner;
    private final String bucket;
    private final @Nullable AwsCredentialsProvider credentials;
    private final @Nullable Region region;
    private final @Nullable SignerCalls calls;

    private S3UploadSigner(Builder builder) {
        this.presigner = builder.presigner;
        this.bucket = builder.bucket;
        this.credentials = builder.credentials;
        this.region = builder.region;
        this.calls = builder.client == null && builder.asyncClient == null ? null
                : new SignerCalls(presigner, bucket, builder.client, builder.asyncClient);
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

    @Override
    public SignedRequest signPut(SignRequest request) {
        checkLifetime(request);
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
        if (request.size() > LARGEST_PUT) {
            throw new IllegalArgumentException("one PutObject stores at most " + LARGEST_PUT + " bytes, not "
                    + request.size() + ": sign parts");
        }
        PresignedPutObjectRequest signed = presign(put.build(), request.lifetime());
        return new SignedRequest("PUT", SignerCalls.uri(signed.url()),
                SignerCalls.clientHeaders(signed.signedHeaders()), Map.of(), signed.expiration());
    }

    /** 5 GiB, the most one PutObject stores. */
    @Override
    public long largestPut() {
        return LARGEST_PUT;
    }

    /** Whether a client was given to {@link Builder#client}. */
    @Override
    public boolean signsParts() {
        return calls != null;
    }

    @Override
    public SignedParts signParts(SignRequest request, long partSize) throws IOException {
        checkLifetime(request);
        return calls().sign(request, partSize);
    }

    @Override
    public void completeParts(String key, String uploadId, long size) throws IOException {
        calls().complete(key, uploadId, size);
    }

    @Override
    public void abortParts(String key, String uploadId) throws IOException {
        calls().abort(key, uploadId);
    }

    @Override
    public int abortIncompleteParts(String prefix, Instant startedBefore, int limit) throws IOException {
        return calls == null ? 0 : calls.abortIncomplete(prefix, startedBefore, limit);
    }

    /** HeadObject, on the client given to {@link Builder#client}. */
    @Override
    public OptionalLong storedSize(String key) throws IOException {
        return calls().size(key);
    }

    private SignerCalls calls() {
        if (calls == null) {
            throw new UnsupportedOperationException("multipart uploads, and the confirm of forms, need the"
                    + " application's S3 client: give it to S3UploadSigner.Builder.client");
        }
        return calls;
    }

    @Override
    public SignedRequest signPost(SignRequest request) {
        checkLifetime(request);
        if (credentials == null || region == null) {
            throw new IllegalStateException("signing a form needs the credentials and the region: give them to"
                    + " S3UploadSigner.Builder.forms");
        }
        AwsCredentials identity = credentials.resolveCredentials();
        Instant now = Instant.now();
        Instant expiresAt = now.plus(request.lifetime());
        Map<String, String> fields = PostPolicy.fields(bucket, request.key(), request.contentType(), request.size(),
                now, expiresAt, region.id(), identity.accessKeyId(), identity.secretAccessKey(),
                identity instanceof AwsSessionCredentials ? ((AwsSessionCredentials) identity).sessionToken() : null);
        // The form goes to the bucket's URL: the presigned PutObject's, without the key (path style or not, as the
        // presigner resolves endpoints) and without the query.
        URI object = SignerCalls.uri(presign(PutObjectRequest.builder().bucket(bucket).key(request.key()).build(),
                Duration.ofMinutes(1)).url());
        String path = object.getRawPath();
        String key = SdkHttpUtils.urlEncodeIgnoreSlashes(request.key());
        if (!path.endsWith(key)) {
            throw new IllegalStateException("the presigner's URL does not end with the object's key");
        }
        return new SignedRequest("POST", URI.create(object.getScheme() + "://" + object.getRawAuthority()
                + path.substring(0, path.length() - key.length())), Map.of(), fields, expiresAt);
    }

    private PresignedPutObjectRequest presign(PutObjectRequest put, Duration lifetime) {
        return presigner.presignPutObject(p -> p.signatureDuration(lifetime).putObjectRequest(put));
    }

    private static void checkLifetime(SignRequest request) {
        if (request.lifetime().compareTo(S3Location.LONGEST_SIGNATURE) > 0) {
            throw new IllegalArgumentException("lifetime " + request.lifetime() + " is more than the "
                    + S3Location.LONGEST_SIGNATURE
                    + " a signature of S3 lives");
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
        private @Nullable AwsCredentialsProvider credentials;
        private @Nullable Region region;
        private @Nullable S3Client client;
        private @Nullable S3AsyncClient asyncClient;

        private Builder(S3Presigner presigner, String bucket) {
            this.presigner = Objects.requireNonNull(presigner, "presigner");
            this.bucket = Objects.requireNonNull(bucket, "bucket");
        }

        /**
         * Lets the signer sign forms ({@link S3UploadSigner#signPost(SignRequest)}): a POST policy is signed with the
         * credentials themselves, for the bucket's region. Give the presigner's.
         *
         * @param credentials resolved at every form signed (so that rotated credentials are used)
         * @param region the bucket's region
         * @return this builder
         */
        public Builder forms(AwsCredentialsProvider credentials, Region region) {
            this.credentials = Objects.requireNonNull(credentials, "credentials");
            this.region = Objects.requireNonNull(region, "region");
            return this;
        }

        /**
         * Gives the signer the application's client (which it never closes), for what it does in the bucket itself:
         * multipart uploads ({@link S3UploadSigner#signParts}) started, completed and aborted, and the size of what a
         * form stored ({@link S3UploadSigner#storedSize}).
         *
         * @param client the blocking client
         * @return this builder
         */
        public Builder client(S3Client client) {
            this.client = Objects.requireNonNull(client, "client");
            this.asyncClient = null;
            return this;
        }

        /**
         * Gives the signer the application's non-blocking client, as {@link #client(S3Client)} (it waits for each
         * answer).
         *
         * @param client the non-blocking client
         * @return this builder
         */
        public Builder client(S3AsyncClient client) {
            this.asyncClient = Objects.requireNonNull(client, "client");
            this.client = null;
            return this;
        }

        /**
         * Builds the signer.
         *
         * @return a new signer
         */
        public S3UploadSigner build() {
            return new S3UploadSigner(this);
        }
    }
}
