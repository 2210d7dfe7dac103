package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.context.ApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.ClassUtils;

/**
 * What the tests share. Compiled against Spring Boot 4 and run on Spring Boot 3 too, so it names version-specific
 * Spring Boot types only as strings.
 */
final class TestSupport {

    static final boolean BOOT_4 = ClassUtils.isPresent("org.springframework.boot.health.contributor.HealthIndicator",
            TestSupport.class.getClassLoader());

    /** The packages of the Actuator health API, Boot 4's and Boot 3's. */
    static final String[] HEALTH_PACKAGES = { "org.springframework.boot.health",
            "org.springframework.boot.actuate.health" };

    /**
     * Excludes Spring Cloud AWS's auto-configurations from a whole application under test. Its auto-configuration jar
     * is on this test class path only for its AwsConnectionDetails type, without the rest of Spring Cloud AWS, and
     * its auto-configurations would otherwise start there half-equipped (or give the application an S3 client of
     * theirs instead of the one the properties build).
     */
    static final String WITHOUT_SPRING_CLOUD_AWS = "spring.autoconfigure.exclude="
            + "io.awspring.cloud.autoconfigure.core.AwsAutoConfiguration,"
            + "io.awspring.cloud.autoconfigure.core.CredentialsProviderAutoConfiguration,"
            + "io.awspring.cloud.autoconfigure.core.RegionProviderAutoConfiguration,"
            + "io.awspring.cloud.autoconfigure.imds.ImdsAutoConfiguration,"
            + "io.awspring.cloud.autoconfigure.s3.S3AutoConfiguration,"
            + "io.awspring.cloud.autoconfigure.s3.S3TransferManagerAutoConfiguration,"
            + "io.awspring.cloud.autoconfigure.s3.S3CrtAsyncClientAutoConfiguration";

    private TestSupport() {
    }

    /** The region every S3 test uses. */
    static final String REGION = "us-east-1";

    /** Our auto-configurations, storing under a test's own directory. */
    static ApplicationContextRunner runner(Path root) {
        return new ApplicationContextRunner().withConfiguration(boundedUpload())
                .withPropertyValues("bounded-upload.local.root=" + root);
    }

    /**
     * Our auto-configurations, storing in an S3 bucket at an endpoint, with the client built from the properties
     * (credentials from the test JVM's aws.accessKeyId and aws.secretAccessKey, which the build sets).
     */
    static ApplicationContextRunner s3Runner(String bucket, String endpoint) {
        return bucketRunner(bucket).withPropertyValues("bounded-upload.s3.endpoint=" + endpoint, "bounded-upload.s3.region=" + REGION,
                "bounded-upload.s3.path-style-access=true");
    }

    /**
     * Our auto-configurations, storing in an S3 bucket, and nothing else set: for an application's own client, which
     * the endpoint, region and path-style access properties cannot change.
     */
    static ApplicationContextRunner bucketRunner(String bucket) {
        return new ApplicationContextRunner().withConfiguration(boundedUpload())
                .withPropertyValues("bounded-upload.s3.bucket=" + bucket);
    }

    static AutoConfigurations boundedUpload() {
        return AutoConfigurations.of(BoundedUploadAutoConfiguration.class, BoundedUploadMetricsAutoConfiguration.class,
                BoundedUploadHealthAutoConfiguration.class);
    }

    /** Spring Boot's own metrics auto-configuration, which provides a MeterRegistry. */
    static AutoConfigurations springBootMetrics() {
        return springBoot(METRICS);
    }

    /**
     * Spring Boot's metrics and observation auto-configurations: an ObservationRegistry whose meter handler makes each
     * observation's timer, and Boot's switches ({@code management.metrics.enable.*},
     * {@code management.observations.enable.*}).
     */
    static AutoConfigurations springBootObservations() {
        return springBoot(Stream.concat(METRICS.stream(), Stream.of(BOOT_4
                ? "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"
                : "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration"))
                .toList());
    }

    /** The metrics auto-configurations of whichever Spring Boot runs the tests (they moved in Spring Boot 4). */
    private static final List<String> METRICS = Stream.of("MetricsAutoConfiguration",
            "CompositeMeterRegistryAutoConfiguration", "export.simple.SimpleMetricsExportAutoConfiguration")
            .map(name -> (BOOT_4 ? "org.springframework.boot.micrometer.metrics.autoconfigure."
                    : "org.springframework.boot.actuate.autoconfigure.metrics.") + name)
            .toList();

