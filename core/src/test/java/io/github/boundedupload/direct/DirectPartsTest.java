package io.github.boundedupload.direct;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.spi.SignRequest;
import io.github.boundedupload.spi.SignedParts;
import io.github.boundedupload.spi.SignedRequest;
import io.github.boundedupload.spi.UploadSigner;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files sent in parts, on the local disk, with a signer that plays a storage of multipart uploads: its parts are files
 * the "client" writes, completing concatenates them under the staging key. What S3 does with real parts is shown on
 * the servers (s3-adapter: {@code DirectUploadsIT}; jdbc: {@code OrphanScenarios}, {@code DirectCrashIT}).
 */
class DirectPartsTest {

    static final long PART = DirectUploads.MIN_PART_SIZE;

    @TempDir
    Path root;
    @TempDir
    Path partsDir;
    LocalFileUploader storage;
    ConcurrentAttachmentUploader uploader;
    final List<Long> partSizes = new CopyOnWriteArrayList<>();
    final Set<String> started = ConcurrentHashMap.newKeySet();
    final Set<String> aborted = ConcurrentHashMap.newKeySet();
    volatile int failSigningAt = -1;

    final UploadSigner signer = new UploadSigner() {
        @Override
        public SignedRequest signPut(SignRequest request) {
            return new SignedRequest("PUT", URI.create("https://storage.test/" + request.key()), Map.of(), Map.of(),
                    Instant.now().plus(request.lifetime()));
        }

        @Override
        public SignedRequest signPost(SignRequest request) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean signsParts() {
            return true;
        }

        @Override
        public SignedParts signParts(SignRequest request, long partSize) throws IOException {
            if (started.size() == failSigningAt) {
                throw new IOException("the storage refused to start an upload");
            }
            String uploadId = "upload-" + started.size();
            started.add(uploadId);
            partSizes.add(partSize);
            List<SignedRequest> parts = new ArrayList<>();
            for (long n = 1; (n - 1) * partSize < request.size(); n++) {
                parts.add(new SignedRequest("PUT", URI.create("https://storage.test/" + uploadId + "/" + n), Map.of(),
                        Map.of(), Instant.now().plus(request.lifetime())));
            }
            return new SignedParts(uploadId, partSize, parts);
        }

        @Override
        public void completeParts(String key, String uploadId, long size) throws IOException {
            Path target = storage.resolve(key);
            Files.createDirectories(target.getParent());
            try (OutputStream out = Files.newOutputStream(target)) {
                for (int n = 1; Files.exists(partsDir.resolve(uploadId + "-" + n)); n++) {
                    out.write(Files.readAllBytes(partsDir.resolve(uploadId + "-" + n)));
                }
            }
            if (Files.size(target) != size) {
                Files.delete(target);
                throw new IOException("part 2 of the multipart upload is missing");
            }
        }

        @Override
        public void abortParts(String key, String uploadId) {
            aborted.add(uploadId);
        }
    };

    @BeforeEach
    void setUp() throws IOException {
        storage = new LocalFileUploader(root);
        uploader = uploader(FailurePolicy.ALL_OR_NOTHING);
    }

    @AfterEach
    void tearDown() {
        uploader.close();
    }

