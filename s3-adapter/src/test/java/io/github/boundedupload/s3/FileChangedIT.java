package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.Adapters.Kind;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 11, defect 8: a file on disk that changes between the check and the upload, or during it. Every storage sends
 * exactly the size it checked, or fails naming the attachment; nothing is left in the bucket. (A file that grew from
 * 5 MB to 50 MB was stored past a 10 MB limit; a 4 MB file that doubled during its PUT was reported stored with
 * 4,000,000 bytes.)
 */
class FileChangedIT {

    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucket("file-changed");
    static final long MB = 1_000_000;

    @TempDir
    Path dir;

    /** When the file changes. */
    enum When {
        /** After the batch was checked, before its upload starts. */
        AFTER_THE_CHECK,
        /** While its bytes go out (at the first progress report). */
        DURING_THE_UPLOAD
    }

    static Stream<Arguments> cases() {
        return Stream.of(Kind.values()).flatMap(kind -> Stream.of(
                // name, size at the check, size it is changed to, when
                Arguments.of(kind, "grew past the limit", 5 * MB, 50 * MB, When.AFTER_THE_CHECK),
                Arguments.of(kind, "doubled", 4 * MB, 8 * MB, When.DURING_THE_UPLOAD),
                Arguments.of(kind, "doubled in parts", 7 * MB, 14 * MB, When.DURING_THE_UPLOAD),
                Arguments.of(kind, "shrank", 7 * MB, 3 * MB, When.AFTER_THE_CHECK),
                Arguments.of(kind, "grew in parts", 7 * MB, 7 * MB + 1, When.AFTER_THE_CHECK),
                Arguments.of(kind, "grew from empty", 0, 10, When.AFTER_THE_CHECK)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void aFileThatChangedFailsNamingItAndLeavesNothing(Kind kind, String story, long checked, long changedTo,
            When when) throws IOException {
        Path file = TestData.file(dir.resolve("photo-" + kind + ".bin"), 7, checked);
        AtomicBoolean changed = new AtomicBoolean();
        Runnable change = () -> {
            if (changed.compareAndSet(false, true)) {
                resize(file, changedTo);
            }
        };
        UploadListener changer = new UploadListener() {
            @Override
            public void batchStarted(BatchEvent batch) {
                if (when == When.AFTER_THE_CHECK) {
                    change.run();
                }
            }

            @Override
            public void bytesSent(UploadEvent upload, long bytesSoFar) {
                if (when == When.DURING_THE_UPLOAD) {
                    change.run();
                }
            }
        };
        UploaderConfig config = UploaderConfig.builder().name("changed").maxAttachmentSize(10 * MB)
                .failurePolicy(FailurePolicy.COLLECT).listener(changer).build();
        // Multipart from 5 MiB in 5 MiB parts, so that the 7 MB files go up in two parts.
        try (Adapters adapters = new Adapters(S3TestServices.get().s3Endpoint(), s3.bucket().name(),
                Adapters.smallParts()); ConcurrentAttachmentUploader uploader = adapters.uploader(kind, config)) {
            BatchResult result = uploader.uploadAll(List.of(Attachment.of(file)));

            UploadResult upload = result.results().get(0);
            assertThat(changed).isTrue();
            assertThat(upload.status()).as("%s", upload).isEqualTo(Status.FAILED);
            assertThat(upload.failure()).get().satisfies(f -> assertThat(f.getMessage())
                    .contains(file.getFileName().toString()));
            assertThat(s3.bucket().exists(upload.key())).isFalse();
            assertThat(s3.bucket().incompleteUploads()).noneMatch(u -> u.key().equals(upload.key()));
        }
    }

    /** Grows the file with more bytes, or cuts it, in place. */
    private static void resize(Path file, long size) {
        try {
            long now = Files.size(file);
            if (size < now) {
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    channel.truncate(size);
                }
            } else {
                try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.APPEND)) {
                    out.write(new byte[(int) (size - now)]);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
