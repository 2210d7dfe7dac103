package io.github.boundedupload.autoconfigure;

import io.awspring.cloud.autoconfigure.core.AwsConnectionDetails;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.AwsRegionProvider;

/**
 * Where, and as whom, an S3 client built here connects. Changes when a source of these settings, or their order,
 * changes. Each setting comes from the first source that has it:
 *
 * <ul>
 *   <li>endpoint: Spring Cloud AWS's {@code AwsConnectionDetails} bean (a service connection, such as Testcontainers'
 *       LocalStack with {@code @ServiceConnection}), {@code bounded-upload.s3.endpoint},
 *       {@code spring.cloud.aws.s3.endpoint}, {@code spring.cloud.aws.endpoint}; else the region's;</li>
 *   <li>region: the connection details, {@code bounded-upload.s3.region}, {@code spring.cloud.aws.s3.region}, the
 *       application's {@code AwsRegionProvider} bean (Spring Cloud AWS makes one from {@code spring.cloud.aws.region.*});
 *       else the SDK's region chain;</li>
 *   <li>credentials: the connection details' keys, the application's {@code AwsCredentialsProvider} bean (Spring Cloud
 *       AWS makes one from {@code spring.cloud.aws.credentials.*}); else the SDK's default chain;</li>
 *   <li>path-style access: {@code bounded-upload.s3.path-style-access} or
 *       {@code spring.cloud.aws.s3.path-style-access-enabled}.</li>
 * </ul>
 *
 * As Spring Boot's own connection details win over its properties, and as Spring Cloud AWS configures its own clients.
 * The {@code spring.cloud.aws.*} properties count only with Spring Cloud AWS on the class path.
 *
 * @param uri the endpoint, or {@code null} for the region's
 * @param region the region, or {@code null} for the SDK's
 * @param credentials the credentials, or {@code null} for the SDK's default chain
 * @param pathStyle whether to address buckets in the path
 * @param source where the settings come from, for the log line
 * @param fromConnectionDetails whether connection details set the endpoint or the region
 */
record S3Endpoint(@Nullable URI uri, @Nullable String region, @Nullable AwsCredentialsProvider credentials,
        boolean pathStyle, String source, boolean fromConnectionDetails) {

    private static final String DETAILS = "io.awspring.cloud.autoconfigure.core.AwsConnectionDetails";

    /** Every source, in the order above. */
    static S3Endpoint of(S3Properties properties, BeanFactory beanFactory) {
        Environment environment = beanFactory.getBean(Environment.class);
        boolean springCloudAws = ClassUtils.isPresent(DETAILS, S3Endpoint.class.getClassLoader());
        Binder binder = Binder.get(environment);
        Sources sources = new Sources();

        URI uri = null;
        String region = null;
        AwsCredentialsProvider credentials = null;
        boolean fromDetails = false;
        if (springCloudAws) {
            SpringCloudAws.Details details = SpringCloudAws.details(beanFactory);
            if (details != null) {
                uri = sources.take(details.endpoint(), "endpoint", "the application's AwsConnectionDetails");
                region = sources.take(details.region(), "region", "the application's AwsConnectionDetails");
                credentials = sources.take(details.credentials(), "credentials",
                        "the application's AwsConnectionDetails");
                fromDetails = uri != null || region != null;
            }
        }
        if (uri == null) {
            uri = sources.take(properties.getEndpoint(), "endpoint", "bounded-upload.s3.endpoint");
        }
        if (region == null) {
            region = sources.take(properties.getRegion(), "region", "bounded-upload.s3.region");
        }
        boolean pathStyle = properties.isPathStyleAccess();
        if (springCloudAws) {
            if (uri == null) {
                uri = sources.take(binder.bind("spring.cloud.aws.s3.endpoint", URI.class).orElse(null), "endpoint",
                        "spring.cloud.aws.s3.endpoint");
            }
            if (uri == null) {
                uri = sources.take(binder.bind("spring.cloud.aws.endpoint", URI.class).orElse(null), "endpoint",
                        "spring.cloud.aws.endpoint");
            }
            if (region == null) {
                region = sources.take(binder.bind("spring.cloud.aws.s3.region", String.class).orElse(null), "region",
                        "spring.cloud.aws.s3.region");
            }
            if (!pathStyle && binder.bind("spring.cloud.aws.s3.path-style-access-enabled", Boolean.class)
                    .orElse(false)) {
                pathStyle = true;
                sources.add("path-style access", "spring.cloud.aws.s3.path-style-access-enabled");
            }
        }
        if (region == null) {
            region = sources.take(region(beanFactory.getBeanProvider(AwsRegionProvider.class).getIfUnique()),
                    "region", "the application's AwsRegionProvider bean");
        }
        if (credentials == null) {
            credentials = sources.take(beanFactory.getBeanProvider(AwsCredentialsProvider.class).getIfUnique(),
                    "credentials", "the application's AwsCredentialsProvider bean");
        }
        return new S3Endpoint(uri, region, credentials, pathStyle, sources.describe(), fromDetails);
    }

    /** The provider's region, or {@code null} when it has none (the SDK then says so when the client is built). */
    private static @Nullable String region(@Nullable AwsRegionProvider provider) {
        if (provider == null) {
            return null;
        }
        try {
            return provider.getRegion().id();
        } catch (SdkClientException e) {
            return null;
        }
    }

    /** Applies the endpoint, region and credentials that are set; the SDK's defaults stay for the rest. */
    <B extends AwsClientBuilder<B, ?>> B applyTo(B builder) {
        if (region != null) {
            builder.region(Region.of(region));
        }
        if (uri != null) {
            builder.endpointOverride(uri);
        }
        if (credentials != null) {
            builder.credentialsProvider(credentials);
        }
        return builder;
    }

    /** What came from where, for the log line. */
    private static final class Sources {
        private final List<String> taken = new ArrayList<>();

        <T> @Nullable T take(@Nullable T value, String what, String source) {
            if (value != null) {
                add(what, source);
            }
            return value;
        }

        void add(String what, String source) {
            taken.add(what + " from " + source);
        }

        String describe() {
            return taken.isEmpty() ? "the AWS SDK's defaults" : String.join(", ", taken);
        }
    }

    /** References Spring Cloud AWS only when it is on the class path. */
    private static final class SpringCloudAws {

        record Details(@Nullable URI endpoint, @Nullable String region, @Nullable AwsCredentialsProvider credentials) {
        }

        static @Nullable Details details(BeanFactory beanFactory) {
            AwsConnectionDetails details = beanFactory.getBeanProvider(AwsConnectionDetails.class).getIfUnique();
            if (details == null) {
                return null;
            }
            String accessKey = details.getAccessKey();
            String secretKey = details.getSecretKey();
            return new Details(details.getEndpoint(), details.getRegion(), accessKey != null && secretKey != null
                    ? StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)) : null);
        }
    }
}
