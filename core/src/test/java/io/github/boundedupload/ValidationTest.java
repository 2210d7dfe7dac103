package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.boundedupload.InvalidAttachmentException.Problem;
import io.github.boundedupload.fakes.FakeStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad input gets a clear error naming the attachment, before any upload starts: nothing is half-done. */
class ValidationTest {

    private final FakeStorage storage = new FakeStorage();
    private final ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
            UploaderConfig.builder().maxAttachmentSize(1_000).maxAttachmentsPerBatch(5).maxQueuedUploads(5)
                    .keyStrategy(KeyStrategy.fileName("files")).build());

    @AfterEach
    void nothingWasStarted() {
        uploader.close();
        assertThat(storage.started).isEmpty();
        assertThat(storage.objects).isEmpty();
    }

    private InvalidAttachmentException refused(List<Attachment> batch) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> uploader.uploadAll(batch));
        assertThat(thrown).isInstanceOf(InvalidAttachmentException.class);
        return (InvalidAttachmentException) thrown;
    }

    private static Attachment good(String name) {
        return Attachment.of(name, new byte[10]);
    }

    @Test
    void aNullBatchIsRefused() {
        assertThatThrownBy(() -> uploader.uploadAll(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("attachments");
        assertThat(uploader.uploadAllAsync(null)).isCompletedExceptionally();
    }

    @Test
    void anEmptyBatchGivesAnEmptyResult() {
        assertThat(uploader.uploadAll(List.of()).results()).isEmpty();
        assertThat(uploader.uploadAllAsync(List.of()).join().results()).isEmpty();
    }

    @Test
    void aNullAttachmentIsNamedByItsPosition() {
        InvalidAttachmentException e = refused(Arrays.asList(good("a.txt"), null, good("b.txt")));

        assertThat(e).hasMessage("invalid attachment: file 2: the attachment is null");
        assertThat(e.problems()).singleElement().satisfies(p -> {
            assertThat(p.index()).isEqualTo(1);
            assertThat(p.kind()).isEqualTo(Problem.Kind.NULL_ATTACHMENT);
            assertThat(p.fileName()).isEmpty();
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "../etc/passwd", "a/b.png", "a\\b.png", "..", ".", "report..pdf",
            "nul\u0000.png", "line\nbreak.txt", "invoice\u202Efdp.exe", "tab\t.txt"})
    void aDangerousOrBlankFileNameIsRefused(String name) {
        InvalidAttachmentException e = refused(List.of(good("fine.txt"), good(name)));

        assertThat(e.problems()).singleElement().satisfies(p -> {
            assertThat(p.index()).isEqualTo(1);
            assertThat(p.kind()).isEqualTo(Problem.Kind.FILE_NAME);
            assertThat(p.fileName()).contains(name);
            assertThat(p.reason()).startsWith("the file name ");
        });
        assertThat(e.getMessage()).doesNotContain("\n", "\u0000", "\u202E", "\t");
    }

    @Test
    void theMessageNamesEveryOffendingAttachmentWithItsReason() {
        InvalidAttachmentException e = refused(List.of(good("ok.txt"), good("a/b.png"),
                Attachment.of("big.bin", new byte[1_001]), good("ok2.txt")));

        assertThat(e).hasMessage("2 invalid attachments: file 2 'a/b.png': the file name contains '/'; "
                + "file 3 'big.bin': it is 1001 bytes, and a file may have at most 1000");
        assertThat(e.problems()).extracting(Problem::kind).containsExactly(Problem.Kind.FILE_NAME,
                Problem.Kind.TOO_LARGE);
        assertThat(e.problems()).extracting(p -> p.fileName().orElseThrow()).containsExactly("a/b.png", "big.bin");
    }

    @Test
    void tooManyAttachmentsAreRefused() {
        List<Attachment> batch = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            batch.add(good("f" + i + ".txt"));
        }
        InvalidAttachmentException e = refused(batch);
        assertThat(e).hasMessage("invalid attachment: there are 6 files, and at most 5 are taken at once");
        assertThat(e.problems()).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(Problem.Kind.TOO_MANY_ATTACHMENTS);
            assertThat(p.index()).isEqualTo(-1);
        });
    }

    @Test
    void duplicateKeysAreRefused() {
        InvalidAttachmentException e = refused(List.of(good("same.png"), good("other.png"), good("same.png")));

        assertThat(e).hasMessage("invalid attachment: file 3 'same.png': its key 'files/same.png' is also the key of file 1");
        assertThat(e.problems()).extracting(Problem::kind).containsExactly(Problem.Kind.DUPLICATE_KEY);
    }

    @Test
    void explicitKeysAreCheckedToo() {
        InvalidAttachmentException e = refused(List.of(
                good("a.txt").toBuilder().key("../../etc/passwd").build(),
                good("b.txt").toBuilder().key("/abs/key").build(),
                good("c.txt").toBuilder().key("a//b").build(),
                good("d.txt").toBuilder().key("x".repeat(1025)).build()));

        assertThat(e.problems()).extracting(Problem::reason).containsExactly(
                "the key has a '..' segment", "the key starts with '/'", "the key has an empty segment",
                "the key is longer than 1024 bytes");
    }

    @Test
    void explicitKeysAreBoundedByUtf8BytesPerSegmentAndInAll() {
        InvalidAttachmentException e = refused(List.of(
                good("a.txt").toBuilder().key("ok/" + "가".repeat(86)).build(),          // 258 bytes in a segment
                good("b.txt").toBuilder().key(("가".repeat(80) + "/").repeat(5)).build(), // 1,205 bytes in all
                good("c.txt").toBuilder().key("ok/" + "가".repeat(85)).build()));         // 255: fine

        assertThat(e.problems()).extracting(Problem::index).containsExactly(0, 1);
        assertThat(e).hasMessageContaining("file 1 'a.txt': a segment of the key is 258 bytes, more than the 255")
                .hasMessageContaining("file 2 'b.txt': the key is longer than 1024 bytes");
    }

    @Test
    void anEightyFourCharacterHangulNameOf244BytesIsStoredOnTheLocalDisk(@TempDir Path dir) throws Exception {
        try (ConcurrentAttachmentUploader local = ConcurrentAttachmentUploader.create(
                new io.github.boundedupload.local.LocalFileUploader(dir), UploaderConfig.builder()
                        .keyStrategy(KeyStrategy.datedUuid("attachments")).build())) {
            BatchResult result = local.uploadAll(List.of(Attachment.of("가".repeat(80) + ".png", new byte[3])));

            assertThat(result.allStored()).isTrue();
            assertThat(dir.resolve(result.results().get(0).key())).hasBinaryContent(new byte[3]);
        }
    }

    @Test
    void aFileThatDoesNotExistIsRefusedWithoutRevealingThePath(@TempDir Path dir) {
        Path missing = dir.resolve("secret-server-path").resolve("photo.png");

        InvalidAttachmentException e = refused(List.of(Attachment.of(missing)));

        assertThat(e).hasMessage("invalid attachment: file 1 'photo.png': its file does not exist or cannot be read");
        assertThat(e.problems()).extracting(Problem::kind).containsExactly(Problem.Kind.UNREADABLE);
    }

    @Test
    void aFileLargerThanTheMaximumIsRefusedBeforeReadingIt(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("large.bin"), new byte[2_000]);

        assertThat(refused(List.of(Attachment.of(file)))).hasMessageContaining(
                "file 1 'large.bin': it is 2000 bytes, and a file may have at most 1000");
    }

    @Test
    void invalidMetadataIsRefused() {
        InvalidAttachmentException e = refused(List.of(
                good("a.txt").toBuilder().metadata("has space", "v").build(),
                good("b.txt").toBuilder().metadata("ok", "line\nbreak").build(),
                good("c.txt").toBuilder().metadata("Owner", "a").metadata("owner", "b").build(),
                good("d.txt").toBuilder().metadata("big", "x".repeat(3_000)).build()));

        assertThat(e.problems()).extracting(Problem::reason).containsExactly(
                "metadata name 'has space' is not letters, digits, '-' and '_'",
                "metadata 'ok' has a control character in its value",
                "metadata name 'owner' appears twice (names ignore case)",
                "its metadata is 3003 bytes, more than 2048");
    }

    @Test
    void aKeyStrategyThatFailsIsReportedForItsAttachment() {
        ConcurrentAttachmentUploader failing = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().keyStrategy(a -> {
                    throw new IllegalStateException("no tenant");
                }).build());
        try (failing) {
            assertThatThrownBy(() -> failing.uploadAll(List.of(good("a.txt"))))
                    .hasMessage("invalid attachment: file 1 'a.txt': the key strategy failed: IllegalStateException:"
                            + " no tenant");
        }
    }
}
