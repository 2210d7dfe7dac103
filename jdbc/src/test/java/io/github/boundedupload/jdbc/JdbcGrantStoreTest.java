package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.direct.DirectUploads;
import io.github.boundedupload.direct.FileToUpload;
import io.github.boundedupload.direct.GrantRefusedException;
import io.github.boundedupload.direct.UploadGrant;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.spi.SignRequest;
import io.github.boundedupload.spi.SignedRequest;
import io.github.boundedupload.spi.UploadSigner;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Grants as rows (H2, the local disk): two instances share a caller's bound and each other's grants; a confirm in the
 * caller's transaction that rolls back leaves its grants unconfirmed and its copies removed; the staging prefix is
 * reconciled. (PostgreSQL and MariaDB,
 * and each form of the schema: {@code MigrationsIT}, {@code MariaDbIT}.)
 */
class JdbcGrantStoreTest {

    @TempDir
    Path root;
    private JdbcDataSource database;
    private LocalFileUploader storage;
    private JdbcUploadJournal one;
    private JdbcUploadJournal two;
    private ConcurrentAttachmentUploader uploaderOne;
    private ConcurrentAttachmentUploader uploaderTwo;

    static final UploadSigner SIGNER = new UploadSigner() {
        @Override
        public SignedRequest signPut(SignRequest request) {
            return new SignedRequest("PUT", URI.create("https://storage.test/put"), Map.of(), Map.of(),
                    Instant.now().plus(request.lifetime()));
        }

        @Override
        public SignedRequest signPost(SignRequest request) {
            throw new UnsupportedOperationException();
        }
    };

