package io.github.boundedupload.starter;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.s3.S3AsyncFileUploader;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import io.github.boundedupload.testsupport.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.AwsRegionProvider;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An application with the starter and Spring Cloud AWS whole: its auto-configurations on, configured only through
 * {@code spring.cloud.aws.*} (credentials, region, endpoint, path-style access), against a real S3 server. The test JVM
 * has no AWS region or endpoint of its own, so what reaches S3 had them from Spring Cloud AWS, and the client's
 * credentials provider is Spring Cloud AWS's bean.
 *
 * <ul>
 *   <li>With the CRT HTTP client on the class path, Spring Cloud AWS makes a CRT-based {@code S3AsyncClient} (and an
 *       {@code S3Client}): the starter's storage is the non-blocking one, on that very client.</li>
 *   <li>With Spring Cloud AWS's S3 clients switched off ({@code spring.cloud.aws.s3.enabled=false}), the starter
 *       builds its own, with Spring Cloud AWS's credentials provider, region provider and endpoint.</li>
 * </ul>
 */
class SpringCloudAwsApplicationIT {

    private static final S3TestServices services = S3TestServices.get();
    private static TestBucket bucket;

    @TempDir
    Path dir;

    @BeforeAll
    static void bucket() {
        bucket = services.createBucket("spring-cloud-aws");
    }

    @AfterAll
    static void deleteBucket() {
        bucket.close();
    }

    private ConfigurableApplicationContext start(String... more) {
        List<String> properties = new ArrayList<>(List.of("spring.main.banner-mode=off",
                "spring.cloud.aws.credentials.access-key=" + S3TestServices.ACCESS_KEY,
                "spring.cloud.aws.credentials.secret-key=" + S3TestServices.SECRET_KEY,
                "spring.cloud.aws.region.static=" + services.region().id(),
                "spring.cloud.aws.endpoint=" + services.s3Endpoint(),
                "spring.cloud.aws.s3.path-style-access-enabled=true",
                "bounded-upload.name=spring-cloud-aws", "bounded-upload.s3.bucket=" + bucket.name()));
        properties.addAll(List.of(more));
        return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties(properties.toArray(String[]::new)).run();
    }

    @Test
    void theStorageUsesSpringCloudAwssCrtBasedS3AsyncClient() throws Exception {
        try (ConfigurableApplicationContext context = start()) {
            S3AsyncClient springCloudAws = context.getBean(S3AsyncClient.class);
            assertThat(springCloudAws.getClass().getName()).as("Spring Cloud AWS's CRT-based client").contains("Crt");
            assertThat(context.getBeansOfType(S3Client.class)).as("Spring Cloud AWS's blocking client").hasSize(1);
            S3AsyncFileUploader storage = context.getBean(S3AsyncFileUploader.class);
            assertThat(storage.client()).isSameAs(springCloudAws);

            assertStores(context.getBean(ConcurrentAttachmentUploader.class), "crt");
        }
    }

    @Test
    void withoutSpringCloudAwssS3ClientsTheStarterBuildsOneWithItsCredentialsRegionAndEndpoint() throws Exception {
        try (ConfigurableApplicationContext context = start("spring.cloud.aws.s3.enabled=false")) {
            assertThat(context.getBeansOfType(S3AsyncClient.class)).isEmpty();
            assertThat(context.getBeansOfType(S3Client.class)).isEmpty();
            assertThat(context.getBean(AwsRegionProvider.class).getRegion()).isEqualTo(services.region());
            S3AsyncClient built = context.getBean(S3AsyncFileUploader.class).client();
            assertThat(built.serviceClientConfiguration().region()).isEqualTo(Region.of(services.region().id()));
            assertThat(built.serviceClientConfiguration().endpointOverride()).contains(services.s3Endpoint());
            assertThat(built.serviceClientConfiguration().credentialsProvider())
                    .isSameAs(context.getBean(AwsCredentialsProvider.class));

            assertStores(context.getBean(ConcurrentAttachmentUploader.class), "built");
        }
    }

    /** A batch of a file (which the CRT client reads itself) and bytes: both in the bucket, byte for byte. */
    private void assertStores(ConcurrentAttachmentUploader uploader, String prefix) throws Exception {
        byte[] file = TestData.bytes(1, 256 * 1024);
        byte[] bytes = TestData.bytes(2, 1024);
        Path path = Files.write(dir.resolve("scan.pdf"), file);
        BatchResult result = uploader.uploadAll(List.of(
                Attachment.builder("scan.pdf", AttachmentContent.ofPath(path)).key(prefix + "/scan.pdf").build(),
                Attachment.builder("notes.txt", AttachmentContent.ofBytes(bytes)).key(prefix + "/notes.txt")
                        .build()));
        assertThat(result.allStored()).isTrue();
        assertThat(result.storedObjects()).extracting(StoredObject::key)
                .containsExactly(prefix + "/scan.pdf", prefix + "/notes.txt");
        assertThat(bucket.read(prefix + "/scan.pdf")).hasValueSatisfying(stored -> assertThat(stored).isEqualTo(file));
        assertThat(bucket.read(prefix + "/notes.txt")).hasValueSatisfying(stored -> assertThat(stored)
                .isEqualTo(bytes));
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }
}
