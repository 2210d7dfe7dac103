package io.github.boundedupload.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.ListedObject;
import io.github.boundedupload.spi.UploadRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What every {@link FileUploader} does, as tests: extend it, give it the uploader and a way to read the store
 * directly, and every implementation is held to the same behaviour. Every check reads the store through
 * {@link #read(String)}, never trusts the uploader's own word.
 *
 * <p>One test per promise of the contract, in one class, so that a storage proves all of them by extending one thing;
 * the content that goes wrong on purpose is made elsewhere. Changes when the contract makes a new promise.
 *
 * <pre>{@code
 * class LocalFileUploaderContractTest extends FileUploaderContract {
 *     @TempDir static Path root;
 *     protected FileUploader uploader() { return new LocalFileUploader(root); }
 *     protected Optional<byte[]> read(String key) { ... Files.readAllBytes(root.resolve(key)) ... }
 * }
 * }</pre>
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public abstract class FileUploaderContract {

    /** How long the eventual checks of cancelled uploads may take. */
    protected static final Duration SETTLE = Duration.ofSeconds(20);

    /** A directory for test files, fresh for every test. */
    @TempDir
    protected Path tempDir;

    /** For subclasses. */
    protected FileUploaderContract() {
    }

    /**
     * The uploader under test. Called once or more per test; may return the same instance every time.
     *
     * @return the uploader
     */
    protected abstract FileUploader uploader();

    /**
     * Reads what the store itself holds under a key, without going through the uploader.
     *
     * @param key the key
     * @return the stored bytes, or empty when nothing is stored under the key
     * @throws Exception when the store cannot be read
     */
    protected abstract Optional<byte[]> read(String key) throws Exception;

    /**
     * Whether the store itself holds an object under a key. By default {@code read(key).isPresent()}.
     *
     * @param key the key
     * @return whether an object is stored
     * @throws Exception when the store cannot be read
     */
    protected boolean exists(String key) throws Exception {
        return read(key).isPresent();
    }

    /**
     * The size of the "large" content of {@link #storesLargeFile()} and {@link #storesLargeStreamOfUnknownLength()}.
     * Override it to exceed the implementation's multipart threshold, so that the contract covers that path too.
     *
     * @return the size in bytes
     */
    protected long largeSize() {
        return 3L * 1024 * 1024 + 1;
    }

    /**
     * A key of this test run: unique, so that tests never see each other's objects.
     *
     * @param fileName the file name the key ends with
     * @return a new key
     */
    protected String newKey(String fileName) {
        return "contract/" + UUID.randomUUID() + "-" + KeyStrategy.sanitize(fileName);
    }

    /**
     * Uploads through {@link #uploader()}.
     *
     * @param key the key
     * @param attachment the attachment
     * @return the uploader's result
     * @throws IOException as the uploader throws it
     */
    protected StoredObject upload(String key, Attachment attachment) throws IOException {
        return uploader().upload(UploadRequest.of(key, attachment));
    }

    private byte[] stored(String key) throws Exception {
        Optional<byte[]> bytes = read(key);
        assertThat(bytes).as("object stored under %s", key).isPresent();
        return bytes.orElseThrow();
    }

    @Test
    void storesBytes() throws Exception {
        byte[] bytes = TestData.bytes(1, 10_000);
        String key = newKey("bytes.bin");
        StoredObject stored = upload(key, Attachment.of("bytes.bin", bytes));
        assertThat(stored.key()).isEqualTo(key);
        assertThat(stored.size()).isEqualTo(bytes.length);
        assertThat(stored(key)).isEqualTo(bytes);
    }

    @Test
    void storesFile() throws Exception {
        Path file = TestData.file(tempDir.resolve("file.bin"), 2, 300_000);
        String key = newKey("file.bin");
        StoredObject stored = upload(key, Attachment.of(file));
        assertThat(stored.size()).isEqualTo(300_000);
        assertThat(stored(key)).isEqualTo(Files.readAllBytes(file));
    }

    @Test
    void storesStreamOfKnownLength() throws Exception {
        AtomicInteger opened = new AtomicInteger();
        AttachmentContent content = AttachmentContent.ofStream(() -> {
            opened.incrementAndGet();
            return TestData.stream(3, 200_000);
        }, 200_000);
        String key = newKey("known.bin");
        StoredObject stored = upload(key, Attachment.of("known.bin", content));
        assertThat(stored.size()).isEqualTo(200_000);
        assertThat(stored(key)).isEqualTo(TestData.bytes(3, 200_000));
        assertThat(opened).hasPositiveValue();
    }

    @Test
    void storesStreamOfUnknownLength() throws Exception {
        String key = newKey("unknown.bin");
        StoredObject stored = upload(key, Attachment.of("unknown.bin",
                AttachmentContent.ofStream(() -> TestData.stream(4, 123_457))));
        assertThat(stored.size()).isEqualTo(123_457);
        assertThat(stored(key)).isEqualTo(TestData.bytes(4, 123_457));
    }

    @Test
    void storesPublishedContent() throws Exception {
        AtomicInteger opened = new AtomicInteger();
        AttachmentContent content = AttachmentContent.ofPublisher(() -> {
            opened.incrementAndGet();
            return TestData.publisher(13, 300_001);
        }, 300_001);
        String key = newKey("published.bin");
        StoredObject stored = upload(key, Attachment.of("published.bin", content));
        assertThat(stored.size()).isEqualTo(300_001);
        assertThat(stored(key)).isEqualTo(TestData.bytes(13, 300_001));
        assertThat(opened).hasPositiveValue();
    }

    @Test
    void storesLargePublishedContent() throws Exception {
        long size = largeSize();
        String key = newKey("large-published.bin");
        StoredObject stored = upload(key, Attachment.of("large-published.bin",
                AttachmentContent.ofPublisher(() -> TestData.publisher(14, size), size)));
        assertThat(stored.size()).isEqualTo(size);
        assertThat(TestData.sha256(stored(key))).isEqualTo(TestData.sha256(TestData.stream(14, size)));
    }

    @Test
    void storesLargeFile() throws Exception {
        long size = largeSize();
        Path file = TestData.file(tempDir.resolve("large.bin"), 5, size);
        String key = newKey("large.bin");
        StoredObject stored = upload(key, Attachment.of(file));
        assertThat(stored.size()).isEqualTo(size);
        assertThat(TestData.sha256(stored(key))).isEqualTo(TestData.sha256(file));
    }

    @Test
    void storesLargeBytes() throws Exception {
        byte[] bytes = TestData.bytes(12, Math.toIntExact(largeSize()));
        String key = newKey("large-bytes.bin");
        StoredObject stored = upload(key, Attachment.of("large-bytes.bin", bytes));
        assertThat(stored.size()).isEqualTo(bytes.length);
        assertThat(TestData.sha256(stored(key))).isEqualTo(TestData.sha256(bytes));
    }

    @Test
    void storesLargeStreamOfUnknownLength() throws Exception {
        long size = largeSize();
        String key = newKey("large-unknown.bin");
        StoredObject stored = upload(key, Attachment.of("large-unknown.bin",
                AttachmentContent.ofStream(() -> TestData.stream(6, size))));
        assertThat(stored.size()).isEqualTo(size);
        assertThat(TestData.sha256(stored(key))).isEqualTo(TestData.sha256(TestData.stream(6, size)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bytes", "file", "known-length stream", "unknown-length stream", "publisher"})
    void storesEmptyContent(String kind) throws Exception {
        Path empty = Files.createFile(tempDir.resolve("empty.txt"));
        AttachmentContent content = switch (kind) {
            case "bytes" -> AttachmentContent.ofBytes(new byte[0]);
            case "file" -> AttachmentContent.ofPath(empty);
            case "known-length stream" -> AttachmentContent.ofStream(() -> InputStream.nullInputStream(), 0);
            case "publisher" -> AttachmentContent.ofPublisher(() -> TestData.publisher(0, 0), 0);
            default -> AttachmentContent.ofStream(() -> InputStream.nullInputStream());
        };
        String key = newKey("empty.txt");
        StoredObject stored = upload(key, Attachment.of("empty.txt", content));
        assertThat(stored.size()).isZero();
        assertThat(stored(key)).isEmpty();
    }

    @Test
    void overwriteReplacesTheObject() throws Exception {
        String key = newKey("twice.txt");
        upload(key, Attachment.of("twice.txt", "first, and longer".getBytes(StandardCharsets.UTF_8)));
        StoredObject second = upload(key, Attachment.of("twice.txt", "second".getBytes(StandardCharsets.UTF_8)));
        assertThat(second.size()).isEqualTo(6);
        assertThat(new String(stored(key), StandardCharsets.UTF_8)).isEqualTo("second");
    }

    @Test
    void deleteRemovesTheObject() throws Exception {
        String key = newKey("doomed.txt");
        upload(key, Attachment.of("doomed.txt", new byte[] {1, 2, 3}));
        assertThat(exists(key)).isTrue();
        uploader().delete(key);
        assertThat(exists(key)).isFalse();
    }

    @Test
    void deletingAMissingKeyIsNotAnError() throws Exception {
        String key = newKey("never-stored.txt");
        assertThatCode(() -> uploader().delete(key)).doesNotThrowAnyException();
        assertThat(exists(key)).isFalse();
    }

    @Test
    void resultCarriesKeySizeAndChecksum() throws Exception {
        byte[] bytes = "checksum me".getBytes(StandardCharsets.UTF_8);
        String key = newKey("sum.txt");
        StoredObject stored = upload(key, Attachment.of("sum.txt", bytes));
        assertThat(stored.key()).isEqualTo(key);
        assertThat(stored.size()).isEqualTo(bytes.length);
        assertThat(stored.checksumAlgorithm()).isPresent();
        String expected = BrokenContent.checksum(stored.checksumAlgorithm().orElseThrow(), bytes);
        if (expected != null) {
            assertThat(stored.checksum()).contains(expected);
        } else {
            assertThat(stored.checksum()).hasValueSatisfying(value -> assertThat(value).isNotBlank());
        }
    }

    @Test
    void contentLongerThanDeclaredFailsAndStoresNothing() throws Exception {
        String key = newKey("longer.bin");
        AttachmentContent liar = AttachmentContent.ofStream(() -> TestData.stream(7, 1001), 1000);
        assertThatThrownBy(() -> upload(key, Attachment.of("longer.bin", liar))).isNotNull();
        assertThat(exists(key)).isFalse();
    }

    @Test
    void contentShorterThanDeclaredFailsAndStoresNothing() throws Exception {
        String key = newKey("shorter.bin");
        AttachmentContent liar = AttachmentContent.ofStream(() -> TestData.stream(8, 999), 1000);
        assertThatThrownBy(() -> upload(key, Attachment.of("shorter.bin", liar))).isNotNull();
        assertThat(exists(key)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(ints = {999, 1001})
    void publishedContentOfAnotherLengthThanDeclaredFailsAndStoresNothing(int actual) throws Exception {
        String key = newKey("published-liar.bin");
        AttachmentContent liar = AttachmentContent.ofPublisher(() -> TestData.publisher(15, actual), 1000);
        assertThatThrownBy(() -> upload(key, Attachment.of("published-liar.bin", liar))).isNotNull();
        assertThat(exists(key)).isFalse();
    }

    @Test
    void aPublisherThatFailsFailsTheUploadAndStoresNothing() throws Exception {
        String key = newKey("published-broken.bin");
        AttachmentContent broken = AttachmentContent.ofPublisher(() -> BrokenContent.publisherFailingAt(3), 100_000);
        assertThatThrownBy(() -> upload(key, Attachment.of("published-broken.bin", broken))).isNotNull();
        assertThat(exists(key)).isFalse();
    }

    @Test
    void contentThatCannotBeReadFailsAndStoresNothing() throws Exception {
        String key = newKey("broken.bin");
        AttachmentContent broken = AttachmentContent.ofStream(() -> BrokenContent.failingAfter(5000), 10_000);
        assertThatThrownBy(() -> upload(key, Attachment.of("broken.bin", broken))).isNotNull();
        assertThat(exists(key)).isFalse();
    }

    @Test
    void copiesAStoredObjectAndLeavesTheSource() throws Exception {
        byte[] bytes = TestData.bytes(16, 200_000);
        StoredObject source = upload(newKey("staged.bin"), Attachment.of("staged.bin", bytes));
        String key = newKey("copy.bin");
        StoredObject copied = upload(key, Attachment.of("copy.bin", AttachmentContent.ofStoredObject(source)));
        assertThat(copied.key()).isEqualTo(key);
        assertThat(copied.size()).isEqualTo(bytes.length);
        assertThat(stored(key)).isEqualTo(bytes);
        assertThat(stored(source.key())).isEqualTo(bytes);
    }

    @Test
    void listsTheObjectsUnderAPrefixInKeyOrderPageByPage() throws Exception {
        String prefix = "contract/listed-" + UUID.randomUUID() + "/";
        Instant before = Instant.now().minusSeconds(60);
        for (String name : new String[] {"b.bin", "a.bin", "c/d.bin"}) {
            upload(prefix + name, Attachment.of(name, TestData.bytes(18, 100 + name.length())));
        }
        upload(prefix.substring(0, prefix.length() - 1) + "-elsewhere.bin", Attachment.of("x.bin", new byte[] {1}));

        List<ListedObject> all = uploader().list(prefix, null, 10);

        assertThat(all).extracting(ListedObject::key).containsExactly(prefix + "a.bin", prefix + "b.bin",
                prefix + "c/d.bin");
        assertThat(all).extracting(ListedObject::size).containsExactly(105L, 105L, 107L);
        assertThat(all).allSatisfy(o -> assertThat(o.lastModified()).isAfter(before));
        assertThat(uploader().list(prefix, prefix + "a.bin", 1)).extracting(ListedObject::key)
                .containsExactly(prefix + "b.bin");
        assertThat(uploader().list(prefix + "nothing/", null, 10)).isEmpty();
    }

    /** A stored object unlike its description is refused before anything is written, with the reason. */
    @ParameterizedTest
    @ValueSource(strings = {"another size", "another checksum", "no object"})
    void refusesAStoredObjectUnlikeItsDescription(String unlike) throws Exception {
        StoredObject source = upload(newKey("staged.bin"), Attachment.of("staged.bin", TestData.bytes(17, 5_000)));
        String algorithm = source.checksumAlgorithm().orElseThrow();
        StoredObject described = switch (unlike) {
            case "another size" -> StoredObject.builder(source.key(), 5_001).build();
            case "another checksum" -> StoredObject.builder(source.key(), 5_000)
                    .checksum(algorithm, Objects.requireNonNull(BrokenContent.checksum(algorithm, new byte[] {1}))).build();
            default -> StoredObject.builder(newKey("never-stored.bin"), 5_000).build();
        };
        String key = newKey("copy.bin");
        assertThatThrownBy(() -> upload(key, Attachment.of("copy.bin", AttachmentContent.ofStoredObject(described))))
                .hasMessageContaining(unlike.equals("no object") ? "no object" : unlike.equals("another size")
                        ? "5000 bytes" : "checksum");
        assertThat(exists(key)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"스터디 3주차 자료.pdf", "résumé final.docx", "e\u0301te\u0301.txt", "emoji 😀 photo.png",
            "日本語のファイル名.txt"})
    void storesUnicodeFileNames(String fileName) throws Exception {
        Attachment attachment = Attachment.of(fileName, fileName.getBytes(StandardCharsets.UTF_8));
        String key = KeyStrategy.datedUuid("contract").keyFor(attachment);
        StoredObject stored = upload(key, attachment);
        assertThat(stored.key()).isEqualTo(key);
        assertThat(new String(stored(key), StandardCharsets.UTF_8)).isEqualTo(fileName);
    }

    @Test
    void interruptStopsTheUploadAndStoresNothing() throws Exception {
        String key = newKey("slow.bin");
        CountDownLatch reading = new CountDownLatch(1);
        AttachmentContent slow = AttachmentContent.ofStream(() -> BrokenContent.stalling(64 * 1024, reading),
                2_000_000);
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            Future<StoredObject> upload = thread.submit(() -> upload(key, Attachment.of("slow.bin", slow)));
            assertThat(reading.await(60, TimeUnit.SECONDS)).as("the uploader started reading").isTrue();
            upload.cancel(true);
            thread.shutdown();
            assertThat(thread.awaitTermination(30, TimeUnit.SECONDS)).as("the upload stopped").isTrue();
        } finally {
            thread.shutdownNow();
        }
        await().atMost(SETTLE).untilAsserted(() -> assertThat(exists(key)).isFalse());
    }
}
