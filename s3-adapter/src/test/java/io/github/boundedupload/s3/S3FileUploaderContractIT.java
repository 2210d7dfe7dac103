package io.github.boundedupload.s3;

import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.testsupport.FileUploaderContract;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.services.s3.S3Client;

import static org.assertj.core.api.Assertions.assertThat;

/** The blocking adapter holds to the contract, against the real LocalStack; its large content goes multipart. */
class S3FileUploaderContractIT extends FileUploaderContract {

    static final S3TestServices services = S3TestServices.get();
    static TestBucket bucket;
    static S3Client client;
    static S3FileUploader uploader;

    @BeforeAll
    static void setUp() {
        bucket = services.createBucket("contract-blocking");
        client = services.s3ClientBuilder(services.s3Endpoint()).build();
        uploader = S3FileUploader.builder(client, bucket.name()).options(Adapters.smallParts()).build();
    }

    @AfterAll
    static void tearDown() {
        client.close();
        bucket.close();
    }

    @AfterEach
    void noIncompleteMultipartUploadIsLeft() {
        assertThat(bucket.incompleteUploads()).isEmpty();
    }

    @Override
    protected FileUploader uploader() {
        return uploader;
    }

    @Override
    protected Optional<byte[]> read(String key) {
        return bucket.read(key);
    }

    @Override
    protected boolean exists(String key) {
        return bucket.exists(key);
    }

    @Override
    protected long largeSize() {
        return Adapters.LARGE;
    }
}
