package io.github.boundedupload.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.s3.S3AsyncFileUploader;
import io.github.boundedupload.s3.S3UploadOptions;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.testsupport.TestBucket;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.multipart.MultipartFile;

/**
 * A whole Spring Boot web application on the starter's auto-configuration, against a real S3 (LocalStack, found or
 * started by test-support) with a fresh bucket: a real multipart HTTP request with several files, uploaded by the
 * injected uploader through the non-blocking S3 storage on a client built from the properties. What reaches S3, what
 * the meters count, and what is logged on the upload threads (with the request's id from the MDC) is checked.
 *
 * <p>Written against what Spring Boot 4.1 and 3.5 share (no TestRestTemplate, whose package moved): the request is
 * made with the JDK's HTTP client.
 */
@SpringBootTest(classes = S3WebApplicationIT.UploadApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = { "bounded-upload.name=web", "bounded-upload.s3.multipart-threshold=5MB",
                "bounded-upload.s3.part-size=5MB", "spring.servlet.multipart.max-file-size=16MB",
                "spring.servlet.multipart.max-request-size=32MB", TestSupport.WITHOUT_SPRING_CLOUD_AWS })
@DirtiesContext
class S3WebApplicationIT {

    /** The header the application's filter puts into the MDC. */
    static final String REQUEST_ID = "X-Request-Id";
    /** What the application's listener logs on the upload threads. */
    static final String UPLOAD_LOG = "io.github.boundedupload.test.web.uploads";

    private static TestBucket bucket;

    @Value("${local.server.port}")
    int port;

    @Autowired
    MeterRegistry meters;

    @Autowired
    AsyncFileUploader storage;

    private final CapturingAppender captured = new CapturingAppender();

    @DynamicPropertySource
    static void s3(DynamicPropertyRegistry registry) {
        bucket = WebApplicationS3.bucket(registry, "S3WebApplicationIT");
    }

    @AfterAll
    static void deleteBucket() {
        bucket.close();
    }

    /** Attached after the application started, because Spring Boot configures logging again when it starts. */
    @BeforeEach
    void captureUploadLogging() {
        Logger logger = (Logger) LoggerFactory.getLogger(UPLOAD_LOG);
        logger.setLevel(Level.INFO);
        captured.setContext(logger.getLoggerContext());
        captured.start();
        logger.addAppender(captured);
    }

    @AfterEach
    void stopCapturing() {
        ((Logger) LoggerFactory.getLogger(UPLOAD_LOG)).detachAppender(captured);
        captured.stop();
    }

    @Test
    void aMultipartRequestsFilesEndUpInS3WithMetricsAndTheRequestsLoggingContext() throws Exception {
        Map<String, byte[]> files = new LinkedHashMap<>();
        Random random = new Random(42);
        for (String name : List.of("week-1.png", "week-2.png", "notes.txt", "thumbnail.jpg")) {
            byte[] content = new byte[1024 + random.nextInt(64 * 1024)];
            random.nextBytes(content);
            files.put(name, content);
        }
        byte[] large = new byte[(int) S3UploadOptions.MIN_PART_SIZE + 12345]; // two parts
        random.nextBytes(large);
        files.put("scan.pdf", large);
        String requestId = "req-" + UUID.randomUUID();

        HttpResponse<String> response = HttpClient.newHttpClient().send(WebApplicationS3.multipart(
                URI.create("http://127.0.0.1:" + port + "/uploads"), files, REQUEST_ID, requestId),
                HttpResponse.BodyHandlers.ofString());

        // (a) Every file is in the bucket, byte for byte, read back with a client of its own.
        WebApplicationS3.assertStored(response, files, bucket);
        List<String> names = List.copyOf(files.keySet());
        assertThat(storage).isInstanceOf(S3AsyncFileUploader.class);

        // (b) The uploader's meters in the application's registry.
        long bytes = files.values().stream().mapToLong(content -> content.length).sum();
        assertThat(meters.get("bounded.upload").tag("uploader", "web").tag("outcome", "success").timer().count())
                .isEqualTo(files.size());
        assertThat(meters.get("bounded.upload.bytes").tag("uploader", "web").counter().count())
                .isEqualTo((double) bytes);
        assertThat(meters.get("bounded.upload.batch").tag("uploader", "web").tag("outcome", "success").timer()
                .count()).isEqualTo(1);

        // (c) What was logged on the upload threads carries the request's id from the MDC.
        assertThat(captured.lines).hasSize(files.size()).allSatisfy(line -> {
            assertThat(line.thread()).startsWith("bounded-upload-web-");
            assertThat(line.mdc()).containsEntry("requestId", requestId);
        });
        assertThat(captured.lines.stream().map(LogLine::message).collect(Collectors.toSet()))
                .isEqualTo(names.stream().map(name -> "uploading " + name).collect(Collectors.toSet()));
    }


    /** One logged line: its thread, MDC and message, taken when it was logged (Logback reads both lazily). */
    record LogLine(String thread, Map<String, String> mdc, String message) {
    }

    static final class CapturingAppender extends AppenderBase<ILoggingEvent> {
        final List<LogLine> lines = new CopyOnWriteArrayList<>();

        @Override
        protected void append(ILoggingEvent event) {
            lines.add(new LogLine(event.getThreadName(), Map.copyOf(event.getMDCPropertyMap()),
                    event.getFormattedMessage()));
        }
    }

    /** The application: a controller, a request-id filter, and a listener that logs on the upload threads. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ UploadController.class, RequestIdFilter.class })
    static class UploadApplication {

        @Bean
        UploadListener uploadLogging() {
            org.slf4j.Logger log = LoggerFactory.getLogger(UPLOAD_LOG);
            return new UploadListener() {
                @Override
                public void uploadStarted(UploadEvent upload, Duration queued) {
                    log.info("uploading {}", upload.attachment().fileName());
                }
            };
        }
    }

    @RestController
    static class UploadController {
        private final ConcurrentAttachmentUploader uploader;

        UploadController(ConcurrentAttachmentUploader uploader) {
            this.uploader = uploader;
        }

        /** Uploads every file of the request as one batch; answers with their keys, one a line, in order. */
        @PostMapping(path = "/uploads", produces = "text/plain")
        String upload(@RequestParam("files") List<MultipartFile> files) {
            List<Attachment> attachments = files.stream()
                    .map(file -> Attachment.of(String.valueOf(file.getOriginalFilename()),
                            AttachmentContent.ofStream(file::getInputStream, file.getSize())))
                    .toList();
            return uploader.uploadAll(attachments).storedObjects().stream().map(StoredObject::key)
                    .collect(Collectors.joining("\n"));
        }
    }

    /** Puts the request's id into the MDC for as long as the request is handled. */
    static class RequestIdFilter extends OncePerRequestFilter {
        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            String id = request.getHeader(REQUEST_ID);
            if (id != null) {
                MDC.put("requestId", id);
            }
            try {
                chain.doFilter(request, response);
            } finally {
                MDC.remove("requestId");
            }
        }
    }
}
