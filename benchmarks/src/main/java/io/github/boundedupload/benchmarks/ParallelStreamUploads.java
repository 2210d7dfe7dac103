package io.github.boundedupload.benchmarks;

import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Strategy 2, source 000's first attempt: {@code parallelStream()}, so blocking PutObjects on the JVM-wide common
 * pool (cores - 1 threads) and the caller. Changes when how strategy 2 streams a batch changes.
 */
final class ParallelStreamUploads implements Strategy {

    private final S3Client client;
    private final String bucket;

    ParallelStreamUploads(Backend backend, Setup setup) {
        this.client = backend.syncClient(setup.connections());
        this.bucket = setup.bucket();
    }

    @Override
    public void upload(List<Item> items) {
        items.parallelStream().forEach(item -> client.putObject(item.putRequest(bucket), item.requestBody()));
    }

    @Override
    public void close() {
        client.close();
    }
}
