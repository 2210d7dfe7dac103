package io.github.boundedupload.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ExpirationStatus;
import software.amazon.awssdk.services.s3.model.GetBucketLifecycleConfigurationRequest;
import software.amazon.awssdk.services.s3.model.LifecycleRule;
import software.amazon.awssdk.services.s3.model.LifecycleRuleFilter;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The bucket's lifecycle rules that direct uploads want as a backstop (docs/direct-uploads.md): one that aborts
 * incomplete multipart uploads and one that expires the staging prefix, each enabled and applying to every object under
 * the prefix (no filter, or a prefix filter the staging prefix starts with; a rule for tagged objects does not count).
 * Read once at start-up. Changes when the rules wanted change.
 */
final class S3LifecycleRules {

    private S3LifecycleRules() {
    }

    /**
     * What the bucket's lifecycle rules lack for direct uploads: a rule that aborts incomplete multipart uploads, and
     * one that expires the staging prefix. Empty when both are there.
     *
     * @param bucket the bucket
     * @param stagingPrefix the staging prefix of the direct uploads
     * @param timeout the longest the call may take
     * @param asyncClient the non-blocking client in use, or {@code null}
     * @param client the blocking client in use, or {@code null}
     * @return one line per rule missing, or one line saying why the rules could not be read
     */
    static List<String> missing(String bucket, String stagingPrefix, Duration timeout,
            @Nullable S3AsyncClient asyncClient, @Nullable S3Client client) {
        GetBucketLifecycleConfigurationRequest request = GetBucketLifecycleConfigurationRequest.builder().bucket(bucket)
                .overrideConfiguration(o -> o.apiCallTimeout(timeout)).build();
        List<LifecycleRule> rules;
        try {
            if (asyncClient != null) {
                rules = asyncClient.getBucketLifecycleConfiguration(request).join().rules();
            } else if (client != null) {
                rules = client.getBucketLifecycleConfiguration(request).rules();
            } else {
                return List.of("the bucket's lifecycle rules were not read (no S3 client yet)");
            }
        } catch (CompletionException | SdkException e) {
            Throwable failure = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (failure instanceof S3Exception && ((S3Exception) failure).statusCode() == 404) {
                rules = List.of(); // NoSuchLifecycleConfiguration
            } else {
                String answer = failure instanceof S3Exception ? Integer.toString(((S3Exception) failure).statusCode())
                        : failure.getClass().getSimpleName();
                return List.of("the bucket's lifecycle rules could not be read (" + answer + ")");
            }
        }
        List<String> missing = new ArrayList<>();
        List<LifecycleRule> enabled = rules.stream().filter(r -> r.status() == ExpirationStatus.ENABLED).toList();
        if (enabled.stream().noneMatch(rule -> rule.abortIncompleteMultipartUpload() != null
                && covers(rule, stagingPrefix))) {
            missing.add("no rule aborts incomplete multipart uploads under '" + stagingPrefix + "'");
        }
        if (enabled.stream().noneMatch(rule -> rule.expiration() != null && covers(rule, stagingPrefix))) {
            missing.add("no rule expires the objects under '" + stagingPrefix + "'");
        }
        return missing;
    }

    private static boolean covers(LifecycleRule rule, String prefix) {
        LifecycleRuleFilter filter = rule.filter();
        if (filter == null) {
            return true; // no filter: every object (a rule's older, top-level prefix is not read)
        }
        if (filter.tag() != null || filter.and() != null) {
            return false; // for tagged objects or sizes: staging objects carry no tag
        }
        return filter.prefix() == null || prefix.startsWith(filter.prefix());
    }
}
