package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.autoconfigure.BoundedUploadProperties.S3;
import io.github.boundedupload.s3.S3Location;
import io.github.boundedupload.s3.S3UploadOptions;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.validation.Errors;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * {@code bounded-upload.s3.*} as the S3 adapter's {@link S3UploadOptions}, checked by the adapter's own rules. Touched
 * only when the adapter and the AWS SDK are on the class path ({@link S3StorageConfiguration#isOnClassPath}).
 */
final class S3Options {

    /** The adapter's settings that have a property of the same name; its messages start with them. */
    private static final List<String> SETTINGS = List.of("multipartThreshold", "partSize", "partsInFlight",
            "maxConcurrency", "checksumAlgorithm", "serverSideEncryption", "storageClass", "kmsKeyId");
    private static final Pattern SETTING = Pattern.compile("\\b(" + String.join("|", SETTINGS) + ")\\b");
    private static final Pattern KMS_KEY_RULE = Pattern.compile("^a KMS key (.*)$", Pattern.DOTALL);

    private S3Options() {
    }

    /**
     * The options the properties describe, except the location (which may need a presigner).
     *
     * @param s3 the properties
     * @return a builder, not yet checked
     */
    static S3UploadOptions.Builder builder(S3 s3) {
        S3.ServerSideEncryption encryption = s3.getServerSideEncryption();
        return S3UploadOptions.builder()
                .maxConcurrency(s3.getMaxConcurrency())
                .multipartThreshold(s3.getMultipartThreshold().toBytes())
                .partSize(s3.getPartSize().toBytes())
                .partsInFlight(s3.getPartsInFlight())
                .checksumAlgorithm(checksum(s3.getChecksumAlgorithm()))
                .contentDisposition(S3UploadOptions.ContentDisposition.valueOf(s3.getContentDisposition().name()))
                .storageClass(storageClass(s3.getStorageClass()))
                .serverSideEncryption(encryption == null ? null : ServerSideEncryption.valueOf(encryption.name()),
                        s3.getKmsKeyId());
    }

    /**
     * The location the properties describe.
     *
     * @param s3 the properties
     * @param presigner the presigner, asked for only when the location is presigned
     * @return the location
     */
    static S3Location location(S3 s3, Supplier<software.amazon.awssdk.services.s3.presigner.S3Presigner> presigner) {
        switch (s3.getLocation()) {
            case PATH_STYLE:
                return S3Location.pathStyle();
            case VIRTUAL_HOST:
                return S3Location.virtualHostStyle();
            case PRESIGNED:
                return S3Location.presignedGet(presigner.get(), s3.getPresignedUrlTtl());
            default:
                return S3Location.objectUrl();
        }
    }

    static ChecksumAlgorithm checksum(S3.ChecksumAlgorithm algorithm) {
        return algorithm == S3.ChecksumAlgorithm.CRC32C ? ChecksumAlgorithm.CRC32_C
                : ChecksumAlgorithm.valueOf(algorithm.name());
    }

    /** S3's names (STANDARD_IA), also written in lower case or with dashes. */
    static @Nullable StorageClass storageClass(@Nullable String name) {
        return name == null ? null
                : StorageClass.fromValue(name.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    private static Set<String> storageClasses() {
        return StorageClass.knownValues().stream().map(StorageClass::toString)
                .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
    }

    /**
     * Rejects the property behind each value the adapter would refuse, with its rule.
     *
     * @param s3 the properties
     * @param errors where rejected values go
     */
    static void validate(S3 s3, Errors errors) {
        S3UploadOptions.Builder builder = builder(s3);
        StorageClass storageClass = storageClass(s3.getStorageClass());
        if (storageClass == StorageClass.UNKNOWN_TO_SDK_VERSION) {
            errors.rejectValue("s3.storageClass", "invalid", "must be one of " + String.join(", ", storageClasses())
                    + ", was " + s3.getStorageClass());
            builder.storageClass(null);
        }
        try {
            builder.build();
        } catch (IllegalArgumentException e) {
            reject(errors, String.valueOf(e.getMessage()));
        }
    }

    /**
     * The adapter's messages start with the setting they are about ("partSize must be from ..."), or, for the KMS
     * key, with "a KMS key": that names the field; the rest becomes the reason, in property names.
     */
    private static void reject(Errors errors, String message) {
        Matcher kms = KMS_KEY_RULE.matcher(message);
        Matcher setting = Pattern.compile("^(\\w+) (.*)$", Pattern.DOTALL).matcher(message);
        if (kms.matches()) {
            errors.rejectValue("s3.kmsKeyId", "invalid", inPropertyNames(kms.group(1)));
        } else if (setting.matches() && SETTINGS.contains(setting.group(1))) {
            errors.rejectValue("s3." + setting.group(1), "invalid", inPropertyNames(setting.group(2)));
        } else {
            errors.reject("invalid", "invalid bounded-upload.s3 settings: " + inPropertyNames(message));
        }
    }

    private static String inPropertyNames(String text) {
        Matcher names = SETTING.matcher(text);
        StringBuilder result = new StringBuilder();
        while (names.find()) {
            names.appendReplacement(result, Matcher.quoteReplacement(
                    BoundedUploadProperties.propertyName("s3." + names.group(1))));
        }
        return names.appendTail(result).toString();
    }
}
