package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.FileUploader;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The embedded default storage: files under {@code bounded-upload.local.root}. */
@Configuration(proxyBeanMethods = false)
class LocalStorageConfiguration {

    private static final Log LOG = LogFactory.getLog(LocalStorageConfiguration.class);

    /** Without any storage bean; and not for an uploader the application made itself, which needs none of ours. */
    @Bean
    @ConditionalOnMissingBean({ FileUploader.class, AsyncFileUploader.class, ConcurrentAttachmentUploader.class })
    LocalFileUploader boundedUploadLocalStorage(BoundedUploadProperties properties) throws IOException {
        Path configured = properties.getLocal().getRoot();
        Path root = configured != null ? configured : Path.of(System.getProperty("java.io.tmpdir"), "bounded-upload");
        LocalFileUploader storage = new LocalFileUploader(root);
        if (configured == null) {
            LOG.warn("bounded-upload stores uploads in the temporary directory " + storage.root()
                    + "; set bounded-upload.local.root (or define a FileUploader bean) to keep them");
        } else {
            LOG.info("bounded-upload stores uploads under " + storage.root());
        }
        return storage;
    }
}
