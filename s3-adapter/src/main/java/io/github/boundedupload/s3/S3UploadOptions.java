package io.github.boundedupload.s3;

import io.github.boundedupload.InvalidSettingException;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * How {@link S3FileUploader} and {@link S3AsyncFileUploader} store objects: multipart sizes, concurrency, checksum,
 * headers, encryption and the location they report. Immutable; every value has a default, published as a constant.
 * Changes when an S3 upload setting, or its default, changes.
 *
 * <p>(A long file on purpose: every setting is a constant, a field, a documented accessor and a builder method, and
 * all of them in one place is where a reader looks for a setting.)
 *
 * <pre>{@code
 * S3UploadOptions options = S3UploadOptions.builder()
 *     .maxConcurrency(64)                               // = the HTTP client's connection pool
 *     .checksumAlgorithm(ChecksumAlgorithm.SHA256)
 *     .serverSideEncryption(ServerSideEncryption.AWS_KMS, "alias/uploads")
 *     .location(S3Location.presignedGet(presigner, Duration.ofMinutes(15)))
 *     .build();
 * }</pre>
 */
public final class S3UploadOptions {

    /** The smallest part S3 accepts (except for the last part of an upload): 5 MiB. */
    public static final long MIN_PART_SIZE = 5L * 1024 * 1024;
    /** The largest object one PutObject may store, and the largest part: 5 GiB. */
    public static final long MAX_SINGLE_UPLOAD_SIZE = 5L * 1024 * 1024 * 1024;
    /**
     * Default {@link #multipartThreshold()}: 256 MiB. Measured (docs/s3.md): one PutObject per file was faster than
     * parts, even four in flight, on both servers tried, and a retry re-sends at most this much.
     */
    public static final long DEFAULT_MULTIPART_THRESHOLD = 256L * 1024 * 1024;
    /** Default {@link #partSize()}: 8 MiB. */
    public static final long DEFAULT_PART_SIZE = 8L * 1024 * 1024;
    /** Default {@link #partsInFlight()}. */
    public static final int DEFAULT_PARTS_IN_FLIGHT = 4;
    /** Default {@link #maxConcurrency()}: the default connection pool of the SDK's HTTP clients (Netty, Apache). */
    public static final int DEFAULT_MAX_CONCURRENCY = 50;
    /** Default {@link #checksumAlgorithm()}. */
    public static final ChecksumAlgorithm DEFAULT_CHECKSUM_ALGORITHM = ChecksumAlgorithm.CRC32;
    /** Default {@link #contentDisposition()}. */
    public static final ContentDisposition DEFAULT_CONTENT_DISPOSITION = ContentDisposition.ATTACHMENT;

    /** The algorithms the adapters accept: those S3 supports everywhere and the JDK computes. */
    private static final Set<ChecksumAlgorithm> CHECKSUMS = Set.of(ChecksumAlgorithm.CRC32,
            ChecksumAlgorithm.CRC32_C, ChecksumAlgorithm.SHA1, ChecksumAlgorithm.SHA256);
    private static final S3UploadOptions DEFAULTS = builder().build();

    /**
     * The {@code Content-Disposition} stored with each object, which tells browsers whether to show the object or to
     * save it, and under which name.
     */
    public enum ContentDisposition {
        /** None: browsers decide by the content type. */
        NONE,
        /** {@code inline}, with the attachment's file name: browsers show what they can. */
        INLINE,
        /**
         * {@code attachment}, with the attachment's file name: browsers save the object instead of showing it, so an
         * uploaded HTML or SVG file never runs as a page of the bucket's origin. {@code <img>} and similar embeds
         * still work. The default.
         */
        ATTACHMENT
    }

    private final long multipartThreshold;
    private final long partSize;
    private final int partsInFlight;
    private final int maxConcurrency;
    private final ChecksumAlgorithm checksumAlgorithm;
    private final ContentDisposition contentDisposition;
    private final @Nullable StorageClass storageClass;
    private final @Nullable ServerSideEncryption serverSideEncryption;
    private final @Nullable String kmsKeyId;
    private final S3Location location;

