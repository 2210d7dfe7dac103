package io.github.boundedupload.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The S3 storage's part of the health indicator: whether its bucket exists and S3 answers (HeadBucket). Changes when
 * the way the bucket is checked changes.
 */
final class S3BucketCheck {

    private final String bucket;
    private final Duration healthTimeout;
    private final long cacheNanos;
    private final Supplier<@Nullable S3AsyncClient> asyncClient;
    private final Supplier<@Nullable S3Client> client;
    private @Nullable Answer last;

    /** An answer of HeadBucket, kept for later probes: when, whether UP, and the details it added. */
    private record Answer(long at, boolean up, Map<String, Object> details) {
    }

    /**
     * @param bucket the bucket
     * @param healthTimeout how long HeadBucket may take, retries included
     * @param cacheTime how long an answer is reused by later probes
     * @param asyncClient the non-blocking client in use, if any (it may be built after this check)
     * @param client the blocking client in use, if any
     */
    S3BucketCheck(String bucket, Duration healthTimeout, Duration cacheTime,
            Supplier<@Nullable S3AsyncClient> asyncClient, Supplier<@Nullable S3Client> client) {
        this.bucket = bucket;
        this.healthTimeout = healthTimeout;
        this.cacheNanos = cacheTime.toNanos();
        this.asyncClient = asyncClient;
        this.client = client;
    }

    /**
     * The last answer while it is younger than the cache time, else a new HeadBucket; probes that come while one runs
     * wait for its answer rather than send their own.
     */
    synchronized boolean check(Map<String, Object> details) {
        long now = System.nanoTime();
        Answer kept = last;
        if (kept == null || now - kept.at() >= cacheNanos) {
            Map<String, Object> added = new LinkedHashMap<>();
            boolean up = headBucket(added);
            kept = new Answer(now, up, Map.copyOf(added));
            last = kept;
        }
        details.putAll(kept.details());
        return kept.up();
    }

    /**
     * HeadBucket through the client in use. A bucket that does not exist, or that S3 cannot be asked about, is
     * DOWN; a forbidden HeadBucket (403) is UP, because the bucket exists and the application may well be allowed to
     * put objects without being allowed to list the bucket.
     */
    private boolean headBucket(Map<String, Object> details) {
        HeadBucketRequest request = HeadBucketRequest.builder().bucket(bucket)
                .overrideConfiguration(o -> o.apiCallTimeout(healthTimeout)).build();
        try {
            S3AsyncClient async = asyncClient.get();
            S3Client sync = client.get();
            if (async != null) {
                // The call's own timeout ends it; the wait has a margin so that the call's exception is what is seen.
                async.headBucket(request).get(healthTimeout.toMillis() * 2, TimeUnit.MILLISECONDS);
            } else if (sync != null) {
                sync.headBucket(request);
            } else {
                details.put("error", "no S3 client yet");
                return false;
            }
            return true;
        } catch (ExecutionException e) {
            return failed(details, e.getCause());
        } catch (TimeoutException e) {
            details.put("error", "HeadBucket did not answer within " + healthTimeout.multipliedBy(2));
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            details.put("error", "interrupted while checking the bucket");
            return false;
        } catch (SdkException e) {
            return failed(details, e);
        }
    }

    /** Status, S3's error code and the SDK's message: none of them holds credentials. */
    private boolean failed(Map<String, Object> details, @Nullable Throwable failure) {
        if (failure instanceof S3Exception) {
            S3Exception s3 = (S3Exception) failure;
            if (s3.statusCode() == 403) {
                details.put("warning", "HeadBucket is forbidden (403): the bucket exists, but whether uploads are "
                        + "allowed is not checked (allow s3:ListBucket on it to check)");
                return true;
            }
            String code = s3.awsErrorDetails() != null ? s3.awsErrorDetails().errorCode() : null;
            String answer = s3.statusCode() + (code != null ? " " + code : "");
            details.put("error", s3.statusCode() == 404 ? "the bucket does not exist (HeadBucket: " + answer + ")"
                    : "HeadBucket failed: " + answer);
        } else {
            details.put("error", "S3 cannot be reached: " + failure);
        }
        return false;
    }
}
