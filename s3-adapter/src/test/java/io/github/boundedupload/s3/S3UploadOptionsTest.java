package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

class S3UploadOptionsTest {

    @Test
    void defaultsAreThePublishedConstants() {
        S3UploadOptions options = S3UploadOptions.defaults();
        assertThat(options.multipartThreshold()).isEqualTo(S3UploadOptions.DEFAULT_MULTIPART_THRESHOLD);
        assertThat(options.partSize()).isEqualTo(S3UploadOptions.DEFAULT_PART_SIZE);
        assertThat(options.partsInFlight()).isEqualTo(S3UploadOptions.DEFAULT_PARTS_IN_FLIGHT);
        assertThat(options.maxConcurrency()).isEqualTo(S3UploadOptions.DEFAULT_MAX_CONCURRENCY);
        assertThat(options.checksumAlgorithm()).isEqualTo(ChecksumAlgorithm.CRC32);
        assertThat(options.contentDisposition()).isEqualTo(S3UploadOptions.ContentDisposition.ATTACHMENT);
        assertThat(options.storageClass()).isEmpty();
        assertThat(options.serverSideEncryption()).isEmpty();
        assertThat(options.kmsKeyId()).isEmpty();
        assertThat(options.location()).isSameAs(S3Location.objectUrl());
    }

    @Test
    void toBuilderLeavesTheOriginalAlone() {
        S3UploadOptions original = S3UploadOptions.builder().maxConcurrency(7).build();
        S3UploadOptions changed = original.toBuilder().maxConcurrency(9).build();
        assertThat(original.maxConcurrency()).isEqualTo(7);
        assertThat(changed.maxConcurrency()).isEqualTo(9);
    }

    @Test
    void refusesWhatS3Refuses() {
        assertThatThrownBy(() -> S3UploadOptions.builder().partSize(S3UploadOptions.MIN_PART_SIZE - 1).build())
                .hasMessageContaining("partSize");
        assertThatThrownBy(() -> S3UploadOptions.builder().multipartThreshold(1024).build())
                .hasMessageContaining("multipartThreshold");
        assertThatThrownBy(() -> S3UploadOptions.builder().partsInFlight(0).build())
                .hasMessageContaining("partsInFlight");
        assertThatThrownBy(() -> S3UploadOptions.builder().maxConcurrency(0).build())
                .hasMessageContaining("maxConcurrency");
        assertThatThrownBy(() -> S3UploadOptions.builder().checksumAlgorithm(ChecksumAlgorithm.CRC64_NVME).build())
                .hasMessageContaining("checksumAlgorithm");
        assertThatThrownBy(() -> S3UploadOptions.builder()
                .serverSideEncryption(ServerSideEncryption.AES256, "some-key").build())
                .hasMessageContaining("KMS");
        assertThatThrownBy(() -> S3Location.presignedGet(
                software.amazon.awssdk.services.s3.presigner.S3Presigner.builder()
                        .region(software.amazon.awssdk.regions.Region.US_EAST_1).build(), Duration.ofDays(8)))
                .hasMessageContaining("ttl");
    }

    @Test
    void toStringNamesNoKmsKey() {
        S3UploadOptions options = S3UploadOptions.builder()
                .serverSideEncryption(ServerSideEncryption.AWS_KMS, "arn:aws:kms:eu-west-1:111122223333:key/secret-id")
                .build();
        assertThat(options.toString()).doesNotContain("secret-id").contains("kmsKeyId set");
    }
}