    private S3UploadOptions(Builder b) {
        this.multipartThreshold = b.multipartThreshold;
        this.partSize = b.partSize;
        this.partsInFlight = b.partsInFlight;
        this.maxConcurrency = b.maxConcurrency;
        this.checksumAlgorithm = b.checksumAlgorithm;
        this.contentDisposition = b.contentDisposition;
        this.storageClass = b.storageClass;
        this.serverSideEncryption = b.serverSideEncryption;
        this.kmsKeyId = b.kmsKeyId;
        this.location = b.location;
    }

    /**
     * The defaults.
     *
     * @return options with every default value
     */
    public static S3UploadOptions defaults() {
        return DEFAULTS;
    }

    /**
     * A builder that starts from the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder that starts from these options; these options do not change.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Content longer than this goes up in parts (CreateMultipartUpload, UploadPart, CompleteMultipartUpload);
     * content up to it in one PutObject. Content of unknown length goes in parts when it is longer than one part.
     * Parts win when one file must go faster than one connection carries; one PutObject wins when several uploads
     * share the network anyway (this library's case) and the server puts parts together by copying them: a retry then
     * re-sends the whole object, which is what bounds the threshold.
     *
     * @return the threshold in bytes
     */
    public long multipartThreshold() {
        return multipartThreshold;
    }

    /**
     * The size of each part of a multipart upload (the last one may be smaller). Raised for content so large that
     * it would need more than S3's 10,000 parts. Parts of files are streamed from disk; parts of streams are
     * buffered in memory, so a stream's upload holds at most {@code partSize × (partsInFlight + 1)} bytes.
     *
     * @return the part size in bytes
     */
    public long partSize() {
        return partSize;
    }

    /**
     * The most parts of one multipart upload in flight at once. {@link S3FileUploader} sends each on a thread of its
     * own (virtual on Java 21 and later) while the calling thread waits; with 1 it sends them one after another on the
     * calling thread. Every part still holds one of the {@link #maxConcurrency()} permits.
     *
     * @return the limit
     */
    public int partsInFlight() {
        return partsInFlight;
    }

    /**
     * The most requests to S3 the uploader has in flight at once; the others wait, without a thread, until one
     * finishes. Set it to the size of the client's connection pool (Netty {@code maxConcurrency}, Apache
     * {@code maxConnections}): then no request ever waits for a connection inside the HTTP client, where it would
     * fail after the client's connection acquisition timeout.
     *
     * @return the limit
     */
    public int maxConcurrency() {
        return maxConcurrency;
    }

    /**
     * The checksum the SDK computes while sending and S3 verifies before it stores anything (sent as a trailer, so
     * the content is read once). One of {@code CRC32}, {@code CRC32_C}, {@code SHA1} and {@code SHA256}.
     *
     * @return the algorithm
     */
    public ChecksumAlgorithm checksumAlgorithm() {
        return checksumAlgorithm;
    }

    /**
     * The {@code Content-Disposition} stored with each object.
     *
     * @return the disposition
     */
    public ContentDisposition contentDisposition() {
        return contentDisposition;
    }

    /**
     * The storage class of new objects.
     *
     * @return the storage class, or empty for the bucket's default ({@code STANDARD})
     */
    public Optional<StorageClass> storageClass() {
        return Optional.ofNullable(storageClass);
    }

    /**
     * The server-side encryption requested for new objects.
     *
     * @return {@code AES256} (SSE-S3), {@code aws:kms} or {@code aws:kms:dsse} (SSE-KMS), or empty for the bucket's
     *         default encryption
     */
    public Optional<ServerSideEncryption> serverSideEncryption() {
        return Optional.ofNullable(serverSideEncryption);
    }

    /**
     * The KMS key for SSE-KMS.
     *
     * @return the key id, ARN or alias, or empty for the account's AWS managed key
     */
    public Optional<String> kmsKeyId() {
        return Optional.ofNullable(kmsKeyId);
    }

