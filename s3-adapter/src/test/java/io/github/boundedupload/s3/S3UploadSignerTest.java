package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.boundedupload.spi.SignRequest;
import io.github.boundedupload.spi.SignedRequest;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/** What a signed PUT binds, and what it refuses to sign, without a server (the servers: {@code UploadSignerIT}). */
class S3UploadSignerTest {

    static final S3Presigner presigner = S3Presigner.builder().region(Region.EU_WEST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE",
                    "secret-key-example")))
            .endpointOverride(URI.create("https://s3.example.test")).build();
    static final S3UploadSigner signer = S3UploadSigner.builder(presigner, "bucket").build();

    @AfterAll
    static void close() {
        presigner.close();
    }

    @Test
    void theSignatureBindsTheContentTypeTheLengthAndTheChecksum() {
        SignedRequest put = signer.signPut(SignRequest.builder("staging/a.png", 1234, "image/png")
                .checksum("crc32c", "yZRlqg==").lifetime(Duration.ofMinutes(5)).build());

        assertThat(put.method()).isEqualTo("PUT");
        assertThat(put.url().getRawQuery()).contains("X-Amz-Expires=300", "X-Amz-SignedHeaders=content-length"
                + "%3Bcontent-type%3Bhost%3Bx-amz-checksum-crc32c");
        assertThat(put.headers()).containsEntry("content-type", "image/png")
                .containsEntry("x-amz-checksum-crc32c", "yZRlqg==").doesNotContainKeys("host", "content-length");
        assertThat(put.toString()).doesNotContain("X-Amz", "example", "staging");
    }

    @Test
    void aFormGoesToTheBucketWithItsPolicyAndSignature() {
        S3UploadSigner forms = S3UploadSigner.builder(presigner, "bucket").forms(StaticCredentialsProvider.create(
                AwsBasicCredentials.create("AKIDEXAMPLE", "secret-key-example")), Region.EU_WEST_1).build();

        SignedRequest post = forms.signPost(SignRequest.builder("staging/a b.png", 1234, "image/png").build());

        assertThat(post.method()).isEqualTo("POST");
        assertThat(post.url()).hasToString("https://bucket.s3.example.test/");
        assertThat(post.fields()).containsKeys("key", "Content-Type", "x-amz-algorithm", "x-amz-credential",
                "x-amz-date", "policy", "x-amz-signature").containsEntry("key", "staging/a b.png");
        assertThat(post.fields().get("x-amz-credential")).startsWith("AKIDEXAMPLE/").endsWith("/eu-west-1/s3/aws4_request");
        assertThat(new String(java.util.Base64.getDecoder().decode(post.fields().get("policy")),
                java.nio.charset.StandardCharsets.UTF_8)).contains("[\"content-length-range\",0,1234]",
                "[\"eq\",\"$key\",\"staging/a b.png\"]");
        assertThat(post.toString()).doesNotContain("policy", "AKID");
        assertThatThrownBy(() -> signer.signPost(SignRequest.builder("k", 1, "text/plain").build()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("forms");
    }

    @Test
    void whatS3CannotBindIsRefused() {
        assertThatThrownBy(() -> signer.signPut(SignRequest.builder("k", 1, "text/plain").checksum("MD4", "x")
                .build())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("MD4");
        assertThatThrownBy(() -> signer.signPut(SignRequest.builder("k", 1, "text/plain")
                .lifetime(Duration.ofDays(8)).build())).hasMessageContaining("PT192H");
    }
}
