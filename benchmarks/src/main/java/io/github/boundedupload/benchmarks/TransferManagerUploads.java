package io.github.boundedupload.benchmarks;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.transfer.s3.S3TransferManager;

/**
 * Strategies 7 and 8: the AWS SDK's S3 Transfer Manager, one {@code upload} (bytes) or {@code uploadFile} (files) per
 * item, all started at once, on the Java-based non-blocking client with the SDK's multipart support on (7) or on the
 * CRT-based client (8: native HTTP stack, a large file's parts in parallel). Its concurrency is the client's
 * connection pool ({@code maxConcurrency} for the CRT client), the same size as every other strategy's. Changes when
 * how strategies 7 and 8 drive the Transfer Manager, or its clients, changes.
 */
final class TransferManagerUploads implements Strategy {

    private final S3AsyncClient client;
    private final S3TransferManager transferManager;
    private final String bucket;

    TransferManagerUploads(S3AsyncClient client, Setup setup) {
        this.client = client;
        this.transferManager = S3TransferManager.builder().s3Client(client).build();
        this.bucket = setup.bucket();
    }

    @Override
    public void upload(List<Item> items) {
        CompletableFuture.allOf(items.stream().map(this::start).toArray(CompletableFuture[]::new)).join();
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
