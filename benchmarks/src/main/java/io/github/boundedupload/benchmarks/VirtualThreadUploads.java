package io.github.boundedupload.benchmarks;

import io.github.boundedupload.support.Threads;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Strategy 3's uploads on a virtual thread each, at most the scenario's connections at once (a thread per upload has
 * no bound of its own): an anchor for {@code scripts/profile.sh COMPLETABLE_FUTURE_VIRTUAL} only, which tells the cost
 * of virtual threads on a blocking client from the cost of this library on them. Changes when that anchor changes.
 */
final class VirtualThreadUploads implements Strategy {

    private final S3Client client;
    private final String bucket;
    private final ThreadFactory threads = Threads.virtual("file-upload-").orElseThrow();
    private final Semaphore permits;

    VirtualThreadUploads(Backend backend, Setup setup) {
        this.client = backend.syncClient(setup.connections());
        this.bucket = setup.bucket();
        this.permits = new Semaphore(setup.connections());
    }

    @Override
    public void upload(List<Item> items) {
        CompletableFuture.allOf(items.stream()
                .map(item -> {
                    permits.acquireUninterruptibly();
                    return CompletableFuture.supplyAsync(
                            () -> client.putObject(item.putRequest(bucket), item.requestBody()),
                            task -> threads.newThread(task).start())
                            .whenComplete((response, failure) -> permits.release());
                })
                .toArray(CompletableFuture[]::new)).join();
    }

    @Override
    public void close() {
        client.close();
    }
}
