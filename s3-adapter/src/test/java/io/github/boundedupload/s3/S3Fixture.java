package io.github.boundedupload.s3;

import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import io.github.boundedupload.testsupport.TestProxy;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test class's own bucket, and optionally a Toxiproxy proxy in front of S3, healed after every test; both deleted
 * after the class. Register it as a static field with {@code @RegisterExtension}: it is ready before the class's
 * {@code @BeforeAll} methods run.
 */
final class S3Fixture implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

    private final String name;
    private final boolean withProxy;
    private @Nullable TestBucket bucket;
    private @Nullable TestProxy proxy;

    private S3Fixture(String name, boolean withProxy) {
        this.name = name;
        this.withProxy = withProxy;
    }

    static S3Fixture bucket(String name) {
        return new S3Fixture(name, false);
    }

    static S3Fixture bucketAndProxy(String name) {
        return new S3Fixture(name, true);
    }

    TestBucket bucket() {
        return Objects.requireNonNull(bucket, "not started");
    }

    TestProxy proxy() {
        return Objects.requireNonNull(proxy, "no proxy");
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        bucket = S3TestServices.get().createBucket(name);
        if (withProxy) {
            proxy = S3TestServices.get().createProxy(name);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (proxy != null) {
            proxy.heal();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            if (proxy != null) {
                proxy.close();
            }
        } finally {
            bucket().close();
        }
    }
}