    private ConcurrentAttachmentUploader uploader(FailurePolicy policy) {
        return ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder().name("parts").failurePolicy(policy)
                .maxAttachmentSize(Long.MAX_VALUE / 4).build());
    }

    private DirectUploads.Builder direct(ConcurrentAttachmentUploader through) {
        return DirectUploads.builder(through, signer).partsAbove(PART + 1).partSize(PART)
                .maxBytesPerRequest(Long.MAX_VALUE / 4);
    }

    @Test
    void aFileAboveTheThresholdGetsPartsAndIsCompletedThenCopied() throws IOException {
        DirectUploads direct = direct(uploader).build();
        byte[] large = bytes(1, (int) (2 * PART + 10));
        byte[] small = bytes(2, 100);
        List<UploadGrant> grants = direct.grant("alice", List.of(FileToUpload.of("large.bin", large.length,
                "application/octet-stream"), FileToUpload.of("small.bin", small.length, "application/octet-stream")));

        assertThat(grants.get(0).signedParts()).hasValueSatisfying(parts -> assertThat(parts.parts()).hasSize(3));
        assertThat(grants.get(0).signedRequest()).isEmpty();
        assertThat(grants.get(0).uploadId()).isEqualTo("upload-0");
        assertThat(grants.get(1).signedRequest()).isPresent();
        assertThat(grants.get(1).uploadId()).isNull();
        sendParts(grants.get(0), large, 1, 2, 3);
        send(grants.get(1), small);

        BatchResult result = direct.confirm("alice", List.of(grants.get(0).id(), grants.get(1).id()));

        assertThat(Files.readAllBytes(storage.resolve(result.storedObjects().get(0).key()))).isEqualTo(large);
        assertThat(Files.readAllBytes(storage.resolve(result.storedObjects().get(1).key()))).isEqualTo(small);
        assertThat(aborted).isEmpty();
    }

    @Test
    void aFileOfMoreThanTenThousandPartsGetsLargerParts() {
        DirectUploads direct = direct(uploader).build();
        long size = 20_000 * PART + 1;

        direct.grant("alice", List.of(FileToUpload.of("archive.tar", size, "application/x-tar")));

        assertThat(partSizes).containsExactly((size + Granting.MAX_PARTS - 1) / Granting.MAX_PARTS);
    }

    @Test
    void anIncompleteUploadFailsTheWholeConfirmUnderAllOrNothingNamingTheFile() throws IOException {
        DirectUploads direct = direct(uploader).build();
        byte[] large = bytes(3, (int) (2 * PART));
        byte[] small = bytes(4, 100);
        List<UploadGrant> grants = direct.grant("alice", List.of(FileToUpload.of("small.bin", small.length,
                "application/octet-stream"), FileToUpload.of("large.bin", large.length, "application/octet-stream")));
        send(grants.get(0), small);
        sendParts(grants.get(1), large, 1); // part 2 never sent

        assertThatThrownBy(() -> direct.confirm("alice", List.of(grants.get(0).id(), grants.get(1).id())))
                .isInstanceOf(BatchFailedException.class).hasMessageContaining("large.bin")
                .satisfies(e -> assertThat(((BatchFailedException) e).result().results())
                        .extracting(UploadResult::status)
                        .containsExactly(UploadResult.Status.CANCELLED, UploadResult.Status.FAILED));
        assertThat(objectsOutsideStaging()).isEmpty();

        sendParts(grants.get(1), large, 2); // the client sends what was missing, and confirms again
        assertThat(direct.confirm("alice", List.of(grants.get(0).id(), grants.get(1).id())).allStored()).isTrue();
    }

    @Test
    void anIncompleteUploadFailsOnlyItsFileWhenTheUploaderCollects() throws IOException {
        try (ConcurrentAttachmentUploader collecting = uploader(FailurePolicy.COLLECT)) {
            DirectUploads direct = direct(collecting).build();
            byte[] large = bytes(5, (int) (2 * PART));
            byte[] small = bytes(6, 100);
            List<UploadGrant> grants = direct.grant("alice", List.of(FileToUpload.of("large.bin", large.length,
                    "application/octet-stream"), FileToUpload.of("small.bin", small.length,
                    "application/octet-stream")));
            sendParts(grants.get(0), large, 1);
            send(grants.get(1), small);

            BatchResult result = direct.confirm("alice", List.of(grants.get(0).id(), grants.get(1).id()));

            assertThat(result.results()).extracting(UploadResult::status).containsExactly(UploadResult.Status.FAILED,
                    UploadResult.Status.STORED);
            assertThat(result.results().get(0).failure()).hasValueSatisfying(failure -> assertThat(failure)
                    .hasMessageContaining("large.bin").hasMessageContaining("part 2"));
        }
    }

    @Test
    void grantsNotKeptAbortTheUploadsTheyStarted() {
        DirectUploads bounded = direct(uploader).maxOutstandingPerCaller(1).build();
        FileToUpload large = FileToUpload.of("large.bin", 3 * PART, "application/octet-stream");

        assertThatThrownBy(() -> bounded.grant("alice", List.of(large, large))).isInstanceOf(GrantRefusedException.class);
        assertThat(aborted).isEqualTo(started).hasSize(2);

        failSigningAt = 3; // the second upload of the next request cannot be started: the first is aborted
        DirectUploads direct = direct(uploader).build();
        assertThatThrownBy(() -> direct.grant("bob", List.of(large, large)))
                .hasMessageContaining("could not start the multipart upload of").hasMessageContaining("large.bin");
        assertThat(aborted).containsExactlyInAnyOrder("upload-0", "upload-1", "upload-2");
    }

    @Test
    void aFileInPartsWithAChecksumIsRefusedByName() {
        DirectUploads direct = direct(uploader).build();

        assertThatThrownBy(() -> direct.grant("alice", List.of(new FileToUpload("large.bin", 2 * PART,
                "application/octet-stream", "SHA256", "x")))).isInstanceOf(GrantRefusedException.class)
                .hasMessageContaining("large.bin").hasMessageContaining("without a checksum");
        assertThat(started).isEmpty();
    }

    private void sendParts(UploadGrant grant, byte[] content, int... numbers) throws IOException {
        SignedParts parts = grant.signedParts().orElseThrow();
        for (int n : numbers) {
            int from = (int) ((n - 1) * parts.partSize());
            int to = (int) Math.min(content.length, from + parts.partSize());
            Files.write(partsDir.resolve(parts.uploadId() + "-" + n), Arrays.copyOfRange(content, from, to));
        }
    }

    private void send(UploadGrant grant, byte[] bytes) throws IOException {
        Path file = storage.resolve(grant.stagingKey());
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }

    private List<Path> objectsOutsideStaging() throws IOException {
        try (var files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).filter(f -> !root.relativize(f).startsWith("staging")).toList();
        }
    }

    private static byte[] bytes(int seed, int size) {
        byte[] bytes = new byte[size];
        new java.util.Random(seed).nextBytes(bytes);
        return bytes;
    }
}
