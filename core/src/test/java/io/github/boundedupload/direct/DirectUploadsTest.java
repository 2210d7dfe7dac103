package io.github.boundedupload.direct;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.InvalidAttachmentException;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.micrometer.DirectUploadsMeters;
import io.github.boundedupload.spi.SignRequest;
import io.github.boundedupload.spi.SignedRequest;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.spi.UploadSigner;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Grants, bounds and confirms on the local disk, with a signer that only records what it signed: the "client" writes
 * each file under its staging key itself. What S3 refuses is shown on the servers (s3-adapter: {@code UploadSignerIT},
 * {@code StoredObjectCopyIT}).
 */
class DirectUploadsTest {

    @TempDir
    Path root;
    LocalFileUploader storage;
    ConcurrentAttachmentUploader uploader;
    final List<SignRequest> signed = new CopyOnWriteArrayList<>();
    final UploadSigner signer = new UploadSigner() {
        @Override
        public SignedRequest signPut(SignRequest request) {
            signed.add(request);
            return new SignedRequest("PUT", URI.create("https://storage.test/" + request.key()), Map.of(), Map.of(),
                    Instant.now().plus(request.lifetime()));
        }

        @Override
        public SignedRequest signPost(SignRequest request) {
            signed.add(request);
            return new SignedRequest("POST", URI.create("https://storage.test/"), Map.of(), Map.of("key",
                    request.key()), Instant.now().plus(request.lifetime()));
        }

        @Override
        public OptionalLong storedSize(String key) throws IOException {
            Path file = storage.resolve(key);
            return Files.exists(file) ? OptionalLong.of(Files.size(file)) : OptionalLong.empty();
        }
    };

