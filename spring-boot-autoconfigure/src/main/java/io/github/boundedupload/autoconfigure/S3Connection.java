package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.s3.S3AsyncFileUploader;
import io.github.boundedupload.s3.S3CallTimeouts;
import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.s3.S3UploadOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.ClassUtils;
import io.github.boundedupload.s3.S3UploadSigner;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.CredentialUtils;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.AwsServiceClientConfiguration;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;
import software.amazon.awssdk.services.s3.S3BaseClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * The S3 client the storage uses, and the presigner of its locations: the application's beans when it has them, or
 * built from {@code bounded-upload.s3.*} and what Spring Cloud AWS provides ({@link S3Endpoint}). What is built here
 * is closed by {@link #close()}, except a non-blocking client, which the adapter builds (sizing its connection pool to the
 * adapter's request permits) and closes itself. Also checks the bucket for the health indicator. Changes when the way
 * the storage's S3 client is found or built changes.
 */
final class S3Connection implements StorageCheck, AutoCloseable {

    private static final Log LOG = LogFactory.getLog(S3Connection.class);

    private final S3Properties properties;
    private final S3Endpoint endpoint;
    private final Duration healthTimeout;
    private final Duration stopTimeout;
    private final String bucket;
    private final ObjectProvider<S3Presigner> presigners;
    private final List<SdkAutoCloseable> owned = new ArrayList<>();
    private final @Nullable AwsServiceClientConfiguration applicationClient;
    private volatile @Nullable S3Client client;
    private volatile @Nullable S3AsyncClient asyncClient;
    private @Nullable S3Presigner presigner;
    private final S3BucketCheck bucketCheck;
    private final List<BoundedUploadS3ClientCustomizer> customizers;

    private S3Connection(BoundedUploadProperties properties, S3Endpoint endpoint, @Nullable S3Client client,
            @Nullable S3AsyncClient asyncClient, ObjectProvider<S3Presigner> presigners,
            List<BoundedUploadS3ClientCustomizer> customizers) {
        this.properties = properties.getS3();
        this.endpoint = endpoint;
        this.customizers = List.copyOf(customizers);
        this.healthTimeout = properties.getHealth().getTimeout();
        this.stopTimeout = properties.getStopTimeout();
        this.bucket = Objects.requireNonNull(this.properties.getBucket(), "bucket");
        this.client = client;
        this.asyncClient = asyncClient;
        this.presigners = presigners;
        this.bucketCheck = new S3BucketCheck(bucket, healthTimeout, properties.getHealth().getCacheTime(),
                () -> this.asyncClient, () -> this.client);
        this.applicationClient = client != null ? client.serviceClientConfiguration()
                : asyncClient != null ? asyncClient.serviceClientConfiguration() : null;
        if (applicationClient != null) {
            List<String> ignored = new ArrayList<>();
            if (this.properties.getEndpoint() != null) {
                ignored.add("bounded-upload.s3.endpoint");
            }
            if (this.properties.getRegion() != null) {
                ignored.add("bounded-upload.s3.region");
            }
            if (this.properties.isPathStyleAccess()) {
                ignored.add("bounded-upload.s3.path-style-access");
            }
            String bean = client != null ? "S3Client" : "S3AsyncClient";
            if (!ignored.isEmpty()) {
                throw new UploaderSetupException(String.join(", ", ignored) + " cannot take effect: the S3 storage uses the application's " + bean + " bean as it is.",
                        "Set " + (ignored.size() == 1 ? "it" : "them") + " on that client instead (with Spring Cloud"
                                + " AWS: spring.cloud.aws.s3.*, spring.cloud.aws.endpoint, spring.cloud.aws.region.static)"
                                + " and remove " + (ignored.size() == 1 ? "it" : "them") + " from bounded-upload.s3.*;"
                                + " or remove the " + bean + " bean to have the client built from bounded-upload.s3.*.");
            }
            if (endpoint.fromConnectionDetails()) {
                LOG.info("AwsConnectionDetails are not applied to the application's " + bean + " bean: the S3 storage"
                        + " uses that client as it is");
            }
        }
    }

    /**
     * For the non-blocking storage.
     *
     * @param properties the properties
     * @param endpoint where a client built here connects
     * @param client the application's client, or {@code null} to have one built
     * @param presigners the application's presigner, if any
     * @param customizers applied to a client built here
     */
    static S3Connection nonBlocking(BoundedUploadProperties properties, S3Endpoint endpoint,
            @Nullable S3AsyncClient client, ObjectProvider<S3Presigner> presigners,
            List<BoundedUploadS3ClientCustomizer> customizers) {
        return new S3Connection(properties, endpoint, null, client, presigners, customizers);
    }

    /**
     * For the blocking storage.
     *
     * @param properties the properties
     * @param endpoint where a client built here connects
     * @param client the application's client, or {@code null} to have one built
     * @param presigners the application's presigner, if any
     * @param customizers applied to a client built here
     */
    static S3Connection blocking(BoundedUploadProperties properties, S3Endpoint endpoint, @Nullable S3Client client,
            ObjectProvider<S3Presigner> presigners, List<BoundedUploadS3ClientCustomizer> customizers) {
        return new S3Connection(properties, endpoint, client, null, presigners, customizers);
    }

    /** The non-blocking storage, on the application's client or on one the adapter builds. */
    synchronized S3AsyncFileUploader nonBlockingStorage(S3UploadOptions options) {
        S3AsyncClient given = asyncClient;
        S3AsyncFileUploader.Builder builder = given != null ? S3AsyncFileUploader.builder(given, bucket)
                : S3AsyncFileUploader.builder(configure(S3AsyncClient.builder()), bucket);
        // Its close() waits this long for the clean-up of cancelled uploads: the last part of the shutdown budget.
        S3AsyncFileUploader storage = built(() -> builder.options(options).closeTimeout(stopTimeout).build());
        asyncClient = storage.client(); // the one it built, sized to its permits: the health check asks it
        log("S3AsyncClient", given == null, options);
        return storage;
    }

    /** The blocking storage, on the application's client or on one built here with a pool of maxConcurrency. */
    synchronized S3FileUploader blockingStorage(S3UploadOptions options) {
        S3Client given = client;
        S3Client used = given;
        if (used == null) {
            S3ClientBuilder builder = configure(S3Client.builder());
            HttpClients.sizePool(builder, options.maxConcurrency());
            @Nullable ScheduledExecutorService timeouts = S3CallTimeouts.giveTo(builder).orElse(null);
            try {
                used = own(built(builder::build));
            } finally {
                if (timeouts != null) {
                    owned.add(timeouts::shutdown); // after the client: owned closes in order
                }
            }
            client = used;
        }
        S3FileUploader storage = S3FileUploader.builder(used, bucket).options(options).build();
        log("S3Client", given == null, options);
        return storage;
    }

    /** The SDK's own message when it cannot build a client, with what to do about it. */
    private static <T> T built(Supplier<T> client) {
        try {
            return client.get();
        } catch (SdkClientException e) {
            throw new UploaderSetupException("The S3 client for bounded-upload cannot be built: " + e.getMessage(),
                    "Set bounded-upload.s3.region (and bounded-upload.s3.endpoint for a service other than AWS), or"
                            + " the AWS SDK's own settings (AWS_REGION, the profile), or define an S3AsyncClient or"
                            + " S3Client bean.", e);
        }
    }

    private void log(String type, boolean built, S3UploadOptions options) {
        LOG.info("bounded-upload stores uploads in s3://" + bucket + " through "
                + (built ? "an " + type + " built here (endpoint "
                        + (endpoint.uri() != null ? endpoint.uri() : "of the region")
                        + ", region " + (endpoint.region() != null ? endpoint.region() : "from the SDK")
                        + ", " + options.maxConcurrency() + " connections; " + endpoint.source() + ")"
                        : "the application's " + type + " bean (" + options.maxConcurrency()
                                + " requests in flight at most)"));
    }

    private <B extends AwsClientBuilder<B, ?>> B regionAndEndpoint(B builder) {
        endpoint.applyTo(builder);
        S3Properties.RetryMode retryMode = properties.getRetryMode();
        if (retryMode != null) {
            RetryMode mode = RetryMode.valueOf(retryMode.name());
            builder.overrideConfiguration(override -> override.retryStrategy(mode));
        }
        return builder;
    }

    private S3ClientBuilder configure(S3ClientBuilder builder) {
        return customized(regionAndEndpoint(builder).forcePathStyle(endpoint.pathStyle()));
    }

    private S3AsyncClientBuilder configure(S3AsyncClientBuilder builder) {
        return customized(regionAndEndpoint(builder).forcePathStyle(endpoint.pathStyle()));
    }

    private <B extends S3BaseClientBuilder<?, ?>> B customized(B builder) {
        customizers.forEach(customizer -> customizer.customize(builder));
        return builder;
    }

    /**
     * The presigner of presigned locations: the application's bean, or one made like the client in use (for the
     * application's blocking client, from that client).
     */
    synchronized S3Presigner presigner() {
        if (presigner == null) {
            S3Presigner given = presigners.getIfAvailable();
            presigner = given != null ? given : own(newPresigner());
        }
        return presigner;
    }

    /**
     * A signer of direct uploads into the bucket: URLs from {@link #presigner()}; forms signed with the credentials and
     * region of the client in use (or of the properties, else the SDK's default chains), where a region is known;
     * multipart uploads (files sent in parts) started, completed and aborted with the client in use.
     */
    synchronized S3UploadSigner uploadSigner() {
        S3UploadSigner.Builder builder = S3UploadSigner.builder(presigner(), bucket);
        AwsServiceClientConfiguration given = applicationClient;
        AwsCredentialsProvider credentials = given != null ? CredentialUtils.toCredentialsProvider(
                given.credentialsProvider()) : endpoint.credentials();
        if (credentials == null) {
            credentials = own(DefaultCredentialsProvider.builder().build());
        }
        Region region = given != null ? given.region() : endpoint.region() != null ? Region.of(endpoint.region()) : null;
        if (region == null) {
            try {
                region = new DefaultAwsRegionProviderChain().getRegion();
            } catch (SdkClientException e) {
                LOG.info("bounded-upload signs no form (POST) uploads: no region is known (" + e.getMessage() + ")");
            }
        }
        if (region != null) {
            builder.forms(credentials, region);
        }
        S3Client blocking = client;
        S3AsyncClient nonBlocking = asyncClient;
        if (blocking != null) {
            builder.client(blocking);
        } else if (nonBlocking != null) {
            builder.client(nonBlocking);
        }
        return builder.build();
    }

    /**
     * What the bucket's lifecycle rules lack for direct uploads ({@link S3LifecycleRules}), read through the client in
     * use.
     *
     * @param stagingPrefix the staging prefix of the direct uploads
     * @return one line per rule missing, or one line saying why the rules could not be read
     */
    List<String> missingLifecycleRules(String stagingPrefix) {
        return S3LifecycleRules.missing(bucket, stagingPrefix, healthTimeout, asyncClient, client);
    }

    private S3Presigner newPresigner() {
        S3Presigner.Builder builder = S3Presigner.builder()
                .serviceConfiguration(S3Configuration.builder()
                        .pathStyleAccessEnabled(endpoint.pathStyle()).build());
        S3Client given = client;
        if (given != null && applicationClient != null) {
            return builder.s3Client(given).build();
        }
        if (applicationClient != null) {
            builder.region(applicationClient.region()).credentialsProvider(applicationClient.credentialsProvider());
            applicationClient.endpointOverride().ifPresent(builder::endpointOverride);
            return builder.build();
        }
        if (endpoint.region() != null) {
            builder.region(Region.of(endpoint.region()));
        }
        if (endpoint.uri() != null) {
            builder.endpointOverride(endpoint.uri());
        }
        if (endpoint.credentials() != null) {
            builder.credentialsProvider(endpoint.credentials());
        }
        return builder.build();
    }

    private <T extends SdkAutoCloseable> T own(T resource) {
        owned.add(resource);
        return resource;
    }

    /** The bucket the storage uses. */
    String bucket() {
        return bucket;
    }

    /** The client in use: the non-blocking one when there is one. */
    @Nullable Object client() {
        S3AsyncClient async = asyncClient;
        return async != null ? async : client;
    }

    /** Whether the client in use was built here (or by the adapter), rather than given by the application. */
    boolean clientBuilt() {
        return applicationClient == null;
    }

    @Override
    public StorageInUse storage() {
        Object inUse = client();
        String type = inUse instanceof S3AsyncClient ? "S3AsyncClient" : "S3Client";
        return new StorageInUse("s3", "s3://" + bucket, clientBuilt() ? "an " + type + " built by bounded-upload"
                : "the application's " + type + " bean");
    }

    /** HeadBucket through the client in use (see {@link S3BucketCheck}). */
    @Override
    public boolean check(Map<String, Object> details) {
        return bucketCheck.check(details);
    }

    /** Closes the blocking client and the presigner if they were built here. */
    @Override
    public synchronized void close() {
        RuntimeException first = null;
        for (SdkAutoCloseable resource : owned) {
            try {
                resource.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        owned.clear();
        if (first != null) {
            throw first;
        }
    }

    /**
     * Sizes the connection pool of the blocking client built here with whichever Apache client the SDK would use;
     * each is referenced only when present.
     */
    static final class HttpClients {

        private static final String APACHE5 = "software.amazon.awssdk.http.apache5.Apache5HttpClient";
        private static final String APACHE = "software.amazon.awssdk.http.apache.ApacheHttpClient";

        private HttpClients() {
        }

        static void sizePool(S3ClientBuilder builder, int connections) {
            ClassLoader loader = S3Connection.class.getClassLoader();
            if (ClassUtils.isPresent(APACHE5, loader)) {
                builder.httpClientBuilder(Apache5.builder(connections));
            } else if (ClassUtils.isPresent(APACHE, loader)) {
                builder.httpClientBuilder(Apache.builder(connections));
            } else {
                LOG.info("bounded-upload.s3.max-concurrency cannot size the pool of the S3 client's HTTP client (no "
                        + "Apache HTTP client on the class path): give it at least " + connections + " connections");
            }
        }

        private static final class Apache5 {
            static Apache5HttpClient.Builder builder(int connections) {
                return Apache5HttpClient.builder().maxConnections(connections);
            }
        }

        /** The default of SDKs before Apache 5 (an application may bring an older SDK), deprecated since. */
        @SuppressWarnings("deprecation")
        private static final class Apache {
            static ApacheHttpClient.Builder builder(int connections) {
                return ApacheHttpClient.builder().maxConnections(connections);
            }
        }
    }
}
