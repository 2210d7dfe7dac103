package io.github.boundedupload.examples.plainjava;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The example against a real S3 (LocalStack, found or started by test-support), as it is run from the command line.
 * Credentials reach the AWS SDK's default chain as the {@code aws.accessKeyId} and {@code aws.secretAccessKey} system
 * properties the build sets.
 */
class UploadDirectoryIT {

    private static final S3TestServices SERVICES = S3TestServices.get();
    private static TestBucket bucket;

    @BeforeAll
    static void createBucket() {
        bucket = SERVICES.createBucket("plain-java");
    }

    @AfterAll
    static void deleteBucket() {
        bucket.close();
    }

    @Test
    void uploadsEveryFileToTheBucket() throws Exception {
        Run run = run("sample-files", "--bucket", bucket.name(), "--region", "us-east-1",
                "--s3-endpoint", SERVICES.s3Endpoint().toString());

        assertThat(run.status).as(run.out).isZero();
        assertThat(run.out).contains("Uploading 4 files (0.4 KiB) from sample-files to S3AsyncFileUploader[s3://"
                        + bucket.name() + "]")
                .contains("\r[4/4] 0.4 KiB of 0.4 KiB, 0 in flight, 0 failed")
                .containsPattern("Done: 4 of 4 files stored, 0\\.4 KiB in \\d+ ms, 0 failed");
        assertThat(bucket.keys()).containsExactlyInAnyOrder("sample-files/AWS.png", "sample-files/Algorithm.png",
                "sample-files/progress.csv", "sample-files/week-3-notes.txt");
        for (String key : bucket.keys()) {
            assertThat(bucket.read(key)).hasValue(Files.readAllBytes(Path.of(key)));
        }
    }

    @Test
    void aMissingBucketFailsEveryFileAndSaysWhy() throws Exception {
        Run run = run("sample-files", "--bucket", bucket.name() + "-missing", "--region", "us-east-1",
                "--s3-endpoint", SERVICES.s3Endpoint().toString());

        assertThat(run.status).isEqualTo(1);
        assertThat(run.out).containsPattern("Done: 0 of 4 files stored, 0\\.0 KiB in \\d+ ms, 4 failed")
                .contains("FAILED Algorithm.png: ").contains("NoSuchBucket")
                .doesNotContain("test:test", "Credential=test"); // no credentials, no signed requests
    }

    private static Run run(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = UploadDirectory.run(args, new PrintStream(out, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8));
    }

    private record Run(int status, String out) {
    }
}
