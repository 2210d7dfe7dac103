package io.github.boundedupload.s3.internal;

import io.github.boundedupload.s3.S3UploadOptions;
import java.net.URI;
import java.time.Duration;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;

/**
 * What every upload of one uploader shares, and the request configuration its uploads reuse. Changes when the
 * uploader gains something its uploads share.
 */
public final class Settings {

    /** The granularity of per-request timeouts: the SDK may give up this much after the uploader does, no more. */
    private static final long TIMEOUT_STEP_MILLIS = 100;

    private final String bucket;
    private final S3UploadOptions options;
    private final Function<String, URI> location;
    /** The last per-request timeout made, reused by every request with the same one (most first requests). */
    private volatile @Nullable CallTimeout lastCallTimeout;

    private record CallTimeout(long millis, AwsRequestOverrideConfiguration configuration) {
    }

    public Settings(String bucket, S3UploadOptions options, Function<String, URI> location) {
        this.bucket = bucket;
        this.options = options;
        this.location = location;
    }

    public String bucket() {
        return bucket;
    }

    public S3UploadOptions options() {
        return options;
    }

    /** The location of each stored key. */
    public Function<String, URI> location() {
        return location;
    }

    /**
     * A request configuration with an API call timeout of {@code millis}, rounded up to the next
     * {@value #TIMEOUT_STEP_MILLIS} ms: building one per request was a fifth of what an in-memory upload allocated,
     * yet the first request of every upload asks for (almost) the same time, the upload timeout.
     */
    AwsRequestOverrideConfiguration callTimeout(long millis) {
        long rounded = (millis + TIMEOUT_STEP_MILLIS - 1) / TIMEOUT_STEP_MILLIS * TIMEOUT_STEP_MILLIS;
        CallTimeout last = lastCallTimeout;
        if (last == null || last.millis() != rounded) {
            last = new CallTimeout(rounded, AwsRequestOverrideConfiguration.builder()
                    .apiCallTimeout(Duration.ofMillis(rounded)).build());
            lastCallTimeout = last;
        }
        return last.configuration();
    }
}
