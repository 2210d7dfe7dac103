package io.github.boundedupload.s3;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.testsupport.S3TestServices;
import java.net.URI;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * Both adapters on clients of their own, to one endpoint (the service's, or a proxy's), for one bucket; and what the
 * integration tests share. Closing closes the clients.
 */
final class Adapters implements AutoCloseable {

    /** Which adapter a test runs. */
    enum Kind {
        BLOCKING, NON_BLOCKING
    }

    /** Content above the small-parts threshold: three parts. */
    static final long LARGE = 2 * S3UploadOptions.MIN_PART_SIZE + 12345;

    final S3Client client;
    final S3AsyncClient asyncClient;
    final S3FileUploader blocking;
    final S3AsyncFileUploader nonBlocking;
    private final boolean ownsClients;

    Adapters(URI endpoint, String bucket, S3UploadOptions options) {
        this(endpoint, bucket, options, UnaryOperator.identity(), UnaryOperator.identity());
    }

    Adapters(URI endpoint, String bucket, S3UploadOptions options, UnaryOperator<S3ClientBuilder> sync,
            UnaryOperator<S3AsyncClientBuilder> async) {
        this(sync.apply(S3TestServices.get().s3ClientBuilder(endpoint)).build(),
                async.apply(S3TestServices.get().s3AsyncClientBuilder(endpoint)).build(), bucket, options, true);
    }

    /**
     * Both adapters on clients the caller keeps (closing a non-blocking client takes its event loop's quiet period:
     * tests that try many options share their clients).
     */
    Adapters(S3Client client, S3AsyncClient asyncClient, String bucket, S3UploadOptions options) {
        this(client, asyncClient, bucket, options, false);
    }

    private Adapters(S3Client client, S3AsyncClient asyncClient, String bucket, S3UploadOptions options,
            boolean ownsClients) {
        this.client = client;
        this.asyncClient = asyncClient;
        this.ownsClients = ownsClients;
        this.blocking = S3FileUploader.builder(client, bucket).options(options).build();
        this.nonBlocking = S3AsyncFileUploader.builder(asyncClient, bucket).options(options).build();
    }

    /** The core's uploader over one of the adapters. */
    ConcurrentAttachmentUploader uploader(Kind kind, UploaderConfig config) {
        return kind == Kind.BLOCKING ? ConcurrentAttachmentUploader.create(blocking, config)
                : ConcurrentAttachmentUploader.create(nonBlocking, config);
    }

    /** The smallest parts S3 allows, so that tests reach multipart with little content. */
    static S3UploadOptions smallParts() {
        return S3UploadOptions.builder()
                .multipartThreshold(S3UploadOptions.MIN_PART_SIZE)
                .partSize(S3UploadOptions.MIN_PART_SIZE)
                .build();
    }

    @Override
    public void close() {
        nonBlocking.close();
        if (ownsClients) {
            asyncClient.close();
            client.close();
        }
    }
}
