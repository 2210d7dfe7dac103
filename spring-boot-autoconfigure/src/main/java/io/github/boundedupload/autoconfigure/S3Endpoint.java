package io.github.boundedupload.autoconfigure;

import io.awspring.cloud.autoconfigure.core.AwsConnectionDetails;
import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.util.ClassUtils;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.regions.Region;

/**
 * Where, and as whom, an S3 client built here connects. Spring Cloud AWS's {@code AwsConnectionDetails} bean wins
 * when the application has one (a service connection, such as Testcontainers' LocalStack with
 * {@code @ServiceConnection}), as Spring Boot's own connection details win over its properties; what it leaves out
 * comes from {@code bounded-upload.s3.endpoint} and {@code region}, and the credentials from the AWS SDK's default
 * chain.
 *
 * @param uri the endpoint, or {@code null} for the region's
 * @param region the region, or {@code null} for the SDK's
 * @param credentials the credentials, or {@code null} for the SDK's default chain
 * @param source where the settings come from, for the log line
 */
record S3Endpoint(@Nullable URI uri, @Nullable String region, @Nullable AwsCredentialsProvider credentials,
        String source) {

    private static final String DETAILS = "io.awspring.cloud.autoconfigure.core.AwsConnectionDetails";

    /** The application's connection details when it has them, over the properties. */
    static S3Endpoint of(S3Properties properties, BeanFactory beanFactory) {
        S3Endpoint fromProperties = new S3Endpoint(properties.getEndpoint(), properties.getRegion(), null,
                "bounded-upload.s3.*");
        return ClassUtils.isPresent(DETAILS, S3Endpoint.class.getClassLoader())
                ? SpringCloudAws.over(fromProperties, beanFactory)
                : fromProperties;
    }

    /** Whether the properties' endpoint or region are set aside by connection details. */
    boolean fromConnectionDetails() {
        return !source.startsWith("bounded-upload");
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

    /** References Spring Cloud AWS only when it is on the class path. */
    private static final class SpringCloudAws {

        static S3Endpoint over(S3Endpoint properties, BeanFactory beanFactory) {
            AwsConnectionDetails details = beanFactory.getBeanProvider(AwsConnectionDetails.class).getIfUnique();
            if (details == null) {
                return properties;
            }
            String accessKey = details.getAccessKey();
            String secretKey = details.getSecretKey();
            return new S3Endpoint(details.getEndpoint() != null ? details.getEndpoint() : properties.uri(),
                    details.getRegion() != null ? details.getRegion() : properties.region(),
                    accessKey != null && secretKey != null
                            ? StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey))
                            : null,
                    "the application's AwsConnectionDetails");
        }
    }
}
