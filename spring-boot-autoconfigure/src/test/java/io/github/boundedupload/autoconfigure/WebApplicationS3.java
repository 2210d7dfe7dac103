package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.springframework.test.context.DynamicPropertyRegistry;

/** What the whole-application tests (servlet and reactive) share: their bucket, and a browser's multipart request. */
final class WebApplicationS3 {

    private WebApplicationS3() {
    }

    /**
     * A fresh bucket on the test services' S3, and the properties that point the starter's S3 storage at it.
     *
     * @param registry the test's dynamic properties
     * @param name the bucket's name prefix
     * @return the bucket, to close after the test class
     */
    static TestBucket bucket(DynamicPropertyRegistry registry, String name) {
        S3TestServices services = S3TestServices.get();
        TestBucket bucket = services.createBucket(name);
        registry.add("bounded-upload.s3.bucket", bucket::name);
        registry.add("bounded-upload.s3.endpoint", () -> services.s3Endpoint().toString());
        registry.add("bounded-upload.s3.region", () -> TestSupport.REGION);
        registry.add("bounded-upload.s3.path-style-access", () -> "true");
        return bucket;
    }

    /**
     * A multipart/form-data POST with one part per file, all named "files", as a browser sends them.
     *
     * @param uri where to
     * @param files file names and contents, in order
     * @param headers more headers, as name and value pairs
     * @return the request
     */
    static HttpRequest multipart(URI uri, Map<String, byte[]> files, String... headers) throws IOException {
        String boundary = "----bounded-upload-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"files\"; filename=\""
                    + file.getKey() + "\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                    .getBytes(StandardCharsets.UTF_8));
            body.write(file.getValue());
            body.write("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        body.write(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .timeout(Duration.ofMinutes(2))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return request.build();
    }
}
