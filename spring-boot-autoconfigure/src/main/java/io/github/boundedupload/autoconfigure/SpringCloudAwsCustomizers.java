package io.github.boundedupload.autoconfigure;

import io.awspring.cloud.autoconfigure.AwsAsyncClientCustomizer;
import io.awspring.cloud.autoconfigure.AwsSyncClientCustomizer;
import io.awspring.cloud.autoconfigure.s3.S3ClientCustomizer;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import software.amazon.awssdk.awscore.client.builder.AwsAsyncClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * What Spring Cloud AWS's S3 auto-configuration would apply to the S3 client it builds, applied to the one the starter
 * builds when Spring Cloud AWS makes none (its S3 module absent, or {@code spring.cloud.aws.s3.enabled=false}): its
 * customizer beans ({@code S3ClientCustomizer} and {@code AwsSyncClientCustomizer} to a blocking client,
 * {@code AwsAsyncClientCustomizer} to a non-blocking one) and its {@code spring.cloud.aws.s3.*} settings of the S3
 * service ({@code accelerate-enabled}, {@code checksum-validation-enabled}, {@code chunked-encoding-enabled},
 * {@code use-arn-region-enabled}, {@code cross-region-enabled}). The endpoint, region and path-style access are
 * {@link S3Endpoint}'s. They come before the application's {@link BoundedUploadS3ClientCustomizer} beans, which so
 * have the last word. References Spring Cloud AWS only when it is on the class path. Changes when what the starter
 * takes from Spring Cloud AWS for the client it builds changes.
 */
final class SpringCloudAwsCustomizers {

    private static final String CUSTOMIZER = "io.awspring.cloud.autoconfigure.AwsSyncClientCustomizer";
    private static final String S3_CUSTOMIZER = "io.awspring.cloud.autoconfigure.s3.S3ClientCustomizer";

    private SpringCloudAwsCustomizers() {
    }

    /** Spring Cloud AWS's, if it is on the class path, then the application's own. */
    static List<BoundedUploadS3ClientCustomizer> withOurs(BeanFactory beanFactory,
            List<BoundedUploadS3ClientCustomizer> ours) {
        ClassLoader loader = SpringCloudAwsCustomizers.class.getClassLoader();
        if (!ClassUtils.isPresent(CUSTOMIZER, loader)) {
            return ours;
        }
        List<BoundedUploadS3ClientCustomizer> all = new ArrayList<>();
        all.add(serviceSettings(Binder.get(beanFactory.getBean(Environment.class))));
        beanFactory.getBeanProvider(AwsSyncClientCustomizer.class).orderedStream().forEach(customizer -> all.add(
                builder -> {
                    if (builder instanceof AwsSyncClientBuilder<?, ?> sync) {
                        customizer.customize(sync);
                    }
                }));
        beanFactory.getBeanProvider(AwsAsyncClientCustomizer.class).orderedStream().forEach(customizer -> all.add(
                builder -> {
                    if (builder instanceof AwsAsyncClientBuilder<?, ?> async) {
                        customizer.customize(async);
                    }
                }));
        if (ClassUtils.isPresent(S3_CUSTOMIZER, loader)) {
            beanFactory.getBeanProvider(S3ClientCustomizer.class).orderedStream().forEach(customizer -> all.add(
                    builder -> {
                        if (builder instanceof S3ClientBuilder s3) {
                            customizer.customize(s3);
                        }
                    }));
        }
        all.addAll(ours);
        return all;
    }

    /**
     * The {@code spring.cloud.aws.s3.*} settings of the S3 service that are set; {@code checksum-validation-enabled} is
     * the SDK's deprecated switch, which Spring Cloud AWS sets too.
     */
    @SuppressWarnings("deprecation")
    private static BoundedUploadS3ClientCustomizer serviceSettings(Binder binder) {
        String prefix = "spring.cloud.aws.s3.";
        Boolean accelerate = binder.bind(prefix + "accelerate-enabled", Boolean.class).orElse(null);
        Boolean checksums = binder.bind(prefix + "checksum-validation-enabled", Boolean.class).orElse(null);
        Boolean chunked = binder.bind(prefix + "chunked-encoding-enabled", Boolean.class).orElse(null);
        Boolean arnRegion = binder.bind(prefix + "use-arn-region-enabled", Boolean.class).orElse(null);
        Boolean crossRegion = binder.bind(prefix + "cross-region-enabled", Boolean.class).orElse(null);
        return builder -> {
            if (accelerate != null) {
                builder.accelerate(accelerate);
            }
            if (arnRegion != null) {
                builder.useArnRegion(arnRegion);
            }
            if (crossRegion != null) {
                builder.crossRegionAccessEnabled(crossRegion);
            }
            if (checksums != null || chunked != null) {
                S3Configuration.Builder service = S3Configuration.builder();
                if (checksums != null) {
                    service.checksumValidationEnabled(checksums);
                }
                if (chunked != null) {
                    service.chunkedEncodingEnabled(chunked);
                }
                builder.serviceConfiguration(service.build());
            }
        };
    }
}
