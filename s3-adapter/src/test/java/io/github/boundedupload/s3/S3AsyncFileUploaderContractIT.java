package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.testsupport.AsyncFileUploaderContract;
import io.github.boundedupload.testsupport.S3TestServices;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/** The non-blocking adapter holds to the contract, against the real LocalStack; its large content goes multipart. */
class S3AsyncFileUploaderContractIT extends AsyncFileUploaderContract {

    static final S3TestServices services = S3TestServices.get();
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucket("contract-non-blocking");
    static S3AsyncClient client;
    static S3AsyncFileUploader uploader;

    @BeforeAll
    static void setUp() {
        client = services.s3AsyncClientBuilder(services.s3Endpoint()).build();
        uploader = S3AsyncFileUploader.builder(client, s3.bucket().name()).options(Adapters.smallParts()).build();
    }

    @AfterAll
    static void tearDown() {
        uploader.close();
        client.close();
    }

    @AfterEach
    void noIncompleteMultipartUploadIsLeft() {
        // Cancelled uploads are aborted after their future completed: give the abort its moment.
        await().atMost(SETTLE).untilAsserted(() -> assertThat(s3.bucket().incompleteUploads()).isEmpty());
    }

    @Override
    protected AsyncFileUploader asyncUploader() {
        return uploader;
    }

    @Override
    protected Optional<byte[]> read(String key) {
        return s3.bucket().read(key);
    }

    @Override
    protected boolean exists(String key) {
        return s3.bucket().exists(key);
    }

    @Override
    protected long largeSize() {
        return Adapters.LARGE;
    }
}
