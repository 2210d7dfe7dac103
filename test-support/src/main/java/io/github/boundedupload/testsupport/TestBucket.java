package io.github.boundedupload.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.paginators.ListObjectVersionsIterable;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A bucket of its own for a test class, and what it really holds, read straight from the service. Closing it aborts
 * incomplete multipart uploads, deletes every object and the bucket. Changes when what a test reads of, or does with,
 * its bucket changes.
 */
public final class TestBucket implements AutoCloseable {

    private final S3Client client;
    private final String name;

    TestBucket(S3Client client, String name) {
        this.client = client;
        this.name = name;
    }

    /**
     * The bucket's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The bytes stored under a key. Use {@link #sha256(String)} for large objects.
     *
     * @param key the key
     * @return the bytes, or empty when nothing is stored under the key
     */
    public Optional<byte[]> read(String key) {
        try {
            return Optional.of(client.getObjectAsBytes(b -> b.bucket(name).key(key)).asByteArray());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    /**
     * The SHA-256 (hex) of the bytes stored under a key, read as a stream.
     *
     * @param key the key
     * @return the digest, or empty when nothing is stored under the key
     */
    public Optional<String> sha256(String key) {
        try {
            ResponseInputStream<GetObjectResponse> in = client.getObject(b -> b.bucket(name).key(key));
            return Optional.of(TestData.sha256(in));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether an object is stored under a key.
     *
     * @param key the key
     * @return whether it is
     */
    public boolean exists(String key) {
        return head(key).isPresent();
    }

    /**
     * The object's metadata, with its checksum.
     *
     * @param key the key
     * @return the metadata, or empty when nothing is stored under the key
     */
    public Optional<HeadObjectResponse> head(String key) {
        try {
            return Optional.of(client.headObject(b -> b.bucket(name).key(key).checksumMode(ChecksumMode.ENABLED)));
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * Every key in the bucket.
     *
     * @return the keys, in S3's order
     */
    public List<String> keys() {
        return keys("");
    }

    /**
     * The keys that start with a prefix.
     *
     * @param prefix the prefix
     * @return the keys, in S3's order
     */
    public List<String> keys(String prefix) {
        List<String> keys = new ArrayList<>();
        client.listObjectsV2Paginator(b -> b.bucket(name).prefix(prefix)).contents().stream()
                .map(S3Object::key).forEach(keys::add);
        return keys;
    }

    /**
     * The multipart uploads started and neither completed nor aborted.
     *
     * @return the uploads
     */
    public List<MultipartUpload> incompleteUploads() {
        List<MultipartUpload> uploads = new ArrayList<>();
        client.listMultipartUploadsPaginator(b -> b.bucket(name)).uploads().forEach(uploads::add);
        return uploads;
    }

    /**
     * Aborts incomplete uploads, deletes every object (every version, where the bucket keeps versions), then the
     * bucket.
     */
    @Override
    public void close() {
        for (MultipartUpload upload : incompleteUploads()) {
            client.abortMultipartUpload(b -> b.bucket(name).key(upload.key()).uploadId(upload.uploadId()));
        }
        // Versions and delete markers, not keys: deleting a key of a versioned bucket would only add a delete marker.
        List<ObjectIdentifier> objects = new ArrayList<>();
        ListObjectVersionsIterable versions = client.listObjectVersionsPaginator(b -> b.bucket(name));
        versions.versions().forEach(v -> objects.add(identifier(v.key(), v.versionId())));
        versions.deleteMarkers().forEach(m -> objects.add(identifier(m.key(), m.versionId())));
        for (int i = 0; i < objects.size(); i += 1000) {
            List<ObjectIdentifier> batch = objects.subList(i, Math.min(objects.size(), i + 1000));
            client.deleteObjects(b -> b.bucket(name).delete(d -> d.objects(batch).quiet(true)));
        }
        client.deleteBucket(b -> b.bucket(name));
    }

    private static ObjectIdentifier identifier(String key, String versionId) {
        ObjectIdentifier.Builder identifier = ObjectIdentifier.builder().key(key);
        if (versionId != null && !versionId.equals("null")) {
            identifier.versionId(versionId); // "null": the object of a bucket that never kept versions
        }
        return identifier.build();
    }

    @Override
    public String toString() {
        return "TestBucket[" + name + "]";
    }
}
