package io.github.boundedupload.benchmarks;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3ServiceClientConfiguration;
import software.amazon.awssdk.services.s3.S3Utilities;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * A non-blocking {@link S3AsyncClient} in process: a PutObject waits for a connection of its pool (without a
 * thread), takes its whole body, and is answered by the network's timer thread after the latency. Stores nothing.
 * Changes when how the in-process non-blocking client serves a PutObject changes.
 */
final class FakeS3AsyncClient implements S3AsyncClient {

    private final FakeNetwork network;
    private final FakeNetwork.Connections connections;

    FakeS3AsyncClient(FakeNetwork network, int connections) {
        this.network = network;
        this.connections = new FakeNetwork.Connections(connections);
    }

    @Override
    public CompletableFuture<PutObjectResponse> putObject(PutObjectRequest request, AsyncRequestBody body) {
        CompletableFuture<PutObjectResponse> response = new CompletableFuture<>();
        connections.acquire(() -> body.subscribe(new Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer buffer) {
                buffer.position(buffer.limit());
            }

            @Override
            public void onError(Throwable failure) {
                connections.release();
                response.completeExceptionally(failure);
            }

            @Override
            public void onComplete() {
                network.answerLater(() -> {
                    connections.release();
                    response.complete(PutObjectResponse.builder().eTag("\"fake\"").build());
                });
            }
        }));
        return response;
    }

    @Override
    public CompletableFuture<DeleteObjectResponse> deleteObject(DeleteObjectRequest request) {
        return CompletableFuture.completedFuture(DeleteObjectResponse.builder().build());
    }

    @Override
    public S3Utilities utilities() {
        return network.asyncShape.utilities();
    }

    @Override
    public S3ServiceClientConfiguration serviceClientConfiguration() {
        return network.asyncShape.serviceClientConfiguration();
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {
    }
}
