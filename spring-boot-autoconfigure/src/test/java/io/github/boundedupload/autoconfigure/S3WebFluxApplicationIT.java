package io.github.boundedupload.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.reactor.ReactiveUploads;
import io.github.boundedupload.s3.S3AsyncFileUploader;
import io.github.boundedupload.s3.S3UploadOptions;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spring.web.FilePartAttachments;
import io.github.boundedupload.testsupport.TestBucket;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;

/**
 * A whole Spring Boot WebFlux application on Reactor Netty and the starter, against a real S3 with a fresh bucket: a
 * handler streams a multipart request's files (FilePartAttachments.of: no copy of its own, no blocked thread) through
 * the injected uploader and the non-blocking S3 storage, within the request. A small file Spring keeps in memory, files
 * it keeps on disk, and one above the multipart threshold, all reach S3 byte for byte; nothing of ours is left on disk.
 */
@SpringBootTest(classes = S3WebFluxApplicationIT.ReactiveUploadApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = { "spring.main.web-application-type=reactive", "bounded-upload.name=webflux",
                "bounded-upload.s3.multipart-threshold=5MB", "bounded-upload.s3.part-size=5MB",
                TestSupport.WITHOUT_SPRING_CLOUD_AWS })
@DirtiesContext
class S3WebFluxApplicationIT {

    private static TestBucket bucket;

    @Value("${local.server.port}")
    int port;

    @Autowired
    AsyncFileUploader storage;

    @Autowired
    MeterRegistry meters;

    @DynamicPropertySource
    static void s3(DynamicPropertyRegistry registry) {
        bucket = WebApplicationS3.bucket(registry, "S3WebFluxApplicationIT");
    }

    @AfterAll
    static void deleteBucket() {
        bucket.close();
    }

    @Test
    void aWebFluxHandlerStreamsARequestsFilesToS3() throws Exception {
        Map<String, byte[]> files = new LinkedHashMap<>();
        Random random = new Random(7);
        files.put("notes.txt", bytes(random, 3_000)); // in memory at Spring (under 256 KiB)
        files.put("week-1.png", bytes(random, 900_000)); // on disk at Spring, one PutObject
        files.put("week-2.png", bytes(random, 2_000_000));
        files.put("scan.pdf", bytes(random, (int) S3UploadOptions.MIN_PART_SIZE + 12345)); // two parts
        List<Path> before = ourTemporaryFiles();

        HttpResponse<String> response = HttpClient.newHttpClient().send(WebApplicationS3.multipart(
                URI.create("http://127.0.0.1:" + port + "/uploads"), files),
                HttpResponse.BodyHandlers.ofString());

        WebApplicationS3.assertStored(response, files, bucket);
        assertThat(storage).isInstanceOf(S3AsyncFileUploader.class);
        assertThat(meters.get("bounded.upload.bytes").tag("uploader", "webflux").counter().count())
                .isEqualTo((double) files.values().stream().mapToLong(content -> content.length).sum());
        assertThat(ourTemporaryFiles()).as("no copy of the request's files").isEqualTo(before);
    }

    private static byte[] bytes(Random random, int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    /** The temporary files FilePartAttachments.detach would write: of() writes none. */
    private static List<Path> ourTemporaryFiles() throws IOException {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.filter(file -> file.getFileName().toString().startsWith("bounded-upload-")).sorted()
                    .collect(Collectors.toList());
        }
    }


    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class ReactiveUploadApplication {

        /** The handler: the request's files streamed to the storage; the keys, one per line. */
        @Bean
        RouterFunction<ServerResponse> uploads(ConcurrentAttachmentUploader uploader) {
            return RouterFunctions.route().POST("/uploads", request -> request.multipartData()
                    .flatMap(form -> FilePartAttachments.of(Flux.fromIterable(form.getOrDefault("files", List.of()))
                            .cast(FilePart.class)))
                    .flatMap(attachments -> ReactiveUploads.uploadAll(uploader, attachments))
                    .flatMap(result -> ServerResponse.ok().bodyValue(result.storedObjects().stream()
                            .map(StoredObject::key).collect(Collectors.joining("\n")))))
                    .build();
        }
    }
}
