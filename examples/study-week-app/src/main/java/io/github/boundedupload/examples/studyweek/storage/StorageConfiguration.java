package io.github.boundedupload.examples.studyweek.storage;

import io.github.boundedupload.examples.studyweek.StudyWeekProperties;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.s3.S3AsyncFileUploader;
import java.net.URI;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;

/**
 * The {@link AttachmentStore} for the storage in use: S3 when {@code bounded-upload.s3.bucket} is set (profile
 * {@code localstack}), else the local disk (the starter's default).
 */
@Configuration(proxyBeanMethods = false)
public class StorageConfiguration {

    /** The property that switches the starter, and this application, to S3. */
    static final String BUCKET = "bounded-upload.s3.bucket";

    /** The local disk: the starter's {@link LocalFileUploader}, under {@code bounded-upload.local.root}. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(NoBucket.class)
    static class Local {

        @Bean
        AttachmentStore localAttachmentStore(LocalFileUploader storage) {
            return new LocalAttachmentStore(storage);
        }
    }

    /**
     * S3. The application builds the {@link S3AsyncClient} from the starter's {@code bounded-upload.s3.*} properties,
     * so that downloads and deletes use the same client, endpoint and credentials (the AWS SDK's default chain) as
     * the uploads.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = BUCKET)
    static class S3 {

        @Bean(destroyMethod = "close")
        S3AsyncClient s3AsyncClient(Environment environment, StudyWeekProperties properties,
                @Value("${" + BUCKET + "}") String bucket) {
            S3AsyncClientBuilder builder = S3AsyncClient.builder();
            String endpoint = environment.getProperty("bounded-upload.s3.endpoint");
            if (endpoint != null && !endpoint.isBlank()) {
                builder.endpointOverride(URI.create(endpoint));
            }
            String region = environment.getProperty("bounded-upload.s3.region");
            if (region != null && !region.isBlank()) {
                builder.region(Region.of(region));
            }
            builder.forcePathStyle(environment.getProperty("bounded-upload.s3.path-style-access", Boolean.class,
                    false));
            S3AsyncClient client = builder.build();
            if (properties.s3().createBucket()) {
                createIfMissing(client, bucket);
            }
            return client;
        }

        /** For LocalStack, which starts empty; a real bucket is made by whoever owns the account. */
        private static void createIfMissing(S3AsyncClient client, String bucket) {
            try {
                client.headBucket(request -> request.bucket(bucket)).join();
            } catch (java.util.concurrent.CompletionException e) {
                if (!(e.getCause() instanceof NoSuchBucketException)) {
                    throw e;
                }
                client.createBucket(request -> request.bucket(bucket)).join();
            }
        }

        /** The starter's S3 storage is not merged yet: until it is, the application makes its own. */
        @Bean(destroyMethod = "close")
        S3AsyncFileUploader studyWeekS3Storage(S3AsyncClient client, @Value("${" + BUCKET + "}") String bucket) {
            return S3AsyncFileUploader.builder(client, bucket).build();
        }

        @Bean
        AttachmentStore s3AttachmentStore(S3AsyncClient client, @Value("${" + BUCKET + "}") String bucket) {
            return new S3AttachmentStore(client, bucket);
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
