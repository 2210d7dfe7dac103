package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.InvalidSettingException;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.UploaderConfig;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import org.springframework.validation.Errors;

/**
 * Checks bound {@code bounded-upload.*} values with the same rules as {@link UploaderConfig.Builder#build()} and the S3
 * adapter's options, rejecting the property that breaks one. The rules stay the core's and the adapter's: their
 * {@link InvalidSettingException} names the setting, and renders its rule with property names, so nothing is parsed.
 * Values are rejected under their field names, as Spring Boot's own validation does: its start-up report then shows
 * each property's origin (file and line) too. Changes when the way bound properties are checked changes.
 */
final class PropertiesValidator {

    private PropertiesValidator() {
    }

    static void validate(BoundedUploadProperties properties, Errors errors) {
        try {
            KeyStrategy.datedUuid(properties.getKeyPrefix());
        } catch (IllegalArgumentException e) {
            errors.rejectValue("keyPrefix", "invalid", String.valueOf(e.getMessage()));
        }
        UploaderConfig.Builder builder = UploaderSettings.applyTo(properties, UploaderConfig.builder());
        if (properties.getExecutor().getType() != null) {
            builder.executorType(properties.getExecutor().getType());
        }
        try {
            builder.build();
        } catch (InvalidSettingException e) {
            String field = e.setting().equals("executorType") ? "executor.type" : e.setting();
            errors.rejectValue(field, "invalid", e.reason(PropertiesValidator::propertyName));
        }
        AdaptiveConcurrencyProperties adaptive = properties.getAdaptiveConcurrency();
        if (adaptive.isEnabled() && !UploaderSettings.adaptiveConcurrencyAvailable()) {
            errors.rejectValue("adaptiveConcurrency.enabled", "invalid", "needs Netflix's concurrency-limits on the"
                    + " classpath (com.netflix.concurrency-limits:concurrency-limits-core)");
        }
        if (adaptive.getInitialLimit() < 1) {
            errors.rejectValue("adaptiveConcurrency.initialLimit", "invalid", "must be at least 1, was "
                    + adaptive.getInitialLimit());
        }
        Duration healthTimeout = properties.getHealth().getTimeout();
        if (healthTimeout.isNegative() || healthTimeout.isZero()) {
            errors.rejectValue("health.timeout", "invalid", "must be a positive duration, was " + healthTimeout);
        }
        if (properties.getS3().getBucket() != null) {
            validate(properties.getS3(), errors);
            if (properties.getLocal().getRoot() != null) {
                errors.rejectValue("local.root", "ignored", "cannot take effect: bounded-upload.s3.bucket is set, so "
                        + "uploads go to S3; set one of the two (local.root in a profile without the bucket, say)");
            }
        }
        if (properties.getJournal().isEnabled()) {
            validate(properties.getJournal(), errors);
        }
    }

    private static void validate(JournalProperties journal, Errors errors) {
        if (journal.getKeepMargin().isNegative()) {
            errors.rejectValue("journal.keepMargin", "invalid", "must be zero or more, was " + journal.getKeepMargin());
        }
        if (journal.getPollingInterval().isNegative() || journal.getPollingInterval().isZero()) {
            errors.rejectValue("journal.pollingInterval", "invalid", "must be a positive duration, was "
                    + journal.getPollingInterval());
        }
        if (journal.getFailingAfter() < 1) {
            errors.rejectValue("journal.failingAfter", "invalid", "must be at least 1, was "
                    + journal.getFailingAfter());
        }
        if (journal.getThreads() < 1) {
            errors.rejectValue("journal.threads", "invalid", "must be at least 1, was " + journal.getThreads());
        }
        if (journal.getFirstRetryPause().isNegative() || journal.getFirstRetryPause().isZero()
                || journal.getMaxRetryPause().compareTo(journal.getFirstRetryPause()) < 0) {
            errors.rejectValue("journal.maxRetryPause", "invalid", "must be at least journal.first-retry-pause ("
                    + journal.getFirstRetryPause() + "), which must be positive; was " + journal.getMaxRetryPause());
        }
        JournalProperties.Deferred deferred = journal.getDeferred();
        if (deferred.getMaxAttachmentSize().toBytes() < 1 || deferred.getMaxStagedSize().toBytes() < 1) {
            errors.rejectValue("journal.deferred.maxStagedSize", "invalid",
                    "max-attachment-size and max-staged-size must be at least 1 byte");
        }
        if (deferred.getMaxStagedAttachments() < 1) {
            errors.rejectValue("journal.deferred.maxStagedAttachments", "invalid", "must be at least 1, was "
                    + deferred.getMaxStagedAttachments());
        }
        if (deferred.getDeadline().isNegative() || deferred.getDeadline().isZero()) {
            errors.rejectValue("journal.deferred.deadline", "invalid", "must be a positive duration, was "
                    + deferred.getDeadline());
        }
        String instance = journal.getInstanceName();
        if (instance != null && (instance.isBlank() || instance.length() > 50)) {
            errors.rejectValue("journal.instanceName", "invalid", "must be 1 to 50 characters, was '" + instance
                    + "'");
        }
    }

    private static void validate(S3Properties s3, Errors errors) {
        String bucket = s3.getBucket();
        if (bucket != null && bucket.isBlank()) {
            errors.rejectValue("s3.bucket", "invalid", "must not be blank (leave it unset for no S3 storage)");
        }
        URI endpoint = s3.getEndpoint();
        if (endpoint != null && (endpoint.getHost() == null
                || !("http".equals(endpoint.getScheme()) || "https".equals(endpoint.getScheme())))) {
            errors.rejectValue("s3.endpoint", "invalid",
                    "must be an http or https URL such as http://127.0.0.1:4566, was " + endpoint);
        }
        String region = s3.getRegion();
        if (region != null && region.isBlank()) {
            errors.rejectValue("s3.region", "invalid", "must not be blank (leave it unset for the SDK's default)");
        }
        Duration ttl = s3.getPresignedUrlTtl();
        if (s3.getLocation() == S3Properties.Location.PRESIGNED && (ttl.isNegative() || ttl.isZero()
                || ttl.compareTo(S3Properties.MAX_PRESIGNED_URL_TTL) > 0)) {
            errors.rejectValue("s3.presignedUrlTtl", "invalid",
                    "must be positive and at most 7d (SigV4's limit), was " + ttl);
        }
        if (S3StorageConfiguration.isOnClassPath(PropertiesValidator.class.getClassLoader())) {
            S3Options.validate(s3, errors);
        }
    }

    /** {@code maxConcurrentUploads} as {@code bounded-upload.max-concurrent-uploads}. */
    static String propertyName(String setting) {
        StringBuilder name = new StringBuilder(BoundedUploadProperties.PREFIX).append('.');
        for (char c : setting.toCharArray()) {
            if (Character.isUpperCase(c)) {
                name.append('-').append(Character.toLowerCase(c));
            } else {
                name.append(c);
            }
        }
        return name.toString().toLowerCase(Locale.ROOT);
    }
}
