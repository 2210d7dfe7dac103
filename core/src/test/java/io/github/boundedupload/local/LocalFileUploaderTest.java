package io.github.boundedupload.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.UploadRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LocalFileUploaderTest {

    @TempDir
    Path dir;

    private static List<Path> filesUnder(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    @Test
    void storesTheBytesUnderTheKeyWithAChecksumInS3sFormat() throws Exception {
        LocalFileUploader storage = new LocalFileUploader(dir.resolve("root"));
        byte[] content = "hello".getBytes(StandardCharsets.UTF_8);

        StoredObject stored = storage.upload(UploadRequest.of("a/b/hello.txt", Attachment.of("hello.txt", content)));

        Path file = dir.resolve("root/a/b/hello.txt");
        assertThat(file).hasBinaryContent(content);
        assertThat(stored.key()).isEqualTo("a/b/hello.txt");
        assertThat(stored.size()).isEqualTo(5);
        assertThat(stored.location()).contains(file.toRealPath().toUri());
        assertThat(stored.checksumAlgorithm()).contains("CRC32");
        assertThat(stored.checksum()).contains("NhCmhg=="); // CRC32("hello") = 0x3610a686
        assertThat(filesUnder(dir.resolve("root"))).containsExactly(file);
    }

    @Test
    void overwritesAndDeletes() throws Exception {
        LocalFileUploader storage = new LocalFileUploader(dir);
        storage.upload(UploadRequest.of("k.txt", Attachment.of("k.txt", new byte[] {1})));
        storage.upload(UploadRequest.of("k.txt", Attachment.of("k.txt", new byte[] {2, 3})));
        assertThat(dir.resolve("k.txt")).hasBinaryContent(new byte[] {2, 3});

        storage.delete("k.txt");
        storage.delete("k.txt");

        assertThat(dir.resolve("k.txt")).doesNotExist();
    }

    @ParameterizedTest
    @ValueSource(strings = {"../escape.txt", "a/../../escape.txt", "/etc/passwd", "a\\..\\b", "a//b", ""})
    void keysCannotEscapeTheRoot(String key) throws Exception {
        LocalFileUploader storage = new LocalFileUploader(dir.resolve("root"));

        assertThatThrownBy(() -> storage.upload(UploadRequest.of(key, Attachment.of("x.txt", new byte[1]))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("invalid key");
        assertThatThrownBy(() -> storage.delete(key)).isInstanceOf(IllegalArgumentException.class);
        assertThat(filesUnder(dir)).isEmpty();
    }

    @Test
    void keysCannotEscapeTheRootThroughASymbolicLink() throws Exception {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        LocalFileUploader storage = new LocalFileUploader(dir.resolve("root"));
        Files.createSymbolicLink(dir.resolve("root/link"), outside);

        assertThatThrownBy(() -> storage.upload(UploadRequest.of("link/x.txt", Attachment.of("x.txt", new byte[1]))))
                .isInstanceOf(IOException.class).hasMessageContaining("symbolic link");
        assertThat(filesUnder(outside)).isEmpty();
    }

    // ---- issue 11, defect 9: local storage follows symlinks out of its root on delete and read -------------

    @Test
    void deleteThroughASymbolicLinkLeavesTheFileOutsideTheRootAlone() throws Exception {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Path victim = Files.writeString(outside.resolve("x"), "not yours");
        LocalFileUploader storage = new LocalFileUploader(dir.resolve("root"));
        Files.createSymbolicLink(dir.resolve("root/link"), outside);

        assertThatThrownBy(() -> storage.delete("link/x")).isInstanceOf(IOException.class)
                .hasMessageContaining("symbolic link");
        assertThat(victim).hasContent("not yours");
    }

    @Test
    void resolveRefusesAKeyThroughASymbolicLinkOrOntoOne() throws Exception {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("secret"), "not yours");
        LocalFileUploader storage = new LocalFileUploader(dir.resolve("root"));
        Files.createSymbolicLink(dir.resolve("root/link"), outside);
        Files.createDirectories(dir.resolve("root/a"));
        Files.createSymbolicLink(dir.resolve("root/a/file.txt"), outside.resolve("secret"));

        assertThatThrownBy(() -> storage.resolve("link/secret")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("symbolic link");
        assertThatThrownBy(() -> storage.resolve("link/not-there/either")).isInstanceOf(
                IllegalArgumentException.class).hasMessageContaining("symbolic link");
        assertThatThrownBy(() -> storage.resolve("a/file.txt")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("symbolic link");
        assertThat(storage.resolve("a/other.txt")).isEqualTo(storage.root().resolve("a/other.txt"));
    }

    @Test
    void uploadThroughASymbolicLinkCreatesNoDirectoryOutsideTheRoot() throws Exception {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        LocalFileUploader storage = new LocalFileUploader(dir.resolve("root"));
        Files.createSymbolicLink(dir.resolve("root/link"), outside);

        assertThatThrownBy(() -> storage.upload(UploadRequest.of("link/new/deep/x.txt",
                Attachment.of("x.txt", new byte[1])))).isInstanceOf(IOException.class);
        assertThat(outside).isEmptyDirectory();
    }

    @Test
    void aSymbolicLinkThatStaysInsideTheRootIsFollowed() throws Exception {
        LocalFileUploader storage = new LocalFileUploader(dir.resolve("root"));
        Path real = Files.createDirectories(storage.root().resolve("real"));
        Files.createSymbolicLink(storage.root().resolve("alias"), real);

        storage.upload(UploadRequest.of("alias/x.txt", Attachment.of("x.txt", new byte[] {7})));

        assertThat(real.resolve("x.txt")).hasBinaryContent(new byte[] {7});
        storage.delete("alias/x.txt");
        assertThat(real.resolve("x.txt")).doesNotExist();
    }

    // ---- issue 11, defect 8: a file stored past the size bound, or cut short ------------------------------

    @Test
    void aFileThatGrewAfterTheCheckIsRefusedNotStoredPastTheLimit() throws Exception {
        Path file = Files.write(dir.resolve("grows.bin"), new byte[5_000]);
        LocalFileUploader storage = new LocalFileUploader(dir.resolve("root"));
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                io.github.boundedupload.UploaderConfig.builder().maxAttachmentSize(10_000)
                        .failurePolicy(io.github.boundedupload.FailurePolicy.COLLECT)
                        .listener(new io.github.boundedupload.spi.UploadListener() {
                            @Override
                            public void batchStarted(io.github.boundedupload.spi.BatchEvent batch) {
                                try {
                                    Files.write(file, new byte[50_000]); // after the check, before the upload
                                } catch (IOException e) {
                                    throw new java.io.UncheckedIOException(e);
                                }
                            }
                        }).build())) {
            BatchResult result = uploader.uploadAll(List.of(Attachment.of(file)));

            assertThat(result.results().get(0).status()).isEqualTo(io.github.boundedupload.UploadResult.Status.FAILED);
            assertThat(result.results().get(0).failure()).get().satisfies(f -> assertThat(f)
                    .hasMessageContaining("more bytes than its declared length (5000)"));
            assertThat(filesUnder(dir.resolve("root"))).isEmpty();
        }
    }

    @Test
    void contentLongerThanDeclaredFailsAndLeavesNothing() throws Exception {
        LocalFileUploader storage = new LocalFileUploader(dir);
        AttachmentContent lying = AttachmentContent.ofStream(() -> new ByteArrayInputStream(new byte[10]), 5);

        assertThatThrownBy(() -> storage.upload(UploadRequest.of("lie.bin", Attachment.of("lie.bin", lying))))
                .isInstanceOf(IOException.class).hasMessageContaining("more bytes than its declared length (5)");
        assertThat(filesUnder(dir)).isEmpty();
    }

    @Test
    void contentShorterThanDeclaredFailsAndLeavesNothing() throws Exception {
        LocalFileUploader storage = new LocalFileUploader(dir);
        AttachmentContent lying = AttachmentContent.ofStream(() -> new ByteArrayInputStream(new byte[3]), 5);

        assertThatThrownBy(() -> storage.upload(UploadRequest.of("short.bin", Attachment.of("short.bin", lying))))
                .isInstanceOf(IOException.class).hasMessageContaining("yielded 3 bytes, not its declared length of 5");
        assertThat(filesUnder(dir)).isEmpty();
    }

    @Test
    void aStreamThatFailsHalfWayLeavesNothing() throws Exception {
        LocalFileUploader storage = new LocalFileUploader(dir);
        AttachmentContent failing = AttachmentContent.ofStream(() -> new InputStream() {
            private int left = 100_000;

            @Override
            public int read() throws IOException {
                if (left <= 0) {
                    throw new IOException("connection reset by client"); // on every call: readers may retry
                }
                left--;
                return 7;
            }
        });

        assertThatThrownBy(() -> storage.upload(UploadRequest.of("half.bin", Attachment.of("half.bin", failing))))
                .hasMessage("connection reset by client");
        assertThat(filesUnder(dir)).isEmpty();
    }

    @Test
    void isTheEmbeddedStorageOfAnUploader() throws Exception {
        Path source = Files.writeString(dir.resolve("notes.txt"), "week 3 notes");
        LocalFileUploader storage = new LocalFileUploader(dir.resolve("uploads"));
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage)) {
            BatchResult result = uploader.uploadAll(List.of(Attachment.of(source),
                    Attachment.of("empty.txt", new byte[0])));

            assertThat(result.storedObjects()).hasSize(2);
            assertThat(storage.resolve(result.storedObjects().get(0).key())).hasContent("week 3 notes");
            assertThat(storage.resolve(result.storedObjects().get(1).key())).isEmptyFile();
            assertThat(result.storedObjects().get(0).key())
                    .matches("\\d{4}/\\d{2}/\\d{2}/[0-9a-f-]{36}-notes\\.txt");
        }
    }
}
