package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.s3.S3UploadOptions;
import java.net.URI;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.util.unit.DataSize;

/**
 * Settings of the S3 storage, used when {@code bucket} is set and the application defines no storage bean. Changes when
 * the S3 storage gets another setting.
 *
 * <p>The client is the application's {@code S3AsyncClient} bean (non-blocking storage) or {@code S3Client} bean
 * (blocking storage), if it has one; otherwise one built from {@code endpoint}, {@code region},
 * {@code path-style-access} and the AWS SDK's default credentials chain, and closed with the context. The
 * defaults of the upload settings are the S3 adapter's ({@code S3UploadOptions.DEFAULT_*}). Nothing here refers
 * to a type of the AWS SDK or the adapter, so that these properties bind, and explain a missing adapter, without
 * them; the numeric defaults are compile-time constants, which the compiler copies here.
 */
public class S3Properties {

    /** The longest a presigned URL may work: SigV4's limit. */
    static final Duration MAX_PRESIGNED_URL_TTL = Duration.ofDays(7);

    /**
     * Bucket to store uploads in. Setting it turns the S3 storage on (it needs the bounded-upload-s3 adapter and
     * the AWS SDK's s3 client on the class path, which the starter brings).
     */
    private @Nullable String bucket;

    /**
     * Endpoint of the S3 service for the client built here, such as http://127.0.0.1:4566 for LocalStack. When not
     * set, the AWS endpoint of the region. Ignored when the application defines an S3AsyncClient or S3Client
     * bean, and overridden by a Spring Cloud AWS AwsConnectionDetails bean (a service connection) that has one.
     */
    private @Nullable URI endpoint;

    /**
     * Region of the client built here, such as eu-west-1. When not set, the AWS SDK's default region chain
     * (aws.region, AWS_REGION, the profile, the instance metadata). Ignored when the application defines an
     * S3AsyncClient or S3Client bean, and overridden by a Spring Cloud AWS AwsConnectionDetails bean that has one.
     */
    private @Nullable String region;

    /**
     * Whether the client built here addresses buckets in the path (https://endpoint/bucket/key) instead of the
     * host name (https://bucket.endpoint/key), as LocalStack and many S3-compatible services need. Ignored when
     * the application defines an S3AsyncClient or S3Client bean.
     */
    private boolean pathStyleAccess = false;

    /**
     * Which storage to build when the application defines no S3AsyncClient or S3Client bean: the non-blocking one
     * (an upload holds no thread while it waits for S3) or the blocking one (each upload holds one of the
     * uploader's threads). A client bean decides by its type.
     */
    private boolean nonBlocking = true;

    /**
     * Maximum number of requests to S3 in flight at once; the others wait, without failing, until one finishes.
     * The client built here gets a connection pool of exactly this size; with a client bean of the application,
     * set it to that client's pool size.
     */
    private int maxConcurrency = S3UploadOptions.DEFAULT_MAX_CONCURRENCY;

    /**
     * Size above which content goes up in parts (multipart upload) instead of one PutObject. From 5MB to 5GB.
     */
    private DataSize multipartThreshold = DataSize.ofBytes(S3UploadOptions.DEFAULT_MULTIPART_THRESHOLD);

    /**
     * Size of each part of a multipart upload. From 5MB to 5GB. Parts of streams are buffered in memory, so a
     * stream's upload holds at most part-size x (parts-in-flight + 1) bytes.
     */
    private DataSize partSize = DataSize.ofBytes(S3UploadOptions.DEFAULT_PART_SIZE);

    /**
     * Maximum number of parts of one multipart upload in flight at once (the blocking storage sends each on a
     * thread of its own; 1 sends them one after another).
     */
    private int partsInFlight = S3UploadOptions.DEFAULT_PARTS_IN_FLIGHT;

    /**
     * Checksum the SDK computes while sending and S3 verifies before it stores anything: 'crc32', 'crc32c',
     * 'sha1' or 'sha256'.
     */
    private ChecksumAlgorithm checksumAlgorithm = ChecksumAlgorithm.CRC32;

    /**
     * Storage class of new objects, as S3 names it (STANDARD, STANDARD_IA, INTELLIGENT_TIERING, GLACIER_IR, ...).
     * When not set, the bucket's default.
     */
    private @Nullable String storageClass;

    /**
     * Server-side encryption requested for new objects: 'aes256' (SSE-S3), 'aws-kms' or 'aws-kms-dsse' (SSE-KMS).
     * When not set, the bucket's default encryption.
     */
    private @Nullable ServerSideEncryption serverSideEncryption;

    /**
     * KMS key (id, ARN or alias) for server-side-encryption 'aws-kms' or 'aws-kms-dsse'. When not set, the
     * account's AWS managed key.
     */
    private @Nullable String kmsKeyId;

    /**
     * Content-Disposition stored with each object: 'attachment' (browsers save the object under its file name
     * instead of showing it, so an uploaded HTML or SVG file never runs as a page of the bucket's origin),
     * 'inline' (browsers show what they can) or 'none'.
     */
    private ContentDisposition contentDisposition = ContentDisposition.ATTACHMENT;

    /**
     * What each stored object reports as its location: 'object-url' (the URL as the client addresses the
     * bucket), 'path-style', 'virtual-host', or 'presigned' (a GET URL that anyone holding it can read until it
     * expires, after presigned-url-ttl). None of them costs a request.
     */
    private Location location = Location.OBJECT_URL;

    /**
     * How long a presigned location works, with location 'presigned'. At most 7 days.
     */
    private Duration presignedUrlTtl = Duration.ofMinutes(15);

