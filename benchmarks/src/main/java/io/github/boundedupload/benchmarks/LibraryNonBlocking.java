package io.github.boundedupload.benchmarks;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.s3.S3AsyncFileUploader;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Strategies 6 and 9: this library over the non-blocking S3 adapter, on the Java-based client (6) or on the CRT-based
 * one (9), as a user passes their own client: uploads are bounded by permits and hold no thread while they wait for S3.
 * Changes when how strategies 6 and 9 build and run their non-blocking uploader changes.
 */
final class LibraryNonBlocking extends LibraryUploads {

    private final S3AsyncClient client;
    private final S3AsyncFileUploader storage;

    LibraryNonBlocking(S3AsyncClient client, Setup setup) {
        this(client, S3AsyncFileUploader.builder(client, setup.bucket()).options(setup.options()).build(), setup);
    }

    private LibraryNonBlocking(S3AsyncClient client, S3AsyncFileUploader storage, Setup setup) {
        super(ConcurrentAttachmentUploader.create(storage, setup.uploader()));
        this.client = client;
        this.storage = storage;
    }

    @Override
    public void close() {
        uploader.close();
        storage.close();
        client.close();
    }
}
