package io.github.boundedupload.benchmarks;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import io.github.boundedupload.testsupport.TestProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;

/**
 * A bucket of its own on the S3 server (LocalStack or versitygw) for one measured JVM, reached directly or through a
 * Toxiproxy proxy that adds latency to every response (downstream: one round trip of a PutObject pays it once).
 * Closing deletes the proxy, the objects and the bucket. Changes when how a measured JVM's bucket or its latency proxy
 * is set up or torn down changes.
 */
final class S3Target implements AutoCloseable {

    private static final String TOXIC = "latency";

    private final S3TestServices services = S3TestServices.get();
    private final TestBucket bucket;
    private final TestProxy proxy;

    private S3Target(String hint, boolean proxied) {
        this.bucket = services.createBucket("bench-" + hint);
        this.proxy = proxied ? services.createProxy("bench-" + hint) : null;
    }

    /** Straight to the server. */
    static S3Target direct(String hint) {
        return new S3Target(hint, false);
    }

    /** Through a proxy that delays every response by {@code latency}. */
    static S3Target behindLatency(String hint, Duration latency) {
        S3Target target = new S3Target(hint, true);
        target.latency(latency);
        return target;
    }

    /** Sets the proxy's latency (replacing the one before). */
    void latency(Duration latency) {
        try {
            proxy.heal();
            proxy.toxiproxy().toxics().latency(TOXIC, ToxicDirection.DOWNSTREAM, latency.toMillis());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String bucketName() {
        return bucket.name();
    }

    Backend backend() {
        return Backend.s3(proxy != null ? proxy.endpoint() : services.s3Endpoint());
    }

    /** Deletes every object, so that the server holds one run at a time (LocalStack keeps objects in memory). */
    void empty() {
        List<String> keys = bucket.keys();
        for (int from = 0; from < keys.size(); from += 1_000) {
            List<ObjectIdentifier> chunk = keys.subList(from, Math.min(keys.size(), from + 1_000)).stream()
                    .map(key -> ObjectIdentifier.builder().key(key).build()).toList();
            services.s3Client().deleteObjects(d -> d.bucket(bucket.name()).delete(o -> o.objects(chunk)));
        }
    }

    @Override
    public void close() {
        if (proxy != null) {
            proxy.close();
        }
        bucket.close();
    }
}
