package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.local.LocalUploadSigner;
import io.github.boundedupload.spi.UploadSigner;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.FileUploader;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The embedded storage: files under {@code bounded-upload.local.root}, and only when that property says so. Without
 * a storage bean, a bucket or a root, start-up fails: a default directory (the temporary directory, as before) would
 * lose every upload to a reboot or a tmp cleaner, because a key was forgotten or misspelt. Changes when the way the
 * local storage is chosen and built changes.
 */
@Configuration(proxyBeanMethods = false)
class LocalStorageConfiguration {

    private static final Log LOG = LogFactory.getLog(LocalStorageConfiguration.class);

    /** The one line a start-up without any storage fails with. */
    static final String NO_STORAGE = "bounded-upload has no storage: set bounded-upload.s3.bucket (S3) or "
            + "bounded-upload.local.root (a directory on the local disk), or define a FileUploader or "
            + "AsyncFileUploader bean.";

    /** Without any storage bean; and not for an uploader the application made itself, which needs none of ours. */
    @Bean
    @ConditionalOnMissingBean({ FileUploader.class, AsyncFileUploader.class, ConcurrentAttachmentUploader.class })
    LocalFileUploader boundedUploadLocalStorage(BoundedUploadProperties properties) throws IOException {
        Path root = properties.getLocal().getRoot();
        if (root == null) {
            throw new UploaderSetupException(NO_STORAGE, "For development, a directory of your choice will do, "
                    + "such as bounded-upload.local.root=./uploads; see docs/spring-boot.md#storage.");
        }
        LocalFileUploader storage = new LocalFileUploader(root);
        LOG.info("bounded-upload stores uploads under " + storage.root());
        return storage;
    }

    /**
     * Direct uploads to the local disk: URLs of this application, signed with its secret, received by
     * {@link LocalUploadFilter} in a servlet application.
     */
    @Bean
    @ConditionalOnBean(LocalFileUploader.class)
    @ConditionalOnMissingBean(UploadSigner.class)
    @ConditionalOnProperty(prefix = DirectUploadsConfiguration.PREFIX, name = "enabled")
    LocalUploadSigner boundedUploadSigner(LocalFileUploader storage, BoundedUploadProperties properties) {
        DirectProperties direct = properties.getDirect();
        String secret = direct.getLocalSecret();
        try {
            return secret == null ? LocalUploadSigner.create(storage, direct.getLocalPath())
                    : LocalUploadSigner.create(storage, direct.getLocalPath(), secret.getBytes(StandardCharsets.UTF_8),
                            Clock.systemUTC());
        } catch (IllegalArgumentException e) {
            throw new UploaderSetupException("The direct uploads' settings are invalid: " + e.getMessage(),
                    "Fix bounded-upload.direct.local-path or local-secret.", e);
        }
    }
}
