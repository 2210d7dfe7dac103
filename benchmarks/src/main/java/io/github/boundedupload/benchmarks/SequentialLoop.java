package io.github.boundedupload.benchmarks;

import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Strategy 1, source 000's starting point: a loop on the caller's thread, one PutObject after another. Changes when how
 * strategy 1 loops over a batch changes.
 */
final class SequentialLoop implements Strategy {

    private final S3Client client;
    private final String bucket;

    SequentialLoop(Backend backend, Setup setup) {
        this.client = backend.syncClient(setup.connections());
        this.bucket = setup.bucket();
    }

    @Override
    public void upload(List<Item> items) {
        for (Item item : items) {
            client.putObject(item.putRequest(bucket), item.requestBody());
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
