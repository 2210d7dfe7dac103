package io.github.boundedupload.examples.studyweek.storage;

import java.io.IOException;
import java.io.InputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CORSRule;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;

/**
 * Objects in an S3 bucket. Owns its client: closing the store closes it. Changes when how an object is read from S3
 * changes.
 */
final class S3AttachmentStore implements AttachmentStore, AutoCloseable {

    private final S3Client client;
    private final String bucket;

    S3AttachmentStore(S3Client client, String bucket) {
        this.client = client;
        this.bucket = bucket;
    }

    @Override
    public InputStream open(String key) throws IOException {
        try {
            // Streams the object as it arrives: a large download never sits in memory.
            return client.getObject(request -> request.bucket(bucket).key(key));
        } catch (SdkException e) {
            throw new IOException("S3 GetObject failed: " + e.getClass().getSimpleName(), e);
        }
    }

    /**
     * For LocalStack, which starts empty; a real bucket is made by whoever owns the account. With the CORS rule a
     * browser needs to send files straight to the bucket from the page (docs/direct-uploads.md): this example's set-up,
     * never something the library does behind the bucket owner's back.
     */
    void createBucketIfMissing(String pageOrigin) {
        try {
            client.headBucket(request -> request.bucket(bucket));
        } catch (NoSuchBucketException e) {
            client.createBucket(request -> request.bucket(bucket));
        }
        CORSRule rule = CORSRule.builder().allowedOrigins(pageOrigin).allowedMethods("PUT").allowedHeaders("*")
                .exposeHeaders("ETag").maxAgeSeconds(600).build();
        client.putBucketCors(request -> request.bucket(bucket).corsConfiguration(cors -> cors.corsRules(rule)));
    }

    @Override
    public void close() {
        client.close();
    }
}