    private static AutoConfigurations springBoot(List<String> names) {
        return AutoConfigurations.of(names.stream()
                .map(name -> ClassUtils.resolveClassName(name, TestSupport.class.getClassLoader()))
                .toArray(Class<?>[]::new));
    }

    /** Spring Boot's health auto-configuration, which collects indicators into the registry the endpoint reads. */
    static AutoConfigurations springBootHealth() {
        String boot4 = "org.springframework.boot.health.autoconfigure.";
        String boot3 = "org.springframework.boot.actuate.autoconfigure.";
        return AutoConfigurations.of(Stream.of(BOOT_4
                ? new String[] { boot4 + "contributor.HealthContributorAutoConfiguration",
                        boot4 + "registry.HealthContributorRegistryAutoConfiguration" }
                : new String[] { boot3 + "health.HealthContributorAutoConfiguration",
                        boot3 + "endpoint.EndpointAutoConfiguration",
                        boot3 + "health.HealthEndpointAutoConfiguration" })
                .map(name -> ClassUtils.resolveClassName(name, TestSupport.class.getClassLoader()))
                .toArray(Class<?>[]::new));
    }

    /** The contributor Spring Boot's health registry holds under a name (what /actuator/health shows). */
    static @Nullable Object registeredContributor(ApplicationContext context, String name) {
        Class<?> registryType = ClassUtils.resolveClassName(BOOT_4
                ? "org.springframework.boot.health.registry.HealthContributorRegistry"
                : "org.springframework.boot.actuate.health.HealthContributorRegistry", null);
        Object registry = context.getBean(registryType);
        try {
            return registryType.getMethod("getContributor", String.class).invoke(registry, name);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** A child of a composite health contributor of either Spring Boot version. */
    static Object child(Object composite, String name) {
        try {
            Class<?> type = ClassUtils.resolveClassName(BOOT_4
                    ? "org.springframework.boot.health.contributor.HealthContributors"
                    : "org.springframework.boot.actuate.health.NamedContributors", null);
            Object child = type.getMethod("getContributor", String.class).invoke(composite, name);
            if (child == null) {
                throw new AssertionError("no health contributor named " + name);
            }
            return child;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    static String healthIndicatorType() {
        return BOOT_4 ? "org.springframework.boot.health.contributor.HealthIndicator"
                : "org.springframework.boot.actuate.health.HealthIndicator";
    }

    /** What a health indicator of either Spring Boot version reports. */
    record HealthView(String status, Map<String, Object> details) {
    }

    @SuppressWarnings("unchecked")
    static HealthView health(Object indicator) {
        try {
            Object health = indicator.getClass().getMethod("health").invoke(indicator);
            Object status = health.getClass().getMethod("getStatus").invoke(health);
            String code = (String) status.getClass().getMethod("getCode").invoke(status);
            return new HealthView(code, (Map<String, Object>) health.getClass().getMethod("getDetails").invoke(health));
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    static boolean isVirtual(Thread thread) {
        try {
            return (Boolean) Thread.class.getMethod("isVirtual").invoke(thread);
        } catch (NoSuchMethodException e) {
            return false;
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new AssertionError(e);
        }
    }

    static BatchResult uploadOne(ConcurrentAttachmentUploader uploader) {
        return uploader.uploadAll(List.of(Attachment.of("hello.txt", "hello".getBytes(StandardCharsets.UTF_8))));
    }

    /** Every message of a failure and its causes, for assertions on what a user would read. */
    static String messages(@Nullable Throwable failure) {
        return Stream.iterate(failure, t -> t != null, Throwable::getCause).map(String::valueOf)
                .collect(Collectors.joining("\n"));
    }

    /** A local storage that records which thread ran each upload and the MDC it saw. */
    static class RecordingStorage implements FileUploader {
        final LocalFileUploader delegate;
        final List<Thread> threads = new CopyOnWriteArrayList<>();
        final List<String> requestIds = new CopyOnWriteArrayList<>();

        RecordingStorage(Path root) {
            try {
                this.delegate = new LocalFileUploader(root);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public StoredObject upload(UploadRequest request) throws IOException {
            threads.add(Thread.currentThread());
            String requestId = MDC.get("requestId");
            requestIds.add(requestId == null ? "<none>" : requestId);
            return delegate.upload(request);
        }

        @Override
        public void delete(String key) throws IOException {
            delegate.delete(key);
        }
    }
}