    /**
     * What {@link io.github.boundedupload.StoredObject#location()} holds.
     *
     * @return the location
     */
    public S3Location location() {
        return location;
    }

    @Override
    public String toString() {
        return "S3UploadOptions[multipartThreshold=" + multipartThreshold + ", partSize=" + partSize
                + ", partsInFlight=" + partsInFlight + ", maxConcurrency=" + maxConcurrency
                + ", checksumAlgorithm=" + checksumAlgorithm + ", contentDisposition=" + contentDisposition
                + ", storageClass=" + storageClass + ", serverSideEncryption=" + serverSideEncryption
                + (kmsKeyId == null ? "" : ", kmsKeyId set") + ", location=" + location + "]";
    }

    /**
     * Builds {@link S3UploadOptions}. A plain mutable object, not thread-safe; {@link #build()} checks every value and
     * copies them.
     */
    public static final class Builder {
        private long multipartThreshold = DEFAULT_MULTIPART_THRESHOLD;
        private long partSize = DEFAULT_PART_SIZE;
        private int partsInFlight = DEFAULT_PARTS_IN_FLIGHT;
        private int maxConcurrency = DEFAULT_MAX_CONCURRENCY;
        private ChecksumAlgorithm checksumAlgorithm = DEFAULT_CHECKSUM_ALGORITHM;
        private ContentDisposition contentDisposition = DEFAULT_CONTENT_DISPOSITION;
        private @Nullable StorageClass storageClass;
        private @Nullable ServerSideEncryption serverSideEncryption;
        private @Nullable String kmsKeyId;
        private S3Location location = S3Location.objectUrl();

        private Builder() {
        }

        private Builder(S3UploadOptions o) {
            multipartThreshold = o.multipartThreshold;
            partSize = o.partSize;
            partsInFlight = o.partsInFlight;
            maxConcurrency = o.maxConcurrency;
            checksumAlgorithm = o.checksumAlgorithm;
            contentDisposition = o.contentDisposition;
            storageClass = o.storageClass;
            serverSideEncryption = o.serverSideEncryption;
            kmsKeyId = o.kmsKeyId;
            location = o.location;
        }

        /**
         * Sets {@link S3UploadOptions#multipartThreshold()}.
         *
         * @param bytes from {@link #MIN_PART_SIZE} to {@link #MAX_SINGLE_UPLOAD_SIZE}
         * @return this builder
         */
        public Builder multipartThreshold(long bytes) {
            this.multipartThreshold = bytes;
            return this;
        }

        /**
         * Sets {@link S3UploadOptions#partSize()}.
         *
         * @param bytes from {@link #MIN_PART_SIZE} to {@link #MAX_SINGLE_UPLOAD_SIZE}
         * @return this builder
         */
        public Builder partSize(long bytes) {
            this.partSize = bytes;
            return this;
        }

        /**
         * Sets {@link S3UploadOptions#partsInFlight()}.
         *
         * @param parts at least 1
         * @return this builder
         */
        public Builder partsInFlight(int parts) {
            this.partsInFlight = parts;
            return this;
        }

        /**
         * Sets {@link S3UploadOptions#maxConcurrency()}.
         *
         * @param requests at least 1; the size of the HTTP client's connection pool
         * @return this builder
         */
        public Builder maxConcurrency(int requests) {
            this.maxConcurrency = requests;
            return this;
        }

        /**
         * Sets {@link S3UploadOptions#checksumAlgorithm()}.
         *
         * @param algorithm {@code CRC32}, {@code CRC32_C}, {@code SHA1} or {@code SHA256}
         * @return this builder
         */
        public Builder checksumAlgorithm(ChecksumAlgorithm algorithm) {
            this.checksumAlgorithm = Objects.requireNonNull(algorithm, "algorithm");
            return this;
        }

