package io.github.boundedupload.benchmarks;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.ExecutorType;
import io.github.boundedupload.s3.S3FileUploader;
import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Strategies 4 and 5: this library over the blocking S3 adapter, on a pool of platform threads or on virtual
 * threads, configured by the scenario as a user would ({@link Setup#uploader()}, {@link Setup#options()}).
 */
final class LibraryBlocking implements Strategy {

    private final S3Client client;
    private final ConcurrentAttachmentUploader uploader;

    LibraryBlocking(Backend backend, Setup setup, ExecutorType threads) {
        this.client = backend.syncClient(setup.connections());
        this.uploader = ConcurrentAttachmentUploader.create(
                S3FileUploader.builder(client, setup.bucket()).options(setup.options()).build(),
                setup.uploader().toBuilder().executorType(threads).build());
    }

    @Override
    public void upload(List<Item> items) {
        uploader.uploadAll(items.stream().map(Item::attachment).toList()); // all or nothing: throws on a failure
    }

    @Override
    public void close() {
        uploader.close();
        client.close();
    }
}
