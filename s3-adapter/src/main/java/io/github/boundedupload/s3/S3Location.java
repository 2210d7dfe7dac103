package io.github.boundedupload.s3;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.awscore.AwsServiceClientConfiguration;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.S3Utilities;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * What an upload reports as its {@link io.github.boundedupload.StoredObject#location() location}: the object's URL
 * in the client's own addressing style, in path style or virtual-host style, or a presigned GET URL that expires.
 * All are computed locally; none costs a request. Changes when a new way to report an object's location is offered.
 *
 * <pre>{@code
 * S3Location.objectUrl()                                        // as the client addresses the bucket (default)
 * S3Location.pathStyle()                                        // https://s3.eu-west-1.amazonaws.com/bucket/key
 * S3Location.virtualHostStyle()                                 // https://bucket.s3.eu-west-1.amazonaws.com/key
 * S3Location.presignedGet(presigner, Duration.ofMinutes(15))    // readable by anyone holding it, for 15 minutes
 * }</pre>
 *
 * A presigned URL is a credential: {@code StoredObject.toString()} leaves it out, and this library never logs it.
 */
public final class S3Location {

    /** The longest a SigV4 signature lives: a presigned URL's limit, here and in {@link S3UploadSigner}. */
    static final Duration LONGEST_SIGNATURE = Duration.ofDays(7);

    private enum Kind { CLIENT, PATH, VIRTUAL_HOST, PRESIGNED }

    /** A key whose URL shows where every key's URL begins: plain letters, the same encoded or not. */
    private static final String PROBE_KEY = "probe";

    private static final S3Location OBJECT_URL = new S3Location(Kind.CLIENT, null, null);
    private static final S3Location PATH_STYLE = new S3Location(Kind.PATH, null, null);
    private static final S3Location VIRTUAL_HOST_STYLE = new S3Location(Kind.VIRTUAL_HOST, null, null);

    private final Kind kind;
    private final @Nullable S3Presigner presigner;
    private final @Nullable Duration ttl;

    private S3Location(Kind kind, @Nullable S3Presigner presigner, @Nullable Duration ttl) {
        this.kind = kind;
        this.presigner = presigner;
        this.ttl = ttl;
    }

    /**
     * The object's URL as the uploader's client addresses the bucket (its endpoint, region and path-style setting),
     * from the client's {@code S3Utilities}. The default.
     *
     * @return the location
     */
    public static S3Location objectUrl() {
        return OBJECT_URL;
    }

    /**
     * The object's path-style URL ({@code https://endpoint/bucket/key}), at the client's endpoint and region.
     *
     * @return the location
     */
    public static S3Location pathStyle() {
        return PATH_STYLE;
    }

    /**
     * The object's virtual-host style URL ({@code https://bucket.endpoint/key}), at the client's endpoint and region.
     *
     * @return the location
     */
    public static S3Location virtualHostStyle() {
        return VIRTUAL_HOST_STYLE;
    }

    /**
     * A presigned GET URL of the object, made by the caller's presigner (with its credentials, endpoint and region).
     *
     * @param presigner the presigner; the caller keeps it and closes it
     * @param ttl how long the URL works, positive and at most 7 days (SigV4's limit)
     * @return the location
     */
    public static S3Location presignedGet(S3Presigner presigner, Duration ttl) {
        Objects.requireNonNull(presigner, "presigner");
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero() || ttl.compareTo(LONGEST_SIGNATURE) > 0) {
            throw new IllegalArgumentException("ttl must be positive and at most 7 days, was " + ttl);
        }
        return new S3Location(Kind.PRESIGNED, presigner, ttl);
    }

    /** The location of each key in a bucket, as seen through a client. */
    Function<String, URI> resolver(String bucket, S3Utilities clientUtilities, AwsServiceClientConfiguration client) {
        switch (kind) {
            case PRESIGNED:
                S3Presigner signer = Objects.requireNonNull(presigner);
                Duration duration = Objects.requireNonNull(ttl);
                return key -> URI.create(signer.presignGetObject(p -> p.signatureDuration(duration)
                        .getObjectRequest(g -> g.bucket(bucket).key(key))).url().toString());
            case PATH:
            case VIRTUAL_HOST:
                S3Utilities.Builder builder = S3Utilities.builder().region(client.region())
                        .s3Configuration(S3Configuration.builder().pathStyleAccessEnabled(kind == Kind.PATH).build());
                client.endpointOverride().ifPresent(builder::endpoint);
                return urls(builder.build(), bucket);
            default:
                return urls(clientUtilities, bucket);
        }
    }

    /**
     * The URL of each key: the SDK's own, worked out once. {@code S3Utilities.getUrl} runs the client's endpoint rules
     * for every call (3.6% of the CPU of a 256 KiB upload, a fifth of what an in-memory one allocates), yet the
     * endpoint depends on the bucket, not the key: the URL of a probe key gives the part before the key, and each key
     * is appended, percent-encoded as the SDK encodes an object's path. Where the probe's URL does not end in its key
     * (an endpoint that puts something after the path), every URL is the SDK's.
     */
    static Function<String, URI> urls(S3Utilities utilities, String bucket) {
        String probe = utilities.getUrl(g -> g.bucket(bucket).key(PROBE_KEY)).toString();
        if (!probe.endsWith("/" + PROBE_KEY)) {
            return key -> URI.create(utilities.getUrl(g -> g.bucket(bucket).key(key)).toString());
        }
        String before = probe.substring(0, probe.length() - PROBE_KEY.length());
        return key -> URI.create(before + (isUnreserved(key) ? key : SdkHttpUtils.urlEncodeIgnoreSlashes(key)));
    }

    /** Whether the key is only letters, digits, '-', '.', '_', '~' and '/': what percent-encoding leaves as it is. */
    private static boolean isUnreserved(String key) {
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.'
                    || c == '_' || c == '~' || c == '/')) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return kind == Kind.PRESIGNED ? "presigned GET for " + ttl : kind.name().toLowerCase(java.util.Locale.ROOT);
    }
}
