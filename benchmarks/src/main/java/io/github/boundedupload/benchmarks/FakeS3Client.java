package io.github.boundedupload.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ServiceClientConfiguration;
import software.amazon.awssdk.services.s3.S3Utilities;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * A blocking {@link S3Client} in process: a PutObject takes a connection of its pool, reads its whole body, and
 * blocks its thread for the network's latency, like a call to a slow server. Stores nothing. Changes when how the
 * in-process blocking client serves a PutObject changes.
 */
final class FakeS3Client implements S3Client {

    private final FakeNetwork network;
    private final FakeNetwork.Connections connections;

    FakeS3Client(FakeNetwork network, int connections) {
        this.network = network;
        this.connections = new FakeNetwork.Connections(connections);
    }

    @Override
    public PutObjectResponse putObject(PutObjectRequest request, RequestBody body) {
        connections.acquireBlocking();
        try {
            try (InputStream in = body.contentStreamProvider().newStream()) {
                in.transferTo(OutputStream.nullOutputStream());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Thread.sleep(network.latency().toMillis());
            return PutObjectResponse.builder().eTag("\"fake\"").build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            connections.release();
        }
    }

    @Override
    public DeleteObjectResponse deleteObject(DeleteObjectRequest request) {
        return DeleteObjectResponse.builder().build();
    }

    @Override
    public S3Utilities utilities() {
        return network.syncShape.utilities();
    }

    @Override
    public S3ServiceClientConfiguration serviceClientConfiguration() {
        return network.syncShape.serviceClientConfiguration();
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {
    }
}
