package io.github.boundedupload.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * The non-blocking counterpart of {@link CompletableFutureUploads#fixedPool}: one {@code putObject} per file on the same non-blocking
 * client as this library's non-blocking strategy (Netty, the same connections, the SDK's multipart off), at most the
 * scenario's concurrency at once (a semaphore the caller takes before each start and the answer gives back), in the
 * batch's order, then join all. The anchor of the non-blocking strategy in scenario M's pairs ({@link PairUploads});
 * not one of the nine strategies. Changes when that anchor changes.
 */
final class AsyncPoolUploads implements Strategy {

    private final S3AsyncClient client;
    private final String bucket;
    private final Semaphore permits;

    AsyncPoolUploads(Backend backend, Setup setup) {
        this.client = backend.asyncClient(setup.connections(), false);
        this.bucket = setup.bucket();
        this.permits = new Semaphore(setup.concurrency());
    }

    @Override
    public void upload(List<Item> items) {
        List<CompletableFuture<?>> all = new ArrayList<>(items.size());
        for (Item item : items) {
            permits.acquireUninterruptibly();
            all.add(client.putObject(item.putRequest(bucket), item.asyncRequestBody())
                    .whenComplete((response, failure) -> permits.release()));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
    }

    @Override
    public void close() {
        client.close();
    }
}
