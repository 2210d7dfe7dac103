package io.github.boundedupload.benchmarks;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.s3.S3AsyncFileUploader;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Strategy 6: this library over the non-blocking S3 adapter: uploads are bounded by permits and hold no thread while
 * they wait for S3.
 */
final class LibraryNonBlocking extends LibraryUploads {

    private final S3AsyncClient client;
    private final S3AsyncFileUploader storage;

    LibraryNonBlocking(Backend backend, Setup setup) {
        this(backend.asyncClient(setup.connections(), false), setup);
    }

    private LibraryNonBlocking(S3AsyncClient client, Setup setup) {
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
