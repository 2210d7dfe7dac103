package io.github.boundedupload.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.direct.DirectUploads;
import io.github.boundedupload.direct.FileToUpload;
import io.github.boundedupload.direct.UploadGrant;
import io.github.boundedupload.spi.SignRequest;
import io.github.boundedupload.spi.SignedRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Direct uploads to the local disk: what {@link LocalUploadSigner} signs, it receives as S3 would a presigned PUT, and
 * refuses what is not as signed, storing nothing; and the whole flow of {@link DirectUploads} on it, a SHA-256
 * announced, checked again by the confirm's copy.
 */
class LocalUploadSignerTest {

    private static final byte[] SECRET = "a secret of thirty-two bytes, at least".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path root;
    LocalFileUploader storage;
    MutableClock clock = new MutableClock(Instant.parse("2026-11-28T12:00:00Z"));
    LocalUploadSigner signer;

    @BeforeEach
    void setUp() throws IOException {
        storage = new LocalFileUploader(root);
        signer = LocalUploadSigner.create(storage, "/uploads", SECRET, clock);
    }

    @Test
    void whatWasSignedIsReceivedAndStoredUnderTheKey() throws IOException {
        byte[] content = "week 3".getBytes(StandardCharsets.UTF_8);
        SignedRequest put = signer.signPut(SignRequest.builder("staging/a", content.length, "text/plain")
                .checksum("SHA256", sha256(content)).lifetime(Duration.ofMinutes(10)).build());

        assertThat(put.method()).isEqualTo("PUT");
        assertThat(put.url().getPath()).isEqualTo("/uploads");
        assertThat(put.headers()).containsEntry("Content-Type", "text/plain");
        assertThat(put.expiresAt()).isEqualTo(Instant.parse("2026-11-28T12:10:00Z"));
        signer.receive(query(put), "text/plain", content.length, new ByteArrayInputStream(content));

        assertThat(Files.readAllBytes(storage.resolve("staging/a"))).isEqualTo(content);
    }

    @Test
    void whatIsNotAsSignedIsRefusedAndNothingIsStored() {
        byte[] content = "week 3".getBytes(StandardCharsets.UTF_8);
        SignedRequest put = signer.signPut(SignRequest.builder("staging/a", content.length, "text/plain")
                .checksum("SHA256", sha256(content)).build());
        Map<String, String> query = query(put);

        Map<String, String> larger = new LinkedHashMap<>(query);
        larger.put("size", "600");
        assertRefused(() -> signer.receive(larger, "text/plain", 600, new ByteArrayInputStream(new byte[600])), 403,
                "signature does not match");
        Map<String, String> elsewhere = new LinkedHashMap<>(query);
        elsewhere.put("key", "studies/1/a");
        assertRefused(() -> signer.receive(elsewhere, "text/plain", 6, new ByteArrayInputStream(content)), 403,
                "signature");
        assertRefused(() -> signer.receive(query, "text/plain", 7, new ByteArrayInputStream(new byte[7])), 400,
                "7 bytes, not the 6 signed");
        assertRefused(() -> signer.receive(query, "text/html", 6, new ByteArrayInputStream(content)), 400,
                "content type");
        byte[] other = "week 4".getBytes(StandardCharsets.UTF_8);
        assertRefused(() -> signer.receive(query, "text/plain", 6, new ByteArrayInputStream(other)), 400,
                "SHA256 checksum");
        assertThatThrownBy(() -> signer.receive(query, "text/plain", 6, new ByteArrayInputStream(new byte[3])))
                .as("a body shorter than its length").isInstanceOf(IOException.class);
        clock.now = clock.now.plus(Duration.ofMinutes(11));
        assertRefused(() -> signer.receive(query, "text/plain", 6, new ByteArrayInputStream(content)), 403,
                "expired");

        assertThat(storage.resolve("staging/a")).doesNotExist();
        assertThat(storage.resolve("studies/1/a")).doesNotExist();
    }

    @Test
    void anotherSecretSignsOtherUrls() {
        LocalUploadSigner other = LocalUploadSigner.create(storage, "/uploads");
        SignedRequest put = other.signPut(SignRequest.builder("staging/a", 1, "text/plain").build());

        assertRefused(() -> signer.receive(query(put), "text/plain", 1, new ByteArrayInputStream(new byte[1])), 403,
                "signature");
        assertThatThrownBy(() -> LocalUploadSigner.create(storage, "/uploads", new byte[16], clock))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("32 bytes");
    }

    @Test
    void directUploadsGrantReceiveAndConfirmOnTheLocalDisk() throws IOException {
        byte[] content = "sent by the browser".getBytes(StandardCharsets.UTF_8);
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("local-direct").build())) {
            DirectUploads direct = DirectUploads.builder(uploader, signer).build();
            UploadGrant grant = direct.grant("alice", List.of(new FileToUpload("notes.txt", content.length,
                    "text/plain", "SHA256", sha256(content)))).get(0);
            SignedRequest put = grant.signedRequest().orElseThrow();
            signer.receive(query(put), "text/plain", content.length, new ByteArrayInputStream(content));

            BatchResult confirmed = direct.confirm("alice", List.of(grant.id()));

            assertThat(confirmed.allStored()).isTrue();
            assertThat(Files.readAllBytes(storage.resolve(confirmed.storedObjects().get(0).key()))).isEqualTo(content);
        }
    }

    @Test
    void theConfirmsCopyChecksTheAnnouncedSha256() throws IOException {
        byte[] content = "sent by the browser".getBytes(StandardCharsets.UTF_8);
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("local-direct").build())) {
            DirectUploads direct = DirectUploads.builder(uploader, signer).build();
            UploadGrant grant = direct.grant("alice", List.of(new FileToUpload("notes.txt", content.length,
                    "text/plain", "SHA256", sha256("something else".getBytes(StandardCharsets.UTF_8))))).get(0);
            Path staged = storage.resolve(grant.stagingKey()); // written past the signer: only the copy checks it
            Files.createDirectories(staged.getParent());
            Files.write(staged, content);

            assertThatThrownBy(() -> direct.confirm("alice", List.of(grant.id())))
                    .hasStackTraceContaining("SHA256 checksum is " + sha256(content));
        }
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, int status,
            String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(LocalUploadSigner.RefusedException.class,
                e -> assertThat(e.status()).isEqualTo(status)).hasMessageContaining(message);
    }

    private static Map<String, String> query(SignedRequest put) {
        Map<String, String> query = new LinkedHashMap<>();
        for (String pair : put.url().getRawQuery().split("&")) {
            String[] kv = pair.split("=", 2);
            query.put(kv[0], URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
        }
        return query;
    }

    private static String sha256(byte[] content) {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static final class MutableClock extends Clock {
        volatile Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
