package io.github.boundedupload.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.local.LocalFileUploader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.util.ClassUtils;

/**
 * The auto-configuration on a class path that really lacks the S3 adapter and every jar of the AWS SDK (a surefire
 * execution of its own leaves them out), where a {@code FilteredClassLoader} cannot reach: the classes that are loaded
 * whatever the configuration (the properties with their S3 defaults, the storage configuration) must load, bind and
 * explain without them. Runs only in that execution.
 */
class WithoutS3SupportTests {

    @TempDir
    Path root;

    @Test
    void theClassPathReallyLacksTheAdapterAndEveryJarOfTheSdk() {
        assertThat(ClassUtils.isPresent(S3StorageConfiguration.ADAPTER, null)).isFalse();
        assertThat(ClassUtils.isPresent(S3StorageConfiguration.SDK_CLIENT, null)).isFalse();
        assertThat(ClassUtils.isPresent("software.amazon.awssdk.core.retry.RetryMode", null)).as("sdk-core").isFalse();
        assertThat(ClassUtils.isPresent("software.amazon.awssdk.regions.Region", null)).as("regions").isFalse();
        assertThat(ClassUtils.isPresent("software.amazon.awssdk.utils.IoUtils", null)).as("utils").isFalse();
    }

    @Test
    void everyS3SettingBindsWithoutTheSdk() {
        TestSupport.runner(root).withPropertyValues("bounded-upload.s3.retry-mode=adaptive-v2",
                "bounded-upload.s3.checksum-algorithm=sha256").run(context -> {
                    assertThat(context).hasNotFailed();
                    S3Properties s3 = context.getBean(BoundedUploadProperties.class).getS3();
                    assertThat(s3.getRetryMode()).isEqualTo(S3Properties.RetryMode.ADAPTIVE_V2);
                });
    }

    @Test
    void withoutABucketTheLocalStorageWorksAndTheS3DefaultsBind() {
        TestSupport.runner(root).run(context -> {
            assertThat(context).hasSingleBean(LocalFileUploader.class);
            assertThat(TestSupport.uploadOne(context.getBean(ConcurrentAttachmentUploader.class)).allStored())
                    .isTrue();
            S3Properties s3 = context.getBean(BoundedUploadProperties.class).getS3();
            assertThat(s3.getMaxConcurrency()).isEqualTo(50);
            assertThat(s3.getPartSize().toMegabytes()).isEqualTo(8);
        });
    }

    @Test
    void aBucketFailsStartUpNamingTheMissingAdapter() {
        TestSupport.bucketRunner("attachments").withPropertyValues("bounded-upload.s3.part-size=6MB").run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new BoundedUploadFailureAnalyzer()
                            .analyze(context.getStartupFailure());
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).isEqualTo("bounded-upload.s3.bucket is set to 'attachments',"
                            + " so uploads are to go to S3, but the S3 adapter (io.github.boundedupload:"
                            + "bounded-upload-s3) is not on the class path.");
                    assertThat(analysis.getAction()).contains("bounded-upload-spring-boot-starter");
                });
    }
}