        /**
         * Sets {@link S3UploadOptions#contentDisposition()}.
         *
         * @param disposition the disposition
         * @return this builder
         */
        public Builder contentDisposition(ContentDisposition disposition) {
            this.contentDisposition = Objects.requireNonNull(disposition, "disposition");
            return this;
        }

        /**
         * Sets {@link S3UploadOptions#storageClass()}.
         *
         * @param storageClass the storage class, or {@code null} for the bucket's default
         * @return this builder
         */
        public Builder storageClass(@Nullable StorageClass storageClass) {
            this.storageClass = storageClass;
            return this;
        }

        /**
         * Requests SSE-S3 ({@code AES256}) or SSE-KMS with the account's AWS managed key; {@code null} leaves it to
         * the bucket's default encryption.
         *
         * @param encryption the encryption, or {@code null}
         * @return this builder
         */
        public Builder serverSideEncryption(@Nullable ServerSideEncryption encryption) {
            return serverSideEncryption(encryption, null);
        }

        /**
         * Requests server-side encryption, with a KMS key for SSE-KMS.
         *
         * @param encryption the encryption, or {@code null} for the bucket's default
         * @param kmsKeyId the KMS key id, ARN or alias; only with {@code aws:kms} or {@code aws:kms:dsse}
         * @return this builder
         */
        public Builder serverSideEncryption(@Nullable ServerSideEncryption encryption, @Nullable String kmsKeyId) {
            this.serverSideEncryption = encryption;
            this.kmsKeyId = kmsKeyId;
            return this;
        }

        /**
         * Sets {@link S3UploadOptions#location()}.
         *
         * @param location the location
         * @return this builder
         */
        public Builder location(S3Location location) {
            this.location = Objects.requireNonNull(location, "location");
            return this;
        }

        /**
         * Checks every value and builds the options.
         *
         * @return new, immutable options
         * @throws InvalidSettingException naming the first invalid setting, its value and what it allows
         */
        public S3UploadOptions build() {
            require(partSize >= MIN_PART_SIZE && partSize <= MAX_SINGLE_UPLOAD_SIZE, "partSize", partSize,
                    "from " + MIN_PART_SIZE + " to " + MAX_SINGLE_UPLOAD_SIZE);
            require(multipartThreshold >= MIN_PART_SIZE && multipartThreshold <= MAX_SINGLE_UPLOAD_SIZE,
                    "multipartThreshold", multipartThreshold, "from " + MIN_PART_SIZE + " to " + MAX_SINGLE_UPLOAD_SIZE);
            require(partsInFlight >= 1, "partsInFlight", partsInFlight, "at least 1");
            require(maxConcurrency >= 1, "maxConcurrency", maxConcurrency, "at least 1");
            require(CHECKSUMS.contains(checksumAlgorithm), "checksumAlgorithm", checksumAlgorithm,
                    "one of " + CHECKSUMS);
            require(serverSideEncryption != ServerSideEncryption.UNKNOWN_TO_SDK_VERSION, "serverSideEncryption",
                    serverSideEncryption, "one of " + ServerSideEncryption.knownValues());
            require(storageClass != StorageClass.UNKNOWN_TO_SDK_VERSION, "storageClass", storageClass,
                    "one of " + StorageClass.knownValues());
            if (kmsKeyId != null && serverSideEncryption != ServerSideEncryption.AWS_KMS
                    && serverSideEncryption != ServerSideEncryption.AWS_KMS_DSSE) {
                // The key id itself stays out of the message: the rule is about the encryption it goes with.
                throw InvalidSettingException.requirement("kmsKeyId", String.valueOf(serverSideEncryption),
                        "is set, and a KMS key needs {serverSideEncryption} aws:kms or aws:kms:dsse");
            }
            return new S3UploadOptions(this);
        }

        private static void require(boolean condition, String setting, @Nullable Object value, String rule) {
            if (!condition) {
                throw new InvalidSettingException(setting, String.valueOf(value), rule);
            }
        }
    }
}
