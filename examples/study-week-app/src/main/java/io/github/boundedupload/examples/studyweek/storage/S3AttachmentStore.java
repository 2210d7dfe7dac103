package io.github.boundedupload.examples.studyweek.storage;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CompletionException;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/** Objects in an S3 bucket, read and deleted with the same client the uploader's S3 storage uses. */
final class S3AttachmentStore implements AttachmentStore {

    private final S3AsyncClient client;
    private final String bucket;

    S3AttachmentStore(S3AsyncClient client, String bucket) {
        this.client = client;
        this.bucket = bucket;
    }

    @Override
    public InputStream open(String key) throws IOException {
        // Streams the object as it arrives: a large download never sits in memory.
        return join(client.getObject(request -> request.bucket(bucket).key(key),
                AsyncResponseTransformer.toBlockingInputStream()));
    }

    @Override
    public void delete(String key) throws IOException {
        join(client.deleteObject(request -> request.bucket(bucket).key(key)));
    }

    /** SDK failures as IOException, so that callers handle every storage the same way. */
    private static <T> T join(java.util.concurrent.CompletableFuture<T> future) throws IOException {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof SdkException sdk) {
                throw new IOException("S3 failed: " + sdk.getClass().getSimpleName(), sdk);
            }
            throw e;
        }
    }
}
