package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.s3.S3AsyncFileUploader;
import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.s3.S3UploadOptions;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadSigner;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.AllNestedConditions;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.DependsOn;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The S3 storage, when {@code bounded-upload.s3.bucket} is set and the application defines no storage (nor uploader)
 * of its own: the non-blocking {@link S3AsyncFileUploader} on the application's {@code S3AsyncClient} bean, else the
 * blocking {@link S3FileUploader} on its {@code S3Client} bean, else the adapter {@code non-blocking} chooses on a
 * client built from the properties. Without the adapter or the AWS SDK on the class path, start-up fails and says
 * so, rather than storing on the local disk against the configuration's intent. Changes when the way the S3 storage is
 * chosen and built changes.
 *
 * <p>This class and {@link BoundedUploadProperties} name no SDK type outside the nested configurations that require
 * the SDK: they load without it.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = S3StorageConfiguration.PREFIX, name = "bucket")
@ConditionalOnMissingBean({ FileUploader.class, AsyncFileUploader.class, ConcurrentAttachmentUploader.class })
class S3StorageConfiguration {

    static final String PREFIX = BoundedUploadProperties.PREFIX + ".s3";

    static final String CONNECTION_BEAN_NAME = "boundedUploadS3Connection";

    static final String STORAGE_BEAN_NAME = "boundedUploadS3Storage";

    private static final Log LOG = LogFactory.getLog(S3StorageConfiguration.class);

    static final String SDK_CLIENT = "software.amazon.awssdk.services.s3.S3Client";
    static final String SDK_ASYNC_CLIENT = "software.amazon.awssdk.services.s3.S3AsyncClient";
    static final String ADAPTER = "io.github.boundedupload.s3.S3FileUploader";

    /**
     * Whether the S3 adapter and the AWS SDK's S3 client can be loaded.
     *
     * @param loader the class loader, or {@code null} for the default one
     * @return whether both can
     */
    static boolean isOnClassPath(@Nullable ClassLoader loader) {
        return ClassUtils.isPresent(SDK_CLIENT, loader) && ClassUtils.isPresent(ADAPTER, loader);
    }

    /** The bucket is set, and the S3 support is missing: a storage bean that explains it instead of being made. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(S3SupportMissing.class)
    static class MissingSupportConfiguration {

        @Bean
        @ConditionalOnMissingBean
        FileUploader boundedUploadS3Storage(BoundedUploadProperties properties, ResourceLoader resources) {
            ClassLoader loader = resources.getClassLoader();
            String missing = !ClassUtils.isPresent(ADAPTER, loader)
                    ? "the S3 adapter (io.github.boundedupload:bounded-upload-s3) is not on the class path"
                    : "the AWS SDK's S3 client (software.amazon.awssdk:s3) is not on the class path";
            throw new UploaderSetupException("bounded-upload.s3.bucket is set to '" + properties.getS3().getBucket()
                    + "', so uploads are to go to S3, but " + missing + ".",
                    "Add io.github.boundedupload:bounded-upload-s3 (which brings the AWS SDK's S3 client) to the "
                            + "application, or use bounded-upload-spring-boot-starter, which has both. To store on "
                            + "the local filesystem instead, remove bounded-upload.s3.bucket.");
        }
    }

    /** The adapter and the SDK are on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = { SDK_CLIENT, ADAPTER })
    static class SdkConfiguration {

        /** The properties' options, then the customizers in order: whatever comes later wins. */
        @Bean
        @ConditionalOnMissingBean
        S3UploadOptions boundedUploadS3Options(BoundedUploadProperties properties, S3Connection connection,
                ObjectProvider<S3UploadOptionsCustomizer> customizers) {
            S3Properties s3 = properties.getS3();
            S3UploadOptions.Builder builder = S3Options.builder(s3).location(S3Options.location(s3,
                    connection::presigner));
            customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
            return UploaderSetupException.afterCustomizers("S3 options are invalid", "S3UploadOptionsCustomizer",
                    builder::build);
        }

        /**
         * The signer of direct uploads into the bucket, made after the storage (whose client reads the bucket's
         * lifecycle rules): a warning at start-up names each rule that direct uploads want and the bucket lacks.
         */
        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnProperty(prefix = DirectUploadsConfiguration.PREFIX, name = "enabled")
        @DependsOn(STORAGE_BEAN_NAME)
        UploadSigner boundedUploadSigner(S3Connection connection, BoundedUploadProperties properties) {
            String prefix = properties.getDirect().getStagingPrefix();
            for (String missing : connection.missingLifecycleRules(prefix)) {
                LOG.warn("bounded-upload direct uploads: " + missing + " of s3://" + connection.bucket() + ": add the"
                        + " bucket's lifecycle rules of docs/direct-uploads.md, the backstop for what nothing else"
                        + " removes");
            }
            return connection.uploadSigner();
        }

