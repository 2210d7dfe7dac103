package io.github.boundedupload.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.autoconfigure.BoundedUploadAutoConfiguration;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.reactor.ReactiveUploads;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.http.MediaType;
import org.springframework.http.client.MultipartBodyBuilder;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;

/**
 * Attachments from Spring MVC's MultipartFile and WebFlux's FilePart: streamed, skipping unchosen parts, and, once
 * detached, still readable after the request's own files are gone (spring-framework#25481), deleted afterwards.
 */
class MultipartAttachmentsTests {

    @TempDir
    Path root;

    @TempDir
    Path request;

    @Test
    void multipartFilesAreStreamedAndUnchosenPartsSkipped() throws IOException {
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(
                new LocalFileUploader(root))) {
            BatchResult result = uploader.uploadAll(MultipartAttachments.of(List.of(
                    new MockMultipartFile("files", "a.txt", "text/plain", "first".getBytes(StandardCharsets.UTF_8)),
                    new MockMultipartFile("files", "", "application/octet-stream", new byte[0]),
                    new MockMultipartFile("files", "b.txt", "text/plain",
                            "second".getBytes(StandardCharsets.UTF_8)))));
            assertThat(result.results()).extracting(r -> r.attachment().fileName()).containsExactly("a.txt", "b.txt");
            assertThat(root.resolve(result.storedObjects().get(1).key())).hasContent("second");
        }
        assertThat(MultipartAttachments.of(null)).isEmpty();
    }

    @Test
    void detachedFilesOutliveTheRequestsOwnAndAreDeletedWhenTheBatchCompletes() throws Exception {
        CountDownLatch requestEnded = new CountDownLatch(1);
        LocalFileUploader disk = new LocalFileUploader(root);
        FileUploader afterTheRequest = new FileUploader() {
            @Override
            public StoredObject upload(UploadRequest upload) throws IOException {
                try {
                    requestEnded.await(30, TimeUnit.SECONDS); // reads only after Spring deleted the request's files
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException();
                }
                return disk.upload(upload);
            }

            @Override
            public void delete(String key) throws IOException {
                disk.delete(key);
            }
        };
        Path part = Files.writeString(request.resolve("upload_1.tmp"), "kept past the request");
        MultipartFile file = new DiskPart(part, "notes.txt");
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(afterTheRequest)) {
            DetachedAttachments detached = MultipartAttachments.detach(List.of(file));
            Path copy = detached.attachments().get(0).content().path().orElseThrow();
            CompletableFuture<BatchResult> batch = detached.uploadAllAsync(uploader);
            Files.deleteIfExists(part); // the request ends: Spring deletes its temporary files
            requestEnded.countDown();

            BatchResult result = batch.get(30, TimeUnit.SECONDS);
            assertThat(root.resolve(result.storedObjects().get(0).key())).hasContent("kept past the request");
            assertThat(copy).doesNotExist();
        }
    }

    @Test
    void aWebFluxHandlerUploadsFilePartsThroughTheStarter() throws IOException {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(BoundedUploadAutoConfiguration.class))
                .withPropertyValues("bounded-upload.local.root=" + root).run(context -> {
                    ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
                    WebTestClient client = WebTestClient.bindToRouterFunction(RouterFunctions.route()
                            .POST("/weeks", incoming -> incoming.multipartData()
                                    .flatMap(form -> FilePartAttachments.detach(Flux.fromIterable(
                                            form.getOrDefault("files", List.of())).cast(FilePart.class)))
                                    .flatMap(detached -> ReactiveUploads.uploadAll(uploader, detached.attachments())
                                            .doFinally(signal -> detached.close()))
                                    .flatMap(result -> ServerResponse.ok().bodyValue(result.storedObjects().stream()
                                            .map(StoredObject::key).toList())))
                            .build()).build();
                    MultipartBodyBuilder body = new MultipartBodyBuilder();
                    body.part("files", named("a.txt", "first"));
                    body.part("files", named("b.txt", "second"));

                    // (No expectStatus(): its return type changed between Spring 6 and 7, and this runs on both.)
                    var response = client.post().uri("/weeks").contentType(MediaType.MULTIPART_FORM_DATA)
                            .body(BodyInserters.fromMultipartData(body.build())).exchange()
                            .expectBody(List.class).returnResult();
                    assertThat(response.getStatus().value()).isEqualTo(200);
                    List<?> keys = response.getResponseBody();

                    assertThat(keys).hasSize(2);
                    assertThat(root.resolve((String) keys.get(0))).hasContent("first");
                    assertThat(root.resolve((String) keys.get(1))).hasContent("second");
                });
        try (Stream<Path> left = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertThat(left.filter(f -> f.getFileName().toString().startsWith("bounded-upload-")
                    && f.getFileName().toString().endsWith(".part"))).as("temporary files left").isEmpty();
        }
    }

    private static ByteArrayResource named(String name, String content) {
        return new ByteArrayResource(content.getBytes(StandardCharsets.UTF_8)) {
            @Override
            public String getFilename() {
                return name;
            }
        };
    }

    /** A part Spring keeps on disk, as StandardMultipartFile does: transferTo moves it. */
    private record DiskPart(Path file, String name) implements MultipartFile {
        @Override
        public String getName() {
            return "files";
        }

        @Override
        public String getOriginalFilename() {
            return name;
        }

        @Override
        public String getContentType() {
            return "text/plain";
        }

        @Override
        public boolean isEmpty() {
            return getSize() == 0;
        }

        @Override
        public long getSize() {
            try {
                return Files.size(file);
            } catch (IOException e) {
                return 0;
            }
        }

        @Override
        public byte[] getBytes() throws IOException {
            return Files.readAllBytes(file);
        }

        @Override
        public InputStream getInputStream() throws IOException {
            return Files.newInputStream(file);
        }

        @Override
        public void transferTo(java.io.File dest) throws IOException {
            transferTo(dest.toPath());
        }

        @Override
        public void transferTo(Path dest) throws IOException {
            Files.copy(file, dest, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
