package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.InvalidSettingException;
import io.github.boundedupload.s3.S3Location;
import io.github.boundedupload.s3.S3UploadOptions;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.validation.Errors;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * {@code bounded-upload.s3.*} as the S3 adapter's {@link S3UploadOptions}, checked by the adapter's own rules. Touched
 * only when the adapter and the AWS SDK are on the class path ({@link S3StorageConfiguration#isOnClassPath}).
 * Changes when the mapping of S3 properties onto the adapter's options changes.
 */
final class S3Options {


    private S3Options() {
    }

    /**
     * The options the properties describe, except the location (which may need a presigner).
     *
     * @param s3 the properties
     * @return a builder, not yet checked
     */
    static S3UploadOptions.Builder builder(S3Properties s3) {
        S3Properties.ServerSideEncryption encryption = s3.getServerSideEncryption();
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
    static S3Location location(S3Properties s3,
            Supplier<software.amazon.awssdk.services.s3.presigner.S3Presigner> presigner) {
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

    static ChecksumAlgorithm checksum(S3Properties.ChecksumAlgorithm algorithm) {
        return algorithm == S3Properties.ChecksumAlgorithm.CRC32C ? ChecksumAlgorithm.CRC32_C
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
     * Rejects the property behind each value the adapter would refuse, with its rule in property names.
     *
     * @param s3 the properties
     * @param errors where rejected values go
     */
    static void validate(S3Properties s3, Errors errors) {
        S3UploadOptions.Builder builder = builder(s3);
        StorageClass storageClass = storageClass(s3.getStorageClass());
        if (storageClass == StorageClass.UNKNOWN_TO_SDK_VERSION) {
            // A free-text property: refused here as it was written, not as the SDK's UNKNOWN_TO_SDK_VERSION.
            errors.rejectValue("s3.storageClass", "invalid", "must be one of " + String.join(", ", storageClasses())
                    + ", was " + s3.getStorageClass());
            builder.storageClass(null);
        }
        try {
            builder.build();
        } catch (InvalidSettingException e) {
            errors.rejectValue("s3." + e.setting(), "invalid",
                    e.reason(setting -> PropertiesValidator.propertyName("s3." + setting)));
        }
    }
}