    @BeforeEach
    void setUp() throws IOException {
        storage = new LocalFileUploader(root);
        uploader = ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder().name("direct")
                .failurePolicy(FailurePolicy.ALL_OR_NOTHING).build());
    }

    @AfterEach
    void tearDown() {
        uploader.close();
    }

    private DirectUploads.Builder direct() {
        return DirectUploads.builder(uploader, signer);
    }

    @Test
    void whatWasGrantedAndSentIsConfirmedUnderTheUploadersKeys() throws IOException {
        DirectUploads direct = direct().build();
        byte[] first = bytes(1, 3_000);
        byte[] second = bytes(2, 5_000);
        List<UploadGrant> grants = direct.grant("alice", List.of(announced("a.png", first),
                FileToUpload.of("b.pdf", second.length, "application/pdf")));

        assertThat(grants).extracting(UploadGrant::stagingKey).allMatch(key -> key.startsWith("staging/"))
                .noneMatch(key -> key.contains("a.png") || key.contains("b.pdf"));
        assertThat(signed).extracting(SignRequest::size).containsExactly(3_000L, 5_000L);
        assertThat(signed.get(0).checksum()).contains(crc32(first));
        assertThat(grants.get(0).signedRequest()).isPresent();
        send(grants.get(0), first);
        send(grants.get(1), second);

        BatchResult result = direct.confirm("alice", ids(grants));

        assertThat(result.allStored()).isTrue();
        List<StoredObject> stored = result.storedObjects();
        assertThat(stored).extracting(StoredObject::key).noneMatch(key -> key.startsWith("staging/"));
        assertThat(Files.readAllBytes(storage.resolve(stored.get(0).key()))).isEqualTo(first);
        assertThat(Files.readAllBytes(storage.resolve(stored.get(1).key()))).isEqualTo(second);
    }

    @Test
    void theConfirmsMetadataReachesTheKeyStrategyAndTheCopy() throws IOException {
        uploader.close();
        uploader = ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder().name("direct")
                .keyStrategy(file -> "studies/" + file.metadata().get("study") + "/" + file.fileName()).build());
        DirectUploads direct = direct().build();
        byte[] content = bytes(4, 100);
        List<UploadGrant> grants = direct.grant("alice", List.of(announced("a.png", content)));
        send(grants.get(0), content);

        BatchResult result = direct.confirm("alice", ids(grants), Map.of("study", "42"));

        assertThat(result.storedObjects()).extracting(StoredObject::key).containsExactly("studies/42/a.png");
        assertThat(Files.readAllBytes(storage.resolve("studies/42/a.png"))).isEqualTo(content);
    }

    @Test
    void confirmingTwiceReportsTheSameObjectsAndCopiesNothingAgain() throws IOException {
        DirectUploads direct = direct().build();
        byte[] content = bytes(3, 1_000);
        List<UploadGrant> grants = direct.grant("alice", List.of(announced("a.png", content)));
        send(grants.get(0), content);

        BatchResult once = direct.confirm("alice", ids(grants));
        BatchResult twice = direct.confirm("alice", ids(grants));

        assertThat(twice.storedObjects()).isEqualTo(once.storedObjects());
        assertThat(objectsOutsideStaging()).hasSize(1);
    }

    @Test
    void anotherCallersGrantOrAnUnknownOneIsRefusedBeforeAnythingIsCopied() throws IOException {
        DirectUploads direct = direct().build();
        byte[] content = bytes(4, 1_000);
        List<UploadGrant> grants = direct.grant("alice", List.of(announced("a.png", content)));
        send(grants.get(0), content);

        assertThatThrownBy(() -> direct.confirm("bob", ids(grants))).isInstanceOf(GrantRefusedException.class)
                .hasMessageContaining("not one of the caller's");
        assertThatThrownBy(() -> direct.confirm("alice", List.of(grants.get(0).id(), "made-up")))
                .isInstanceOf(GrantRefusedException.class).hasMessageContaining("'made-up'");
        assertThat(objectsOutsideStaging()).isEmpty();
        assertThat(direct.confirm("alice", ids(grants)).allStored()).isTrue();
    }

    @Test
    void anObjectUnlikeItsGrantFailsTheConfirmAndTheGrantStaysUnconfirmed() throws IOException {
        DirectUploads direct = direct().build();
        byte[] content = bytes(5, 2_000);
        List<UploadGrant> grants = direct.grant("alice", List.of(announced("a.png", content),
                announced("b.png", content)));
        send(grants.get(0), content);
        send(grants.get(1), bytes(6, 2_000)); // other bytes than announced: its checksum differs

        assertThatThrownBy(() -> direct.confirm("alice", ids(grants))).isInstanceOf(BatchFailedException.class)
                .hasMessageContaining("b.png");
        assertThat(objectsOutsideStaging()).isEmpty();

        send(grants.get(1), content);
        assertThat(direct.confirm("alice", ids(grants)).allStored()).isTrue();
    }

    @Test
    void everyBoundIsRefusedNamingTheFileAndNothingIsGrantedOrSigned() {
        DirectUploads direct = direct().maxFilesPerRequest(2).maxBytesPerFile(1_000).maxBytesPerRequest(1_500)
                .maxOutstandingPerCaller(2).contentTypes(Set.of("image/*", "application/pdf")).build();
        FileToUpload small = FileToUpload.of("small.png", 700, "image/png");

        assertThatThrownBy(() -> direct.grant("alice", List.of(small, small, small)))
                .isInstanceOf(GrantRefusedException.class).hasMessageContaining("a request has 1 to 2 files");
        assertThatThrownBy(() -> direct.grant("alice", List.of(small, FileToUpload.of("big.png", 1_001, "image/png"))))
                .isInstanceOf(GrantRefusedException.class).hasMessageContaining("file 2 'big.png' is 1001 bytes");
        assertThatThrownBy(() -> direct.grant("alice", List.of(small, FileToUpload.of("other.png", 900, "image/png"))))
                .isInstanceOf(GrantRefusedException.class).hasMessageContaining("1600 bytes");
        assertThatThrownBy(() -> direct.grant("alice", List.of(FileToUpload.of("page.html", 10, "text/html"))))
                .isInstanceOf(GrantRefusedException.class).hasMessageContaining("file 1 'page.html'", "text/html");
        assertThatThrownBy(() -> direct.grant("alice", List.of(FileToUpload.of("x.png", 10, "image/png\r\nX: y"))))
                .isInstanceOf(GrantRefusedException.class).hasMessageContaining("file 1 'x.png'");
        assertThatThrownBy(() -> direct.grant("alice", List.of(new FileToUpload("x.png", 10, "image/png", "MD5", "x"))))
                .isInstanceOf(GrantRefusedException.class).hasMessageContaining("file 1 'x.png'", "MD5");
        assertThatThrownBy(() -> direct.grant("alice", List.of(FileToUpload.of("../etc/passwd", 10, "image/png"))))
                .isInstanceOf(InvalidAttachmentException.class).hasMessageContaining("file 1 '../etc/passwd'");
        assertThat(signed).isEmpty();

        direct.grant("alice", List.of(small, small));
        assertThatThrownBy(() -> direct.grant("alice", List.of(small)))
                .isInstanceOf(GrantRefusedException.class).hasMessageContaining("more than the 2 grants");
        assertThat(signed).hasSize(2);
        assertThat(direct.grant("bob", List.of(small))).hasSize(1);

        // Counted for the meters (DirectUploadsMeters), by reason; an invalid name is the uploader's refusal.
        DirectUploads.Stats stats = direct.stats();
        assertThat(stats.granted()).isEqualTo(3);
        assertThat(stats.refused()).containsEntry(GrantRefusedException.Reason.FILES_PER_REQUEST, 1L)
                .containsEntry(GrantRefusedException.Reason.BYTES_PER_FILE, 1L)
                .containsEntry(GrantRefusedException.Reason.BYTES_PER_REQUEST, 1L)
                .containsEntry(GrantRefusedException.Reason.CONTENT_TYPE, 2L)
                .containsEntry(GrantRefusedException.Reason.CHECKSUM, 1L)
                .containsEntry(GrantRefusedException.Reason.OUTSTANDING_PER_CALLER, 1L)
                .containsEntry(GrantRefusedException.Reason.NOT_THE_CALLERS, 0L);
        MeterRegistry registry = new SimpleMeterRegistry();
        new DirectUploadsMeters(direct, "direct").bindTo(registry);
        assertThat(registry.get("bounded.upload.direct.granted").tag("uploader", "direct").functionCounter().count())
                .isEqualTo(3);
        assertThat(registry.get("bounded.upload.direct.refused").tag("reason", "bytes-per-request").functionCounter()
                .count()).isEqualTo(1);
        assertThat(registry.get("bounded.upload.direct.refused").functionCounters())
                .hasSize(GrantRefusedException.Reason.values().length);
    }

    @Test
    void aFormsFileIsConfirmedWithTheSizeFoundUpToItsBound() throws IOException {
        DirectUploads direct = direct().build();
        UploadGrant small = direct.grantForm("alice", FileToUpload.of("avatar.png", 1_000, "image/png"));
        UploadGrant large = direct.grantForm("alice", FileToUpload.of("banner.png", 1_000, "image/png"));
        UploadGrant never = direct.grantForm("alice", FileToUpload.of("never.png", 1_000, "image/png"));
        assertThat(small.form()).isTrue();
        assertThat(small.signedRequest().orElseThrow().method()).isEqualTo("POST");
        assertThat(signed).extracting(SignRequest::size).containsOnly(1_000L);
        send(small, bytes(7, 300));
        send(large, bytes(8, 1_001)); // a storage that does not check the form's bound

        assertThat(direct.confirm("alice", List.of(small.id())).storedObjects().get(0).size()).isEqualTo(300);
        assertThatThrownBy(() -> direct.confirm("alice", List.of(large.id()))).isInstanceOf(BatchFailedException.class)
                .hasMessageContaining("banner.png").cause().hasMessageContaining("1001 bytes, more than the 1000");
        assertThatThrownBy(() -> direct.confirm("alice", List.of(never.id()))).isInstanceOf(BatchFailedException.class)
                .hasMessageContaining("never.png").cause().hasMessageContaining("nothing arrived");
        assertThatThrownBy(() -> direct.grantForm("alice", announced("sum.png", bytes(9, 10))))
                .isInstanceOf(GrantRefusedException.class).hasMessageContaining("sum.png")
                .hasMessageContaining("without one");
    }

    @Test
    void aSecondConfirmOfAGrantWhileTheFirstRunsIsRefusedAndCopiesNothing() throws Exception {
        CountDownLatch copying = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        UploadListener holds = new UploadListener() {
            @Override
            public void uploadStarted(UploadEvent upload, Duration queued) {
                copying.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        try (ConcurrentAttachmentUploader held = ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder()
                .name("held").listener(holds).build())) {
            DirectUploads direct = DirectUploads.builder(held, signer).build();
            byte[] content = bytes(10, 1_000);
            UploadGrant grant = direct.grant("alice", List.of(announced("once.png", content))).get(0);
            send(grant, content);
            CompletableFuture<BatchResult> first = CompletableFuture.supplyAsync(() -> direct.confirm("alice",
                    List.of(grant.id())));
            assertThat(copying.await(30, TimeUnit.SECONDS)).isTrue();

            assertThatThrownBy(() -> direct.confirm("alice", List.of(grant.id())))
                    .isInstanceOf(GrantRefusedException.class).hasMessageContaining("being confirmed by another");
            release.countDown();

            String key = first.get(30, TimeUnit.SECONDS).storedObjects().get(0).key();
            assertThat(objectsOutsideStaging()).containsExactly(storage.resolve(key));
            assertThat(direct.confirm("alice", List.of(grant.id())).storedObjects().get(0).key()).isEqualTo(key);
        }
    }

    @Test
    void aStagingPrefixOverTheUploadersOwnKeysIsRefused() {
        try (ConcurrentAttachmentUploader under = ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder()
                .name("under").keyStrategy(KeyStrategy.datedUuid("photos")).build())) {
            assertThatThrownBy(() -> DirectUploads.builder(under, signer).stagingPrefix("photos/").build())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'photos/'");
            assertThat(DirectUploads.builder(under, signer).build()).isNotNull();
        }
    }

    private void send(UploadGrant grant, byte[] bytes) throws IOException {
        Path file = storage.resolve(grant.stagingKey());
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }

    private List<Path> objectsOutsideStaging() throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).filter(f -> !root.relativize(f).startsWith("staging")).toList();
        }
    }

    private static List<String> ids(List<UploadGrant> grants) {
        List<String> ids = new ArrayList<>();
        grants.forEach(grant -> ids.add(grant.id()));
        return ids;
    }

    private static FileToUpload announced(String name, byte[] content) {
        return new FileToUpload(name, content.length, "image/png", "CRC32", crc32(content));
    }

    private static String crc32(byte[] content) {
        CRC32 crc = new CRC32();
        crc.update(content);
        return Base64.getEncoder().encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }

    private static byte[] bytes(int seed, int size) {
        byte[] bytes = new byte[size];
        new java.util.Random(seed).nextBytes(bytes);
        return bytes;
    }
}
