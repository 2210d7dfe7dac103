package io.github.boundedupload.benchmarks;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.ExecutorType;
import io.github.boundedupload.s3.S3FileUploader;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Strategies 4 and 5: this library over the blocking S3 adapter, on a pool of platform threads or on virtual
 * threads, configured by the scenario as a user would ({@link Setup#uploader()}, {@link Setup#options()}). Changes when
 * how strategies 4 and 5 build and run their blocking uploader changes.
 */
final class LibraryBlocking extends LibraryUploads {

    private final S3Client client;

    LibraryBlocking(Backend backend, Setup setup, ExecutorType threads) {
        this(backend.syncClient(setup.connections()), setup, threads);
    }

    private LibraryBlocking(S3Client client, Setup setup, ExecutorType threads) {
        super(ConcurrentAttachmentUploader.create(
                S3FileUploader.builder(client, setup.bucket()).options(setup.options()).build(),
                setup.uploader().toBuilder().executorType(threads).build()));
        this.client = client;
    }

    @Override
    public void close() {
        uploader.close();
        client.close();
    }
}
