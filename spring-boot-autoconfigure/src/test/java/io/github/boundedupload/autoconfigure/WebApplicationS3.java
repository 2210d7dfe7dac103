package io.github.boundedupload.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * What the whole-application tests (servlet and reactive) share: their bucket, a browser's multipart request, and what
 * the bucket must then hold.
 */
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

    /**
     * The answer lists one key per line, one per file and in their order, each ending with its file's name, and the
     * bucket holds each file under its key, byte for byte (read back with a client of its own).
     *
     * @param response the application's answer
     * @param files file names and contents, in order
     * @param bucket the bucket
     */
    static void assertStored(HttpResponse<String> response, Map<String, byte[]> files, TestBucket bucket) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        List<String> keys = response.body().lines().toList();
        List<String> names = List.copyOf(files.keySet());
        assertThat(keys).hasSize(files.size());
        for (int i = 0; i < keys.size(); i++) {
            byte[] expected = files.get(names.get(i));
            assertThat(keys.get(i)).endsWith("-" + names.get(i));
            assertThat(bucket.read(keys.get(i))).as(keys.get(i))
                    .hasValueSatisfying(stored -> assertThat(stored).isEqualTo(expected));
        }
    }
}
