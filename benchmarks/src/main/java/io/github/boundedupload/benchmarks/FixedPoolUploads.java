package io.github.boundedupload.benchmarks;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The plainest pool a user writes for scenario M: {@code CompletableFuture.supplyAsync} of one blocking PutObject per
 * file on a fixed pool of the scenario's concurrency, on the same blocking client (the same connections) as this
 * library's blocking strategies, then join all. Every file goes in one PutObject, in the batch's order. The anchor of
 * the blocking strategies in scenario M's pairs ({@link PairUploads}); not one of the nine strategies. Changes when that
 * anchor changes.
 */
final class FixedPoolUploads implements Strategy {

    private final S3Client client;
    private final String bucket;
    private final ExecutorService pool;

    FixedPoolUploads(Backend backend, Setup setup) {
        this.client = backend.syncClient(setup.connections());
        this.bucket = setup.bucket();
        AtomicInteger count = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(setup.concurrency(),
                task -> new Thread(task, "pool-upload-" + count.incrementAndGet()));
    }

    @Override
    public void upload(List<Item> items) {
        CompletableFuture.allOf(items.stream()
                .map(item -> CompletableFuture.supplyAsync(
                        () -> client.putObject(item.putRequest(bucket), item.requestBody()), pool))
                .toArray(CompletableFuture[]::new)).join();
    }

    @Override
    public void close() {
        pool.shutdown();
        try {
            pool.awaitTermination(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close();
    }
}
