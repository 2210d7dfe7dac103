package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.InvalidAttachmentException;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.Adapters.Kind;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Input that cannot be stored, and input that must be stored with care: each has its documented outcome. */
class BadInputIT {

    static final S3TestServices services = S3TestServices.get();
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucket("bad-input");
    static Adapters adapters;
    static Path large;

    @BeforeAll
    static void setUp(@TempDir Path dir) {
        adapters = new Adapters(services.s3Endpoint(), s3.bucket().name(), Adapters.smallParts());
        large = TestData.file(dir.resolve("large.bin"), 9, Adapters.LARGE);
    }

    @AfterAll
    static void tearDown() {
        adapters.close();
    }

    static StoredObject upload(Adapters adapters, Kind kind, UploadRequest request) throws Exception {
        if (kind == Kind.BLOCKING) {
            return adapters.blocking.upload(request);
        }
        try {
            return adapters.nonBlocking.upload(request).get(1, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            throw (Exception) e.getCause();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aBucketThatDoesNotExistIsA404WithItsName(Kind kind) {
        String missing = "bu-missing-" + UUID.randomUUID().toString().substring(0, 8);
        try (Adapters nowhere = new Adapters(services.s3Endpoint(), missing, Adapters.smallParts())) {
            for (Attachment attachment : List.of(Attachment.of("small.txt", new byte[] {1, 2, 3}), Attachment.of(large))) {
                Throwable failure = catchThrowable(() -> upload(nowhere, kind, UploadRequest.of("k/"
                        + attachment.fileName(), attachment)));
                assertThat(failure).isInstanceOfSatisfying(S3UploadException.class, e -> {
                    assertThat(e.statusCode()).hasValue(404);
                    assertThat(e.errorCode()).contains("NoSuchBucket");
                    assertThat(e.bucket()).isEqualTo(missing);
                    assertThat(e.key()).isEqualTo("k/" + attachment.fileName());
                    assertThat(e.fileName()).contains(attachment.fileName());
                    assertThat(e.mayBeStored()).isFalse();
                    assertThat(e.getMessage()).contains("NoSuchBucket", missing, attachment.fileName());
                });
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void accessDeniedIsA403(Kind kind) {
        try (DenyingS3 denying = new DenyingS3();
                Adapters denied = new Adapters(denying.endpoint(), "some-bucket", Adapters.smallParts())) {
            for (Attachment attachment : List.of(Attachment.of("small.txt", new byte[] {1}), Attachment.of(large))) {
                Throwable failure = catchThrowable(() -> upload(denied, kind, UploadRequest.of("k", attachment)));
                assertThat(failure).isInstanceOfSatisfying(S3UploadException.class, e -> {
                    assertThat(e.statusCode()).hasValue(403);
                    assertThat(e.errorCode()).contains("AccessDenied");
                    assertThat(e.mayBeStored()).isFalse();
                    assertThat(e.getMessage()).contains("HTTP 403 AccessDenied");
                });
            }
            assertThatThrownBy(() -> denied.blocking.delete("k")).isInstanceOfSatisfying(S3UploadException.class,
                    e -> assertThat(e.statusCode()).hasValue(403));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aKeyLongerThanS3AllowsIsRefusedByS3(Kind kind) {
        String key = "k".repeat(1025);
        Throwable failure = catchThrowable(() -> upload(adapters, kind, UploadRequest.of(key,
                Attachment.of("a.txt", new byte[] {1}))));
        assertThat(failure).isInstanceOfSatisfying(S3UploadException.class, e -> {
            assertThat(e.statusCode()).hasValue(400);
            assertThat(e.errorCode()).contains("KeyTooLongError");
        });
    }

    @Test
    void aKeyLongerThanS3AllowsIsRefusedByTheUploaderBeforeAnythingStarts() {
        Attachment attachment = Attachment.builder("a.txt", io.github.boundedupload.AttachmentContent.ofBytes(
                new byte[] {1})).key("too-long/" + "k".repeat(1020)).build();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(adapters.blocking)) {
            assertThatThrownBy(() -> uploader.uploadAll(List.of(attachment)))
                    .isInstanceOf(InvalidAttachmentException.class).hasMessageContaining("longer than 1024 bytes");
        }
        assertThat(s3.bucket().keys("too-long/")).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void anEmptyFileIsStoredAsAnEmptyObject(Kind kind, @TempDir Path dir) throws Exception {
        Path empty = Files.createFile(dir.resolve("empty.txt"));
        try (ConcurrentAttachmentUploader uploader = adapters.uploader(kind, UploaderConfig.builder()
                .keyStrategy(KeyStrategy.datedUuid("empty")).build())) {
            BatchResult result = uploader.uploadAll(List.of(Attachment.of(empty)));
            StoredObject stored = result.storedObjects().get(0);
            assertThat(stored.size()).isZero();
            assertThat(s3.bucket().head(stored.key())).hasValueSatisfying(head ->
                    assertThat(head.contentLength()).isZero());
            assertThat(s3.bucket().read(stored.key())).hasValueSatisfying(bytes -> assertThat(bytes).isEmpty());
        }
    }

    @Test
    void fileNamesWithDotDotAreRefusedBeforeAnythingStarts() {
        List<Attachment> batch = List.of(Attachment.of("fine.txt", new byte[] {1}),
                Attachment.of("..", new byte[] {1}), Attachment.of("../../etc/passwd", new byte[] {1}),
                Attachment.of("a..b.txt", new byte[] {1}), Attachment.of("..hidden", new byte[] {1}));
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(adapters.blocking,
                UploaderConfig.builder().keyStrategy(KeyStrategy.datedUuid("dots")).build())) {
            assertThatThrownBy(() -> uploader.uploadAll(batch)).isInstanceOfSatisfying(
                    InvalidAttachmentException.class, e -> assertThat(e.problems())
                            .extracting(InvalidAttachmentException.Problem::index).containsExactly(1, 2, 3, 4));
        }
        assertThat(s3.bucket().keys("dots/")).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void unicodeFileNamesKeepTheirExactNameForDownload(Kind kind) throws Exception {
        List<String> names = List.of("스터디 3주차 자료.pdf", "e\u0301te\u0301 photo.png", "日本語.txt", "emoji 😀.gif",
                "quote\"and;semicolon.txt");
        String prefix = "unicode-" + kind.name().toLowerCase();
        try (ConcurrentAttachmentUploader uploader = adapters.uploader(kind, UploaderConfig.builder()
                .keyStrategy(KeyStrategy.datedUuid(prefix)).build())) {
            BatchResult result = uploader.uploadAll(names.stream()
                    .map(name -> Attachment.of(name, name.getBytes(StandardCharsets.UTF_8))).toList());
            for (int i = 0; i < names.size(); i++) {
                String name = Normalizer.normalize(names.get(i), Normalizer.Form.NFC);
                StoredObject stored = result.storedObjects().get(i);
                assertThat(stored.key()).startsWith(prefix + "/").endsWith(KeyStrategy.sanitize(name));
                String content = names.get(i);
                assertThat(s3.bucket().read(stored.key())).hasValueSatisfying(bytes ->
                        assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo(content));
                assertThat(s3.bucket().head(stored.key())).hasValueSatisfying(head ->
                        assertThat(fileNameOf(head.contentDisposition())).isEqualTo(name));
            }
        }
    }

    /** The file name a browser takes from a Content-Disposition: the exact {@code filename*}, else {@code filename}. */
    static String fileNameOf(String disposition) {
        int extended = disposition.indexOf("filename*=UTF-8''");
        if (extended >= 0) {
            return URLDecoder.decode(disposition.substring(extended + 17).replace("+", "%2B"),
                    StandardCharsets.UTF_8);
        }
        int plain = disposition.indexOf("filename=\"");
        return disposition.substring(plain + 10, disposition.indexOf('"', plain + 10));
    }
}
