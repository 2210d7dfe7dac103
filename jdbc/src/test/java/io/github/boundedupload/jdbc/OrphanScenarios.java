package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.direct.DirectUploads;
import io.github.boundedupload.direct.FileToUpload;
import io.github.boundedupload.direct.UploadGrant;
import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.s3.S3UploadSigner;
import io.github.boundedupload.spi.SignedParts;
import io.github.boundedupload.spi.SignedRequest;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import io.github.boundedupload.testsupport.TestData;
import io.github.boundedupload.testsupport.TestProxy;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Issue 48's orphan cases on a real S3 server, the clients' requests through a real Toxiproxy: a grant never used, an
 * object uploaded and never confirmed, a file sent in parts whose upload is never completed, a confirm rolled back with its transaction, and a PUT so slow (a bandwidth toxic)
 * that it lands after its grant expired. Afterwards the bucket holds exactly the confirmed object, and no incomplete
 * multipart upload. One class per server, each in a JVM of its own ({@code OrphansOnLocalStackIT},
 * {@code OrphansOnVersitygwIT}). A process killed between the upload and the confirm, and around them:
 * {@link DirectCrashIT}.
 */
abstract class OrphanScenarios {

    static final HttpClient http = HttpClient.newHttpClient();
    static final long PART_SIZE = 5L * 1024 * 1024;

    static void selectServer(String id) {
        System.setProperty("bounded-upload.s3-server", id);
    }

    @Test
    void whatIsNeverConfirmedOrRolledBackOrLandsLateIsRemovedAndOnlyTheConfirmedObjectStays() throws Exception {
        S3TestServices services = S3TestServices.get();
        JdbcDataSource database = new JdbcDataSource();
        database.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        try (TestBucket bucket = services.createBucket("orphans");
                TestProxy proxy = services.createProxy("orphans");
                TestProxy slowProxy = services.createProxy("orphans-slow");
                S3Presigner presigner = presigner(services, proxy);
                S3Presigner slowPresigner = presigner(services, slowProxy)) {
            S3FileUploader storage = S3FileUploader.builder(services.s3Client(), bucket.name()).build();
            try (JdbcUploadJournal journal = JdbcUploadJournal.builder(database, storage).instanceName("orphans")
                    .createTables(true).keepMargin(Duration.ZERO).pollingInterval(Duration.ofMillis(200)).build();
                    ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                            UploaderConfig.builder().name("orphans").journal(journal)
                                    .batchTimeout(Duration.ofSeconds(2)).stopTimeout(Duration.ofMillis(200))
                                    .build())) {
                // Requests live 3 s, and may run 3 s more: what was written 6 s ago is nobody's any more.
                JdbcGrantStore store = JdbcGrantStore.of(journal, Duration.ofSeconds(3));
                DirectUploads direct = DirectUploads.builder(uploader, S3UploadSigner.builder(presigner,
                        bucket.name()).client(services.s3Client()).build()).grants(store)
                        .lifetime(Duration.ofSeconds(3)).partsAbove(PART_SIZE).partSize(PART_SIZE).build();
                DirectUploads slowly = DirectUploads.builder(uploader, S3UploadSigner.builder(slowPresigner,
                        bucket.name()).build()).grants(store).lifetime(Duration.ofSeconds(3)).build();
                byte[] small = TestData.bytes(1, 1_000);
                byte[] slow = TestData.bytes(2, 150_000);
                List<UploadGrant> grants = direct.grant("alice", List.of(FileToUpload.of("never-used.png", 10,
                        "image/png"), FileToUpload.of("never-confirmed.png", small.length, "image/png"),
                        FileToUpload.of("rolled-back.png", small.length, "image/png"),
                        FileToUpload.of("confirmed.png", small.length, "image/png"),
                        FileToUpload.of("parts-never-completed.bin", 2 * PART_SIZE + 1, "application/octet-stream")));
                UploadGrant slowGrant = slowly.grant("alice", List.of(FileToUpload.of("slow.png", slow.length,
                        "image/png"))).get(0);

                // 25 KB/s through its own proxy: 6 s for the slow one, started before its grant expires, ending after.
                slowProxy.toxiproxy().toxics().bandwidth("slow", ToxicDirection.UPSTREAM, 25);
                CompletableFuture<HttpResponse<Void>> late = send(slowGrant.signedRequest().orElseThrow(), slow);
                for (int i = 1; i <= 3; i++) {
                    assertThat(send(grants.get(i).signedRequest().orElseThrow(), small).join().statusCode())
                            .isEqualTo(200);
                }
                // One part of three, and never a confirm: the multipart upload stays incomplete until it is aborted.
                SignedParts parts = grants.get(4).signedParts().orElseThrow();
                assertThat(send(parts.parts().get(0), TestData.bytes(3, (int) PART_SIZE)).join().statusCode())
                        .isEqualTo(200);
                assertThat(bucket.incompleteUploads()).hasSize(1);
                try (Connection tx = database.getConnection()) {
                    tx.setAutoCommit(false);
                    JdbcUploadJournal.inTransaction(tx, () -> direct.confirm("alice", List.of(grants.get(2).id())));
                    tx.rollback();
                }
                StoredObject confirmed = direct.confirm("alice", List.of(grants.get(3).id())).storedObjects().get(0);
                assertThat(late.join().statusCode()).as("the slow PUT was taken").isEqualTo(200);
                assertThat(Instant.now()).as("it landed after its grant expired").isAfter(slowGrant.expiresAt());

                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                        .untilAsserted(() -> {
                            assertThat(bucket.keys()).containsExactly(confirmed.key());
                            assertThat(bucket.incompleteUploads()).isEmpty();
                        });
                assertThat(bucket.read(confirmed.key())).contains(small);
                assertThat(store.removedObjects()).as("3 staging objects removed, 1 upload aborted").isEqualTo(4);
            }
        }
    }

    private static S3Presigner presigner(S3TestServices services, TestProxy proxy) {
        return S3Presigner.builder().region(services.region()).credentialsProvider(services.credentials())
                .endpointOverride(proxy.endpoint())
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build()).build();
    }

    private static CompletableFuture<HttpResponse<Void>> send(SignedRequest signed, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(signed.url())
                .method(signed.method(), HttpRequest.BodyPublishers.ofByteArray(body));
        signed.headers().forEach(request::header);
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.discarding());
    }
}