        /**
         * The application's client, if it has one, made a dependency of the connection, so that Spring closes the
         * uploader, then the storage (which waits for the clean-up of cancelled uploads), and only then the client.
         */
        static <T> @Nullable T applicationClient(ObjectProvider<T> clients, Class<T> type,
                ConfigurableListableBeanFactory beanFactory) {
            T client = clients.getIfAvailable();
            if (client != null) {
                BeanDependencies.register(beanFactory, type, client, CONNECTION_BEAN_NAME);
            }
            return client;
        }

        /** The non-blocking storage: on the application's S3AsyncClient, or on one the adapter builds. */
        @Configuration(proxyBeanMethods = false)
        @Conditional(NonBlockingStorage.class)
        static class NonBlockingConfiguration {

            @Bean(name = CONNECTION_BEAN_NAME, destroyMethod = "close")
            @ConditionalOnMissingBean
            S3Connection boundedUploadS3Connection(BoundedUploadProperties properties,
                    ObjectProvider<S3AsyncClient> client, ObjectProvider<S3Presigner> presigner,
                    ObjectProvider<BoundedUploadS3ClientCustomizer> customizers, ConfigurableListableBeanFactory beanFactory) {
                return S3Connection.nonBlocking(properties, S3Endpoint.of(properties.getS3(), beanFactory),
                        applicationClient(client, S3AsyncClient.class, beanFactory), presigner,
                        SpringCloudAwsCustomizers.withOurs(beanFactory, customizers.orderedStream().toList()));
            }

            /** Closed after the uploader; closes the client only if the adapter built it. */
            @Bean(destroyMethod = "close")
            @ConditionalOnMissingBean
            S3AsyncFileUploader boundedUploadS3Storage(S3Connection connection, S3UploadOptions options) {
                return connection.nonBlockingStorage(options);
            }
        }

        /** The blocking storage: on the application's S3Client, or on one built from the properties. */
        @Configuration(proxyBeanMethods = false)
        @Conditional(BlockingStorage.class)
        static class BlockingConfiguration {

            @Bean(name = CONNECTION_BEAN_NAME, destroyMethod = "close")
            @ConditionalOnMissingBean
            S3Connection boundedUploadS3Connection(BoundedUploadProperties properties, ObjectProvider<S3Client> client,
                    ObjectProvider<S3Presigner> presigner, ObjectProvider<BoundedUploadS3ClientCustomizer> customizers,
                    ConfigurableListableBeanFactory beanFactory) {
                return S3Connection.blocking(properties, S3Endpoint.of(properties.getS3(), beanFactory),
                        applicationClient(client, S3Client.class, beanFactory),
                        presigner, SpringCloudAwsCustomizers.withOurs(beanFactory, customizers.orderedStream().toList()));
            }

            @Bean
            @ConditionalOnMissingBean
            S3FileUploader boundedUploadS3Storage(S3Connection connection, S3UploadOptions options) {
                return connection.blockingStorage(options);
            }
        }
    }

    /** The adapter or the SDK is missing. */
    static final class S3SupportMissing extends NoneNestedConditions {

        S3SupportMissing() {
            super(ConfigurationPhase.PARSE_CONFIGURATION);
        }

        @ConditionalOnClass(name = { SDK_CLIENT, ADAPTER })
        static final class OnClassPath {
        }
    }

    /** The application's S3AsyncClient bean decides; else, without an S3Client bean, {@code non-blocking}. */
    static final class NonBlockingStorage extends AnyNestedCondition {

        NonBlockingStorage() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnBean(type = SDK_ASYNC_CLIENT)
        static final class ApplicationAsyncClient {
        }

        @Conditional(NonBlockingWithoutClient.class)
        static final class WithoutClient {
        }
    }

    /** No client bean, and {@code non-blocking} is not false. */
    static final class NonBlockingWithoutClient extends AllNestedConditions {

        NonBlockingWithoutClient() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnMissingBean(type = SDK_CLIENT)
        static final class NoClient {
        }

        @ConditionalOnProperty(prefix = PREFIX, name = "non-blocking", havingValue = "true", matchIfMissing = true)
        static final class Wanted {
        }
    }

    /** Exactly when the non-blocking storage is not built. */
    static final class BlockingStorage extends NoneNestedConditions {

        BlockingStorage() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @Conditional(NonBlockingStorage.class)
        static final class NonBlocking {
        }
    }
}
