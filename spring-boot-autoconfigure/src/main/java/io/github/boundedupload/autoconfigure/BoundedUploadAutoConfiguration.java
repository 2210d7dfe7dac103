package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * Auto-configures a {@link ConcurrentAttachmentUploader} from {@link BoundedUploadProperties}: a storage (the
 * application's {@code FileUploader} or {@code AsyncFileUploader} bean; else S3 when {@code bounded-upload.s3.bucket}
 * is set; else the local filesystem when {@code bounded-upload.local.root} is; else start-up fails, naming what to
 * set), the {@code UploaderConfig}, and the uploader, which is closed gracefully when the context closes. Every bean
 * backs off when the application defines its own; {@code bounded-upload.enabled=false} turns all of it off. A key
 * under {@code bounded-upload.*} that is no property fails start-up, naming the nearest one. Changes when the parts of
 * the auto-configuration or their order change.
 *
 * <p>By default the uploader creates and owns its threads: a pool sized to {@code max-concurrent-uploads} (or
 * virtual threads), named {@code bounded-upload-<name>-N}, used for nothing else, and stopped by the uploader's
 * {@code close()} once running batches have finished. An {@link java.util.concurrent.Executor} bean named
 * {@value #EXECUTOR_BEAN_NAME} replaces it; the application then owns that executor and its shutdown.
 */
// After Spring Cloud AWS, so that its clients are the application's clients the S3 storage uses (the CRT-based
// S3AsyncClient, when it makes one, else its S3Client), and its credentials and region providers are there for a
// client built here; after the DataSource (Spring Boot 4's name, then 3's), which the upload journal uses.
@AutoConfiguration(afterName = { "io.awspring.cloud.autoconfigure.core.CredentialsProviderAutoConfiguration",
    "io.awspring.cloud.autoconfigure.core.RegionProviderAutoConfiguration",
    "io.awspring.cloud.autoconfigure.s3.S3AutoConfiguration",
    "io.awspring.cloud.autoconfigure.s3.S3CrtAsyncClientAutoConfiguration",
    "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
    "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration" })
@ConditionalOnClass(ConcurrentAttachmentUploader.class)
@ConditionalOnProperty(prefix = BoundedUploadProperties.PREFIX, name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(BoundedUploadProperties.class)
// Storage configurations come first, in order of preference, so that the uploader finds the one that applied.
@Import({ S3StorageConfiguration.class, LocalStorageConfiguration.class, JournalConfiguration.class,
    UploaderConfiguration.class, DrainConfiguration.class, DirectUploadsConfiguration.class })
public final class BoundedUploadAutoConfiguration {

    /** The name of an {@link java.util.concurrent.Executor} bean that replaces the uploader's own threads. */
    public static final String EXECUTOR_BEAN_NAME = "boundedUploadExecutor";

    BoundedUploadAutoConfiguration() {
    }

    /** Unknown keys under {@code bounded-upload.*} fail start-up, naming the nearest valid key. */
    @Bean
    static UnknownPropertiesCheck boundedUploadUnknownPropertiesCheck(Environment environment) {
        return new UnknownPropertiesCheck(environment);
    }
}
