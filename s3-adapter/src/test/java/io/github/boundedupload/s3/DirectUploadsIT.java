package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.direct.DirectUploads;
import io.github.boundedupload.direct.FileToUpload;
import io.github.boundedupload.direct.GrantRefusedException;
import io.github.boundedupload.direct.UploadGrant;
import io.github.boundedupload.spi.SignedParts;
import io.github.boundedupload.spi.SignedRequest;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Issue 48 end to end on a real server, the client being an HTTP client that sends what it was granted: the
 * confirmed objects are exactly the granted ones (size, checksum), under the uploader's keys; an object that is not
 * what was announced (another length, which LocalStack takes) is refused by the confirm, and nothing is kept.
 */
class DirectUploadsIT {

    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucket("direct");
    static final S3TestServices services = S3TestServices.get();
    static final HttpClient http = HttpClient.newHttpClient();
    static S3Client client;
    static S3Presigner presigner;
    static ConcurrentAttachmentUploader uploader;
    static DirectUploads direct;
    static final long PART_SIZE = 5L * 1024 * 1024;
    static final long PARTS_ABOVE = 6L * 1024 * 1024;

    @BeforeAll
    static void setUp() {
        client = services.s3ClientBuilder(services.s3Endpoint()).build();
        presigner = S3Presigner.builder().region(services.region()).credentialsProvider(services.credentials())
                .endpointOverride(services.s3Endpoint())
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build()).build();
        uploader = ConcurrentAttachmentUploader.create(S3FileUploader.builder(client, s3.bucket().name()).build(),
                UploaderConfig.builder().name("direct").failurePolicy(FailurePolicy.ALL_OR_NOTHING)
                        .keyStrategy(KeyStrategy.datedUuid("confirmed")).build());
        direct = DirectUploads.builder(uploader, S3UploadSigner.builder(presigner, s3.bucket().name()).client(client)
                .forms(services.credentials(), services.region()).build()).partsAbove(PARTS_ABOVE).partSize(PART_SIZE)
                .build();
    }

    @AfterAll
    static void tearDown() {
        uploader.close();
        presigner.close();
        client.close();
    }

    @Test
    void theConfirmedObjectsAreExactlyTheGrantedOnes() throws Exception {
        List<byte[]> files = List.of(TestData.bytes(1, 30_000), TestData.bytes(2, 1), TestData.bytes(3, 250_000));
        List<FileToUpload> announced = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            announced.add(new FileToUpload("photo-" + i + ".png", files.get(i).length, "image/png", "CRC32",
                    crc32(files.get(i))));
        }
        List<UploadGrant> grants = direct.grant("alice", announced);
        for (int i = 0; i < files.size(); i++) {
            assertThat(send(grants.get(i).signedRequest().orElseThrow(), files.get(i))).isEqualTo(200);
        }

        BatchResult result = direct.confirm("alice", grants.stream().map(UploadGrant::id).toList());

        assertThat(result.allStored()).isTrue();
        List<StoredObject> stored = result.storedObjects();
        for (int i = 0; i < files.size(); i++) {
            assertThat(stored.get(i).key()).startsWith("confirmed");
            assertThat(s3.bucket().read(stored.get(i).key())).contains(files.get(i));
            assertThat(s3.bucket().head(stored.get(i).key()).orElseThrow().checksumCRC32())
                    .isEqualTo(crc32(files.get(i)));
        }
        assertThat(s3.bucket().keys("confirmed")).filteredOn(key -> key.contains("-photo-"))
                .containsExactlyInAnyOrderElementsOf(stored.stream().map(StoredObject::key).toList());
    }

    @Test
    void anObjectOfAnotherLengthThanGrantedIsNeverConfirmed() throws Exception {
        byte[] content = TestData.bytes(4, 10_000);
        List<UploadGrant> grants = direct.grant("bob", List.of(FileToUpload.of("a.png", content.length,
                "image/png")));
        String id = grants.get(0).id();

        int status = send(grants.get(0).signedRequest().orElseThrow(), TestData.bytes(4, 10_001));

        // versitygw refuses the PUT (the signature binds the length); LocalStack takes it: the confirm refuses it.
        assertThat(status).isEqualTo(services.server().checksPresignedUrls() ? 403 : 200);
        assertThatThrownBy(() -> direct.confirm("bob", List.of(id))).isInstanceOf(BatchFailedException.class)
                .hasMessageContaining("a.png");
        assertThat(s3.bucket().keys("confirmed")).noneMatch(key -> key.endsWith("a.png"));
    }

    @Test
    void aFileAboveTheThresholdGoesInPartsSentInAnyOrderAndIsCompletedByTheConfirm() throws Exception {
        byte[] content = TestData.bytes(5, (int) (2 * PART_SIZE + 1_000_000));
        UploadGrant grant = direct.grant("carol", List.of(FileToUpload.of("film.mov", content.length, "video/quicktime")))
                .get(0);

        SignedParts parts = grant.signedParts().orElseThrow();
        assertThat(grant.signedRequest()).isEmpty();
        assertThat(parts.parts()).hasSize(3);
        assertThat(parts.partSize()).isEqualTo(PART_SIZE);
        assertThat(s3.bucket().incompleteUploads()).anyMatch(u -> u.uploadId().equals(parts.uploadId()));
        List<Integer> statuses = new ArrayList<>();
        for (int part : new int[] {3, 1, 2}) {
            statuses.add(sendPart(parts, part, content));
        }
        assertThat(statuses).containsOnly(200);

        BatchResult result = direct.confirm("carol", List.of(grant.id()));

        StoredObject stored = result.storedObjects().get(0);
        assertThat(stored.key()).startsWith("confirmed").endsWith("film.mov");
        assertThat(s3.bucket().read(stored.key())).contains(content);
        assertThat(s3.bucket().incompleteUploads()).noneMatch(u -> u.uploadId().equals(parts.uploadId()));
        // A second confirm reports the same object, and completes nothing again.
        assertThat(direct.confirm("carol", List.of(grant.id())).storedObjects().get(0).key()).isEqualTo(stored.key());
    }

    @Test
    void aMissingPartIsNamedByTheConfirmAndTheClientCanSendItAndConfirmAgain() throws Exception {
        byte[] content = TestData.bytes(6, (int) (PART_SIZE + 2_000_000));
        UploadGrant grant = direct.grant("dave", List.of(FileToUpload.of("scan.tiff", content.length, "image/tiff")))
                .get(0);
        SignedParts parts = grant.signedParts().orElseThrow();
        assertThat(sendPart(parts, 2, content)).isEqualTo(200);

        assertThatThrownBy(() -> direct.confirm("dave", List.of(grant.id()))).isInstanceOf(BatchFailedException.class)
                .hasMessageContaining("scan.tiff").cause().hasMessageContaining("part 1 of the multipart upload is"
                        + " missing");
        assertThat(s3.bucket().keys("confirmed")).noneMatch(key -> key.endsWith("scan.tiff"));

        assertThat(sendPart(parts, 1, content)).isEqualTo(200);
        StoredObject stored = direct.confirm("dave", List.of(grant.id())).storedObjects().get(0);
        assertThat(s3.bucket().read(stored.key())).contains(content);
    }

    @Test
    void aPartOfAnotherLengthIsRefusedByTheServerOrByTheConfirm() throws Exception {
        // Above the threshold, its last part 1,010 bytes: the part sent one byte longer is small, so that the server
        // answers its refusal after the body, not while the client is still sending it (a connection closed mid-body).
        DirectUploads tight = DirectUploads.builder(uploader, S3UploadSigner.builder(presigner, s3.bucket().name())
                .client(client).build()).partsAbove(PART_SIZE).partSize(PART_SIZE).build();
        byte[] content = TestData.bytes(7, (int) (PART_SIZE + 1_010));
        UploadGrant grant = tight.grant("erin", List.of(FileToUpload.of("long.wav", content.length, "audio/wav")))
                .get(0);
        SignedParts parts = grant.signedParts().orElseThrow();
        assertThat(parts.parts()).hasSize(2);
        byte[] longer = TestData.bytes(7, (int) (content.length - PART_SIZE + 1));

        int status = send(parts.parts().get(1), longer);

        // versitygw refuses the part (its signature binds the length); LocalStack takes it: the confirm refuses it.
        assertThat(status).isEqualTo(services.server().checksPresignedUrls() ? 403 : 200);
        assertThat(sendPart(parts, 1, content)).isEqualTo(200);
        assertThatThrownBy(() -> tight.confirm("erin", List.of(grant.id()))).isInstanceOf(BatchFailedException.class)
                .hasMessageContaining("long.wav");
        assertThat(s3.bucket().keys("confirmed")).noneMatch(key -> key.endsWith("long.wav"));
    }

    @Test
    void aGrantNotKeptAbortsTheMultipartUploadsItStarted() {
        DirectUploads bounded = DirectUploads.builder(uploader, S3UploadSigner.builder(presigner, s3.bucket().name())
                .client(client).build()).stagingPrefix("bounded-staging/").maxOutstandingPerCaller(1)
                .partsAbove(PARTS_ABOVE).partSize(PART_SIZE).build();
        FileToUpload large = FileToUpload.of("big.bin", 3 * PART_SIZE, "application/octet-stream");

        assertThatThrownBy(() -> bounded.grant("frank", List.of(large, large)))
                .isInstanceOf(GrantRefusedException.class).hasMessageContaining("nothing was granted");

        assertThat(s3.bucket().incompleteUploads()).noneMatch(u -> u.key().startsWith("bounded-staging/"));
    }

    @Test
    void aFileInPartsIsAnnouncedWithoutAChecksumAndOneBeyondWhatAPutStoresNeedsParts() {
        assertThatThrownBy(() -> direct.grant("gina", List.of(new FileToUpload("huge.iso", PARTS_ABOVE + 1,
                "application/octet-stream", "CRC32", "AAAAAA==")))).isInstanceOf(GrantRefusedException.class)
                .hasMessageContaining("huge.iso").hasMessageContaining("without a checksum");
        long eightGiB = 8L * 1024 * 1024 * 1024;
        try (ConcurrentAttachmentUploader large = ConcurrentAttachmentUploader.create(S3FileUploader.builder(client,
                s3.bucket().name()).build(), UploaderConfig.builder().name("large").maxAttachmentSize(eightGiB)
                .build())) {
            DirectUploads withoutParts = DirectUploads.builder(large, S3UploadSigner.builder(presigner,
                    s3.bucket().name()).build()).maxBytesPerRequest(eightGiB).build();
            assertThatThrownBy(() -> withoutParts.grant("gina", List.of(FileToUpload.of("huge.iso",
                    S3UploadSigner.LARGEST_PUT + 1, "application/octet-stream"))))
                    .isInstanceOf(GrantRefusedException.class).hasMessageContaining("huge.iso")
                    .hasMessageContaining("signs no multipart uploads");
        }
    }

    @Test
    void aFormsFileIsConfirmedWithTheSizeFoundAndALargerOneIsRefusedByTheServer() throws Exception {
        byte[] content = TestData.bytes(8, 30_000);
        UploadGrant grant = direct.grantForm("hana", FileToUpload.of("avatar.png", 100_000, "image/png"));
        UploadGrant tooLarge = direct.grantForm("hana", FileToUpload.of("banner.png", 100_000, "image/png"));

        assertThat(post(grant.signedRequest().orElseThrow(), content)).isEqualTo(204);
        assertThat(post(tooLarge.signedRequest().orElseThrow(), TestData.bytes(9, 100_001))).isBetween(400, 499);

        StoredObject stored = direct.confirm("hana", List.of(grant.id())).storedObjects().get(0);
        assertThat(stored.size()).isEqualTo(content.length);
        assertThat(s3.bucket().read(stored.key())).contains(content);
        assertThatThrownBy(() -> direct.confirm("hana", List.of(tooLarge.id())))
                .isInstanceOf(BatchFailedException.class).hasMessageContaining("banner.png").cause()
                .hasMessageContaining("nothing arrived");
    }

    /** Sends the form as a browser does: its fields in order, then the file. */
    private static int post(SignedRequest form, byte[] file) throws Exception {
        String boundary = "----bounded-upload-" + System.nanoTime();
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        for (java.util.Map.Entry<String, String> field : form.fields().entrySet()) {
            body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + field.getKey()
                    + "\"\r\n\r\n" + field.getValue() + "\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\""
                + "\r\nContent-Type: image/png\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        body.writeBytes(file);
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(form.url())
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build();
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** Sends part {@code number} (1-based) of the content. */
    private static int sendPart(SignedParts parts, int number, byte[] content) throws Exception {
        int from = (int) ((number - 1) * parts.partSize());
        int to = (int) Math.min(content.length, from + parts.partSize());
        return send(parts.parts().get(number - 1), Arrays.copyOfRange(content, from, to));
    }

    private static int send(SignedRequest signed, byte[] body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(signed.url())
                .method(signed.method(), HttpRequest.BodyPublishers.ofByteArray(body));
        signed.headers().forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static String crc32(byte[] content) {
        CRC32 crc = new CRC32();
        crc.update(content);
        return Base64.getEncoder().encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }
}