    @BeforeEach
    void setUp() throws Exception {
        database = new JdbcDataSource();
        database.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        storage = new LocalFileUploader(root);
        one = journal("one");
        two = journal("two");
        // A short batch timeout: a rolled-back batch's lease, after which the journal removes its objects, is short.
        uploaderOne = ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder().name("one")
                .journal(one).batchTimeout(Duration.ofSeconds(2)).stopTimeout(Duration.ofMillis(200))
                .rollbackDeadline(Duration.ofMillis(100)).build());
        uploaderTwo = ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder().name("two")
                .journal(two).build());
    }

    private JdbcUploadJournal journal(String name) {
        return JdbcUploadJournal.builder(database, storage).instanceName(name).createTables(true)
                .keepMargin(Duration.ZERO).pollingInterval(Duration.ofMillis(200)).build();
    }

    @AfterEach
    void tearDown() {
        uploaderOne.close();
        uploaderTwo.close();
        one.close();
        two.close();
    }

    private DirectUploads direct(ConcurrentAttachmentUploader uploader, JdbcUploadJournal journal) {
        return DirectUploads.builder(uploader, SIGNER).grants(JdbcGrantStore.of(journal)).maxOutstandingPerCaller(2)
                .build();
    }

    @Test
    void instancesShareACallersBoundAndConfirmEachOthersGrants() throws Exception {
        DirectUploads first = direct(uploaderOne, one);
        DirectUploads second = direct(uploaderTwo, two);
        List<UploadGrant> grants = first.grant("alice", List.of(FileToUpload.of("a.txt", 1, "text/plain")));
        second.grant("alice", List.of(FileToUpload.of("b.txt", 1, "text/plain")));

        assertThatThrownBy(() -> second.grant("alice", List.of(FileToUpload.of("c.txt", 1, "text/plain"))))
                .isInstanceOf(GrantRefusedException.class).hasMessageContaining("more than the 2 grants");
        assertThat(first.grant("bob", List.of(FileToUpload.of("d.txt", 1, "text/plain")))).hasSize(1);

        send(grants.get(0), "a");
        List<String> ids = List.of(grants.get(0).id());
        assertThatThrownBy(() -> second.confirm("bob", ids)).isInstanceOf(GrantRefusedException.class);
        BatchResult confirmed = second.confirm("alice", ids);
        assertThat(confirmed.allStored()).isTrue();
        assertThat(storage.resolve(grants.get(0).stagingKey())).as("staged, then confirmed outside a transaction")
                .doesNotExist();
        // What the row keeps: key, size, checksum (not the location: the store keeps no URL).
        assertThat(first.confirm("alice", ids).storedObjects()).singleElement().satisfies(again -> {
            StoredObject stored = confirmed.storedObjects().get(0);
            assertThat(again.key()).isEqualTo(stored.key());
            assertThat(again.size()).isEqualTo(stored.size());
            assertThat(again.checksum()).isEqualTo(stored.checksum());
        });
        assertThat(second.grant("alice", List.of(FileToUpload.of("c.txt", 1, "text/plain"))))
                .as("a confirmed grant counts no more").hasSize(1);
    }

    @Test
    void aFormsGrantKeepsItsKindInItsRowAndAnotherInstanceConfirmsTheSizeFound() throws Exception {
        UploadSigner forms = new UploadSigner() {
            @Override
            public SignedRequest signPut(SignRequest request) {
                throw new UnsupportedOperationException();
            }

            @Override
            public SignedRequest signPost(SignRequest request) {
                return new SignedRequest("POST", URI.create("https://storage.test/"), Map.of(), Map.of("key",
                        request.key()), Instant.now().plus(request.lifetime()));
            }

            @Override
            public OptionalLong storedSize(String key) throws IOException {
                Path file = storage.resolve(key);
                return Files.exists(file) ? OptionalLong.of(Files.size(file)) : OptionalLong.empty();
            }
        };
        DirectUploads first = DirectUploads.builder(uploaderOne, forms).grants(JdbcGrantStore.of(one)).build();
        DirectUploads second = DirectUploads.builder(uploaderTwo, forms).grants(JdbcGrantStore.of(two)).build();
        UploadGrant grant = first.grantForm("carol", FileToUpload.of("avatar.png", 1_000, "image/png"));
        assertThat(grant.signedRequest().orElseThrow().fields()).containsEntry("key", grant.stagingKey());
        send(grant, "seven b"); // 7 of the 1,000 bytes the form allows

        BatchResult confirmed = second.confirm("carol", List.of(grant.id()));

        StoredObject stored = confirmed.storedObjects().get(0);
        assertThat(stored.size()).isEqualTo(7);
        assertThat(Files.readString(storage.resolve(stored.key()))).isEqualTo("seven b");
    }

    @Test
    void aConfirmRolledBackWithItsTransactionLeavesTheGrantUnconfirmedAndNoCopy() throws Exception {
        DirectUploads direct = direct(uploaderOne, one);
        List<UploadGrant> grants = direct.grant("alice", List.of(FileToUpload.of("a.txt", 1, "text/plain")));
        send(grants.get(0), "a");
        List<String> ids = List.of(grants.get(0).id());

        StoredObject copy;
        try (Connection tx = database.getConnection()) {
            tx.setAutoCommit(false);
            copy = JdbcUploadJournal.inTransaction(tx, () -> direct.confirm("alice", ids)).storedObjects().get(0);
            tx.rollback();
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> !Files.exists(storage.resolve(copy.key())));
        assertThat(storage.resolve(grants.get(0).stagingKey())).as("kept for a confirm that commits").exists();
        StoredObject again = direct.confirm("alice", ids).storedObjects().get(0);
        assertThat(again.key()).isNotEqualTo(copy.key());
        assertThat(storage.resolve(again.key())).hasContent("a");
        assertThat(storage.resolve(grants.get(0).stagingKey())).doesNotExist();
    }

    @Test
    void theStagingPrefixIsReconciledWhatNoGrantCanCoverGoesTheRestStays() throws Exception {
        JdbcGrantStore store = JdbcGrantStore.of(one, Duration.ofSeconds(1));
        DirectUploads direct = DirectUploads.builder(uploaderOne, SIGNER).grants(store).lifetime(Duration.ofHours(1))
                .build();
        UploadGrant live = direct.grant("alice", List.of(FileToUpload.of("a.txt", 1, "text/plain"))).get(0);
        send(live, "a");
        Path orphan = write("staging/never-granted", Instant.now().minus(Duration.ofHours(2)));
        Path young = write("staging/just-put", Instant.now());
        Path elsewhere = write("kept/old", Instant.now().minus(Duration.ofHours(2)));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new JournalMeters(one, Duration.ZERO).withGrants(store).bindTo(registry);

        await().atMost(Duration.ofSeconds(20)).until(() -> !Files.exists(orphan));

        assertThat(young).exists();
        assertThat(elsewhere).exists();
        assertThat(storage.resolve(live.stagingKey())).as("its grant lives").exists();
        assertThat(registry.get("bounded.upload.direct.staging.removed").functionCounter().count()).isEqualTo(1);
        // Written longer ago than the lifetime and the longest request (1 h 1 s): nothing can cover it any more.
        Files.setLastModifiedTime(young, FileTime.from(Instant.now().minus(Duration.ofHours(1)).minusSeconds(5)));
        await().atMost(Duration.ofSeconds(20)).until(() -> !Files.exists(young));
        assertThat(store.removedObjects()).isEqualTo(2);
    }

    private Path write(String key, Instant written) throws Exception {
        Path file = storage.resolve(key);
        Files.createDirectories(file.getParent());
        Files.writeString(file, key, StandardCharsets.UTF_8);
        Files.setLastModifiedTime(file, FileTime.from(written));
        return file;
    }

    private void send(UploadGrant grant, String content) throws Exception {
        Path file = storage.resolve(grant.stagingKey());
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }
}