    /**
     * How the S3 client built from these properties retries: 'standard' (up to 3 attempts, backoff with jitter),
     * 'adaptive-v2' (standard, and slows down while S3 throttles), or 'legacy'. When not set, the AWS SDK's default
     * (AWS_RETRY_MODE, the profile's retry_mode, else 'legacy'). Ignored for a client of the application's.
     */
    private @Nullable RetryMode retryMode;

    /**
     * The AWS SDK's retry modes, by name: a type of the SDK here would fail an application that left the SDK out of
     * the starter, where these properties must still bind.
     */
    public enum RetryMode {
        /** The SDK's {@code LEGACY}. */
        LEGACY,
        /** The SDK's {@code STANDARD}: up to 3 attempts, backoff with jitter. */
        STANDARD,
        /** The SDK's {@code ADAPTIVE}. */
        ADAPTIVE,
        /** The SDK's {@code ADAPTIVE_V2}: standard, and slows down while S3 throttles. */
        ADAPTIVE_V2
    }

    public @Nullable String getBucket() {
        return bucket;
    }

    public void setBucket(@Nullable String bucket) {
        this.bucket = bucket;
    }

    public @Nullable URI getEndpoint() {
        return endpoint;
    }

    public void setEndpoint(@Nullable URI endpoint) {
        this.endpoint = endpoint;
    }

    public @Nullable String getRegion() {
        return region;
    }

    public void setRegion(@Nullable String region) {
        this.region = region;
    }

    public boolean isPathStyleAccess() {
        return pathStyleAccess;
    }

    public void setPathStyleAccess(boolean pathStyleAccess) {
        this.pathStyleAccess = pathStyleAccess;
    }

    public boolean isNonBlocking() {
        return nonBlocking;
    }

    public void setNonBlocking(boolean nonBlocking) {
        this.nonBlocking = nonBlocking;
    }

    public int getMaxConcurrency() {
        return maxConcurrency;
    }

    public void setMaxConcurrency(int maxConcurrency) {
        this.maxConcurrency = maxConcurrency;
    }

    public DataSize getMultipartThreshold() {
        return multipartThreshold;
    }

    public void setMultipartThreshold(DataSize multipartThreshold) {
        this.multipartThreshold = multipartThreshold;
    }

    public DataSize getPartSize() {
        return partSize;
    }

    public void setPartSize(DataSize partSize) {
        this.partSize = partSize;
    }

    public int getPartsInFlight() {
        return partsInFlight;
    }

    public void setPartsInFlight(int partsInFlight) {
        this.partsInFlight = partsInFlight;
    }

    public ChecksumAlgorithm getChecksumAlgorithm() {
        return checksumAlgorithm;
    }

    public void setChecksumAlgorithm(ChecksumAlgorithm checksumAlgorithm) {
        this.checksumAlgorithm = checksumAlgorithm;
    }

    public @Nullable String getStorageClass() {
        return storageClass;
    }

    public void setStorageClass(@Nullable String storageClass) {
        this.storageClass = storageClass;
    }

    public @Nullable ServerSideEncryption getServerSideEncryption() {
        return serverSideEncryption;
    }

    public void setServerSideEncryption(@Nullable ServerSideEncryption serverSideEncryption) {
        this.serverSideEncryption = serverSideEncryption;
    }

    public @Nullable String getKmsKeyId() {
        return kmsKeyId;
    }

    public void setKmsKeyId(@Nullable String kmsKeyId) {
        this.kmsKeyId = kmsKeyId;
    }

    public ContentDisposition getContentDisposition() {
        return contentDisposition;
    }

    public void setContentDisposition(ContentDisposition contentDisposition) {
        this.contentDisposition = contentDisposition;
    }

    public Location getLocation() {
        return location;
    }

    public void setLocation(Location location) {
        this.location = location;
    }

    public @Nullable RetryMode getRetryMode() {
        return retryMode;
    }

    public void setRetryMode(@Nullable RetryMode retryMode) {
        this.retryMode = retryMode;
    }

    public Duration getPresignedUrlTtl() {
        return presignedUrlTtl;
    }

    public void setPresignedUrlTtl(Duration presignedUrlTtl) {
        this.presignedUrlTtl = presignedUrlTtl;
    }

    /** The checksums the S3 adapter supports. */
    public enum ChecksumAlgorithm {
        /** CRC32, the default. */
        CRC32,
        /** CRC32C. */
        CRC32C,
        /** SHA-1. */
        SHA1,
        /** SHA-256. */
        SHA256
    }

    /** Server-side encryption of new objects. */
    public enum ServerSideEncryption {
        /** SSE-S3 ({@code AES256}). */
        AES256,
        /** SSE-KMS ({@code aws:kms}). */
        AWS_KMS,
        /** Dual-layer SSE-KMS ({@code aws:kms:dsse}). */
        AWS_KMS_DSSE
    }

    /** The Content-Disposition stored with each object. */
    public enum ContentDisposition {
        /** None: browsers decide by the content type. */
        NONE,
        /** {@code inline}, with the attachment's file name. */
        INLINE,
        /** {@code attachment}, with the attachment's file name. The default. */
        ATTACHMENT
    }

    /** What each stored object reports as its location. */
    public enum Location {
        /** The object's URL as the client addresses the bucket. The default. */
        OBJECT_URL,
        /** The path-style URL ({@code https://endpoint/bucket/key}). */
        PATH_STYLE,
        /** The virtual-host style URL ({@code https://bucket.endpoint/key}). */
        VIRTUAL_HOST,
        /** A presigned GET URL, working for {@code presigned-url-ttl}. */
        PRESIGNED
    }
}
