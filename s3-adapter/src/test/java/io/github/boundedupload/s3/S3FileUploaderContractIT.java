package io.github.boundedupload.s3;

import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.testsupport.FileUploaderContract;
import io.github.boundedupload.testsupport.S3TestServices;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.S3Client;

import static org.assertj.core.api.Assertions.assertThat;

/** The blocking adapter holds to the contract, against the real LocalStack; its large content goes multipart. */
class S3FileUploaderContractIT extends FileUploaderContract {

    static final S3TestServices services = S3TestServices.get();
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucket("contract-blocking");
    static S3Client client;
    static S3FileUploader uploader;

    @BeforeAll
    static void setUp() {
        client = services.s3ClientBuilder(services.s3Endpoint()).build();
        uploader = S3FileUploader.builder(client, s3.bucket().name()).options(Adapters.smallParts()).build();
    }

    @AfterAll
    static void tearDown() {
        client.close();
    }

    @AfterEach
    void noIncompleteMultipartUploadIsLeft() {
        assertThat(s3.bucket().incompleteUploads()).isEmpty();
    }

    @Override
    protected FileUploader uploader() {
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
