package io.github.boundedupload.examples.studyweek.storage;

import io.github.boundedupload.autoconfigure.BoundedUploadProperties;
import io.github.boundedupload.autoconfigure.S3Properties;
import io.github.boundedupload.examples.studyweek.StudyWeekProperties;
import io.github.boundedupload.local.LocalFileUploader;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * The {@link AttachmentStore} for the storage the starter uploads to: S3 when {@code bounded-upload.s3.bucket} is set
 * (profile {@code localstack}), else the local disk (the starter's default). Changes when which store serves which
 * storage, or how it is built, changes.
 */
@Configuration(proxyBeanMethods = false)
public class StorageConfiguration {

    /** The property that switches the starter, and this application, to S3. */
    static final String BUCKET = "bounded-upload.s3.bucket";

    /** The local disk: reads through the starter's {@link LocalFileUploader}. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(NoBucket.class)
    static class Local {

        @Bean
        AttachmentStore localAttachmentStore(LocalFileUploader storage) {
            return new LocalAttachmentStore(storage);
        }
    }

    /**
     * S3: the starter builds its upload client from {@code bounded-upload.s3.*}, and keeps it to itself; reads use
     * a client built here from the same properties (and the AWS SDK's default credentials chain).
     *
     * <p>Not a bean on purpose: an {@code S3Client} or {@code S3AsyncClient} bean would become the starter's upload
     * client, and the starter would then ignore {@code endpoint}, {@code region} and {@code path-style-access}. An
     * application that configures S3 itself does exactly that, and shares its client bean with the starter.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = BUCKET)
    static class S3 {

        @Bean(destroyMethod = "close")
        S3AttachmentStore s3AttachmentStore(BoundedUploadProperties properties, StudyWeekProperties application) {
            S3Properties s3 = properties.getS3();
            S3ClientBuilder client = S3Client.builder().forcePathStyle(s3.isPathStyleAccess());
            if (s3.getRegion() != null) {
                client.region(Region.of(s3.getRegion()));
            }
            if (s3.getEndpoint() != null) {
                client.endpointOverride(s3.getEndpoint());
            }
            S3AttachmentStore store = new S3AttachmentStore(client.build(), s3.getBucket());
            if (application.s3().createBucket()) {
                store.createBucketIfMissing(application.s3().pageOrigin());
            }
            return store;
        }
    }

    /** {@code bounded-upload.s3.bucket} is not set. */
    static final class NoBucket extends NoneNestedConditions {

        NoBucket() {
            super(ConfigurationPhase.PARSE_CONFIGURATION);
        }

        @ConditionalOnProperty(name = BUCKET)
        static final class Bucket {
        }
    }
}
