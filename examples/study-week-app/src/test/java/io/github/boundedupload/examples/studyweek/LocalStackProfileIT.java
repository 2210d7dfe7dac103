package io.github.boundedupload.examples.studyweek;

import static org.assertj.core.api.Assertions.assertThat;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import io.github.boundedupload.testsupport.TestProxy;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Profile {@code localstack} against a real S3 (LocalStack, found or started by test-support: environment, Docker, or
 * {@code scripts/test-services.sh start}), through a Toxiproxy proxy that can break uploads. A bucket of its own.
 * The AWS SDK finds its credentials in the {@code aws.accessKeyId} and {@code aws.secretAccessKey} system properties
 * the build sets, as an application finds them in its environment.
 */
@ActiveProfiles("localstack")
class LocalStackProfileIT extends FailurePathsContract {

    private static final S3TestServices SERVICES = S3TestServices.get();
    private static final TestBucket BUCKET = SERVICES.createBucket("study-week-app");
    private static final TestProxy PROXY = SERVICES.createProxy("study-week-app");

    @DynamicPropertySource
    static void s3(DynamicPropertyRegistry registry) {
        registry.add("bounded-upload.s3.bucket", BUCKET::name);
        registry.add("bounded-upload.s3.endpoint", () -> PROXY.endpoint().toString());
        registry.add("bounded-upload.s3.region", () -> SERVICES.region().id());
        registry.add("study-week.s3.create-bucket", () -> "false");
    }

    @AfterEach
    void healTheProxy() {
        PROXY.heal();
    }

    @AfterAll
    static void deleteTheBucket() {
        PROXY.close();
        BUCKET.close();
    }

    @Override
    List<String> storedKeys() {
        return BUCKET.keys("studies/" + studyId + "/");
    }

    /** Connections are cut after 16 KB: the small files go through, the big one never does, however often retried. */
    @Override
    void failTheUploadOf(String fileName) throws Exception {
        assertThat(BIG.length).isGreaterThan(16 * 1024);
        PROXY.toxiproxy().toxics().limitData("cut-big-uploads", ToxicDirection.UPSTREAM, 16 * 1024);
    }

    @Test
    void theFilesAreInTheBucket() {
        Api.Response created = api.post(weeksPath(), Multipart.week("Week 3").file("a.txt", "in S3"));

        assertThat(created.status()).isEqualTo(201);
        String key = keysInTheDatabase().get(0);
        assertThat(BUCKET.read(key)).hasValueSatisfying(bytes -> assertThat(new String(bytes)).isEqualTo("in S3"));
        assertThat(keysOnDisk()).isEmpty();
    }

    @Test
    void theHealthShowsTheUploader() {
        assertThat(api.get("/actuator/health").json("$.components.boundedUpload.status", String.class))
                .isEqualTo("UP");
    }
}
