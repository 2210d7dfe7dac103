package io.github.boundedupload.benchmarks;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.s3.S3AsyncFileUploader;
import java.util.List;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Strategy 6: this library over the non-blocking S3 adapter: uploads are bounded by permits and hold no thread while
 * they wait for S3.
 */
final class LibraryNonBlocking implements Strategy {

    private final S3AsyncClient client;
    private final S3AsyncFileUploader storage;
    private final ConcurrentAttachmentUploader uploader;

    LibraryNonBlocking(Backend backend, Setup setup) {
        this.client = backend.asyncClient(setup.connections(), false);
        this.storage = S3AsyncFileUploader.builder(client, setup.bucket()).options(setup.options()).build();
        this.uploader = ConcurrentAttachmentUploader.create(storage, setup.uploader());
    }

    @Override
    public void upload(List<Item> items) {
        uploader.uploadAll(items.stream().map(Item::attachment).toList()); // all or nothing: throws on a failure
    }

    @Override
    public void close() {
        uploader.close();
        storage.close();
        client.close();
    }
}
