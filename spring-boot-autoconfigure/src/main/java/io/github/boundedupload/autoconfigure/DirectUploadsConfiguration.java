package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.direct.DirectUploads;
import io.github.boundedupload.direct.GrantStore;
import io.github.boundedupload.local.LocalUploadSigner;
import io.github.boundedupload.micrometer.DirectUploadsMeters;
import io.github.boundedupload.spi.UploadSigner;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

/**
 * Direct uploads, when {@code bounded-upload.direct.enabled=true}: a {@link DirectUploads} on the uploader, the
 * storage's {@link UploadSigner} (the S3 storage's, or the application's bean) and the journal's {@link GrantStore}
 * (or the application's bean). Without either, start-up fails and says which is missing, rather than granting uploads
 * that nothing would sign or nothing would clean up. Changes when {@link DirectProperties} changes.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = DirectUploadsConfiguration.PREFIX, name = "enabled")
class DirectUploadsConfiguration {

    static final String PREFIX = BoundedUploadProperties.PREFIX + ".direct";

    @Bean
    @ConditionalOnMissingBean
    DirectUploads boundedUploadDirectUploads(ConcurrentAttachmentUploader uploader, BoundedUploadProperties properties,
            ObjectProvider<UploadSigner> signers, ObjectProvider<GrantStore> stores) {
        UploadSigner signer = signers.getIfUnique();
        if (signer == null) {
            throw new UploaderSetupException(PREFIX + ".enabled is true, but the storage signs no uploads.",
                    "Store in S3 (bounded-upload.s3.bucket), whose storage signs them, or define an UploadSigner"
                            + " bean (marked @Primary if there are several).");
        }
        GrantStore store = stores.getIfUnique();
        if (store == null) {
            throw new UploaderSetupException(PREFIX + ".enabled is true, but there is no store for the grants.",
                    "Turn the upload journal on (bounded-upload.journal.enabled=true, with bounded-upload-jdbc and a"
                            + " DataSource): it keeps the grants across the fleet and removes what was uploaded and"
                            + " never confirmed. Or define a GrantStore bean.");
        }
        DirectProperties direct = properties.getDirect();
        try {
            DirectUploads.Builder builder = DirectUploads.builder(uploader, signer).grants(store)
                    .stagingPrefix(direct.getStagingPrefix()).lifetime(direct.getLifetime())
                    .maxFilesPerRequest(direct.getMaxFilesPerRequest())
                    .maxBytesPerRequest(direct.getMaxBytesPerRequest().toBytes())
                    .maxOutstandingPerCaller(direct.getMaxOutstandingPerCaller())
                    .partsAbove(direct.getPartsAbove().toBytes()).partSize(direct.getPartSize().toBytes());
            Set<String> types = direct.getContentTypes();
            if (types != null) {
                builder.contentTypes(types);
            }
            DataSize perFile = direct.getMaxBytesPerFile();
            if (perFile != null) {
                builder.maxBytesPerFile(perFile.toBytes());
            }
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new UploaderSetupException("The direct uploads' settings are invalid: " + e.getMessage(),
                    "Fix the " + PREFIX + ".* property it names.", e);
        }
    }

    /** The meters of direct uploads, bound by Spring Boot's metrics support like every {@code MeterBinder} bean. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
    static class Meters {

        @Bean
        @ConditionalOnMissingBean
        DirectUploadsMeters boundedUploadDirectUploadsMeters(DirectUploads direct,
                ConcurrentAttachmentUploader uploader) {
            return new DirectUploadsMeters(direct, uploader.name());
        }
    }

    /**
     * The receiving end of the local disk's signed PUTs, in a servlet application (Boot registers the filter). Here,
     * processed after the storage's configurations, so that the signer they made is seen.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "jakarta.servlet.Filter")
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    static class Receiving {

        @Bean
        @ConditionalOnBean(LocalUploadSigner.class)
        LocalUploadFilter boundedUploadLocalUploadFilter(LocalUploadSigner signer, BoundedUploadProperties properties) {
            return new LocalUploadFilter(signer, properties.getDirect().getLocalPath(),
                    properties.getMaxConcurrentUploads());
        }
    }
}
