package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class UploaderConfigTest {

    @Test
    void defaultsAreThePublishedConstants() {
        UploaderConfig config = UploaderConfig.defaults();

        assertThat(config.name()).isEqualTo(UploaderConfig.DEFAULT_NAME);
        assertThat(config.maxConcurrentUploads()).isEqualTo(UploaderConfig.DEFAULT_MAX_CONCURRENT_UPLOADS);
        assertThat(config.maxConcurrentUploadsPerBatch())
                .isEqualTo(UploaderConfig.DEFAULT_MAX_CONCURRENT_UPLOADS_PER_BATCH);
        assertThat(config.maxQueuedUploads()).isEqualTo(UploaderConfig.DEFAULT_MAX_QUEUED_UPLOADS);
        assertThat(config.maxBytesInFlight()).isEqualTo(UploaderConfig.DEFAULT_MAX_BYTES_IN_FLIGHT);
        assertThat(config.maxAttachmentSize()).isEqualTo(UploaderConfig.DEFAULT_MAX_ATTACHMENT_SIZE);
        assertThat(config.maxAttachmentsPerBatch()).isEqualTo(UploaderConfig.DEFAULT_MAX_ATTACHMENTS_PER_BATCH);
        assertThat(config.rejectionPolicy()).isEqualTo(UploaderConfig.DEFAULT_REJECTION_POLICY);
        assertThat(config.blockTimeout()).isEqualTo(UploaderConfig.DEFAULT_BLOCK_TIMEOUT);
        assertThat(config.uploadTimeout()).isEqualTo(UploaderConfig.DEFAULT_UPLOAD_TIMEOUT);
        assertThat(config.batchTimeout()).isEqualTo(UploaderConfig.DEFAULT_BATCH_TIMEOUT);
        assertThat(config.shutdownGracePeriod()).isEqualTo(UploaderConfig.DEFAULT_SHUTDOWN_GRACE_PERIOD);
        assertThat(config.failurePolicy()).isEqualTo(UploaderConfig.DEFAULT_FAILURE_POLICY);
        assertThat(config.executorType()).isEqualTo(UploaderConfig.DEFAULT_EXECUTOR_TYPE);
        assertThat(config.executor()).isEmpty();
        assertThat(config.listeners()).isEmpty();
        // close() returns within the grace period and two stop timeouts: inside Kubernetes' default 30 s.
        assertThat(config.shutdownGracePeriod().plus(config.stopTimeout().multipliedBy(2)))
                .isLessThanOrEqualTo(java.time.Duration.ofSeconds(30));
    }

    @Test
    void toBuilderCopiesAndLeavesTheOriginalAlone() {
        UploaderConfig original = UploaderConfig.builder().name("a").maxConcurrentUploads(5)
                .maxConcurrentUploadsPerBatch(5).listener(new io.github.boundedupload.spi.UploadListener() { })
                .build();

        UploaderConfig changed = original.toBuilder().name("b").maxConcurrentUploads(9)
                .listener(new io.github.boundedupload.spi.UploadListener() { }).build();

        assertThat(original.name()).isEqualTo("a");
        assertThat(original.maxConcurrentUploads()).isEqualTo(5);
        assertThat(original.listeners()).hasSize(1);
        assertThat(changed.maxConcurrentUploadsPerBatch()).isEqualTo(5);
        assertThat(changed.listeners()).hasSize(2);
        assertThatThrownBy(() -> changed.listeners().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    /**
     * Regression: {@code maxConcurrentUploads(1)} alone failed to build ("maxConcurrentUploadsPerBatch must be from 1
     * to maxConcurrentUploads (1), was 16"): the per-batch default did not follow a smaller overall bound.
     */
    @Test
    void thePerBatchDefaultFollowsASmallerOverallBoundUnlessItIsSet() {
        assertThat(UploaderConfig.builder().maxConcurrentUploads(1).build().maxConcurrentUploadsPerBatch()).isEqualTo(1);
        assertThat(UploaderConfig.builder().maxConcurrentUploads(8).build().maxConcurrentUploadsPerBatch()).isEqualTo(8);
        assertThat(UploaderConfig.builder().maxConcurrentUploads(100).build().maxConcurrentUploadsPerBatch())
                .isEqualTo(UploaderConfig.DEFAULT_MAX_CONCURRENT_UPLOADS_PER_BATCH);
        // A copy of a default keeps following the overall bound; a value set stays set, and is checked against it.
        UploaderConfig copied = UploaderConfig.defaults().toBuilder().maxConcurrentUploads(4).build();
        assertThat(copied.maxConcurrentUploadsPerBatch()).isEqualTo(4);
        assertThat(copied.toBuilder().maxConcurrentUploads(64).build().maxConcurrentUploadsPerBatch())
                .isEqualTo(UploaderConfig.DEFAULT_MAX_CONCURRENT_UPLOADS_PER_BATCH);
        UploaderConfig set = UploaderConfig.builder().maxConcurrentUploadsPerBatch(16).build();
        assertThatThrownBy(() -> set.toBuilder().maxConcurrentUploads(8).build())
                .isInstanceOf(InvalidSettingException.class)
                .hasMessage("maxConcurrentUploadsPerBatch must be from 1 to maxConcurrentUploads (8), was 16");
    }

    private static void refused(UnaryOperator<UploaderConfig.Builder> settings, String message) {
        assertThatThrownBy(() -> settings.apply(UploaderConfig.builder()).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }

    @Test
    void theExceptionCarriesTheSettingTheValueAndTheRule() {
        assertThatThrownBy(() -> UploaderConfig.builder().maxConcurrentUploads(4).maxConcurrentUploadsPerBatch(8)
                .build()).isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("maxConcurrentUploadsPerBatch");
                    assertThat(e.value()).isEqualTo("8");
                    assertThat(e.allowed()).isEqualTo("from 1 to maxConcurrentUploads (4)");
                });
    }

    @Test
    void invalidValuesAreRefusedWithTheSettingAndWhatItAllows() {
        refused(b -> b.maxConcurrentUploads(0), "maxConcurrentUploads must be at least 1, was 0");
        refused(b -> b.maxConcurrentUploads(4).maxConcurrentUploadsPerBatch(8),
                "maxConcurrentUploadsPerBatch must be from 1 to maxConcurrentUploads (4), was 8");
        refused(b -> b.maxQueuedUploads(10), "maxQueuedUploads must be at least maxAttachmentsPerBatch (1000),"
                + " or no full batch could ever be admitted, was 10");
        refused(b -> b.maxBytesInFlight(-1), "maxBytesInFlight must be at least 1, was -1");
        refused(b -> b.maxAttachmentSize(0), "maxAttachmentSize must be at least 1, was 0");
        refused(b -> b.uploadTimeout(Duration.ZERO), "uploadTimeout must be a positive duration, was PT0S");
        refused(b -> b.batchTimeout(Duration.ofSeconds(-1)), "batchTimeout must be a positive duration, was PT-1S");
        refused(b -> b.shutdownGracePeriod(Duration.ofSeconds(-1)),
                "shutdownGracePeriod must be zero or more, was PT-1S");
        refused(b -> b.name("has space"), "name must be 1 to 63 letters, digits, '.', '_' or '-', starting with a"
                + " letter or digit, was 'has space'");
    }
}
