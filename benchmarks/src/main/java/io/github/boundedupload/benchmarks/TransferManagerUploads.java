package io.github.boundedupload.benchmarks;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.transfer.s3.S3TransferManager;

/**
 * Strategies 7 and 8: the AWS SDK's S3 Transfer Manager, one {@code upload} (bytes) or {@code uploadFile} (files) per
 * item, all started at once (or, as an anchor of {@code scripts/profile.sh} and {@code PairUploads}, a bounded number
 * at once), on the Java-based non-blocking client with the SDK's multipart support on (7) or on the
 * CRT-based client (8: native HTTP stack, a large file's parts in parallel). Its concurrency is the client's
 * connection pool ({@code maxConcurrency} for the CRT client), the same size as every other strategy's. Changes when
 * how strategies 7 and 8 drive the Transfer Manager, or its clients, changes.
 */
final class TransferManagerUploads implements Strategy {

    private final S3AsyncClient client;
    private final S3TransferManager transferManager;
    private final String bucket;
    private final int bound;

    TransferManagerUploads(S3AsyncClient client, Setup setup) {
        this(client, setup, 0);
    }

    /** With {@code bound > 0}, at most that many uploads started at once, the next by the thread that ends one. */
    TransferManagerUploads(S3AsyncClient client, Setup setup, int bound) {
        this.client = client;
        this.transferManager = S3TransferManager.builder().s3Client(client).build();
        this.bucket = setup.bucket();
        this.bound = bound;
    }

    @Override
    public void upload(List<Item> items) {
        if (bound > 0) {
            uploadBounded(items);
            return;
        }
        CompletableFuture.allOf(items.stream().map(this::start).toArray(CompletableFuture[]::new)).join();
    }

    private void uploadBounded(List<Item> items) {
        CountDownLatch done = new CountDownLatch(items.size());
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        for (int k = 0; k < bound; k++) {
            startNext(items, next, done, failed);
        }
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (failed.get() != null) {
            throw new IllegalStateException(failed.get());
        }
    }

    /** Starts the next item, if one is left; its end starts the one after, on the thread that ends it. */
    private void startNext(List<Item> items, AtomicInteger next, CountDownLatch done,
            AtomicReference<Throwable> failed) {
        int i = next.getAndIncrement();
        if (i < items.size()) {
            start(items.get(i)).whenComplete((result, failure) -> {
                if (failure != null) {
                    failed.compareAndSet(null, failure);
                }
                done.countDown();
                startNext(items, next, done, failed);
            });
        }
    }

    private CompletableFuture<?> start(Item item) {
        if (item.file() != null) {
            return transferManager.uploadFile(u -> u.putObjectRequest(item.putRequest(bucket)).source(item.file()))
                    .completionFuture();
        }
        return transferManager.upload(u -> u.putObjectRequest(item.putRequest(bucket))
                .requestBody(item.asyncRequestBody())).completionFuture();
    }

    @Override
    public void close() {
        transferManager.close();
        client.close();
    }
}
