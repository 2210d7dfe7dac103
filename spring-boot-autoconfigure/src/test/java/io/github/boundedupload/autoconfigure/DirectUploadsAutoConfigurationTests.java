package io.github.boundedupload.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.BatchResult;
import io.github.boundedupload.direct.DirectUploads;
import io.github.boundedupload.direct.FileToUpload;
import io.github.boundedupload.direct.GrantRefusedException;
import io.github.boundedupload.direct.UploadGrant;
import io.github.boundedupload.jdbc.JdbcGrantStore;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.local.LocalUploadSigner;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.SignRequest;
import io.github.boundedupload.spi.SignedRequest;
import io.github.boundedupload.spi.UploadSigner;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code bounded-upload.direct.*}: a ready {@code DirectUploads} on the uploader, the journal's grant store and the
 * storage's signer (here the application's own, on the local disk), its settings applied; and start-up refused, in
 * one line, where a signer or the journal is missing. On a real S3: {@code S3StorageIT}.
 */
class DirectUploadsAutoConfigurationTests {

    @TempDir
    Path root;

    private ApplicationContextRunner runner() {
        return TestSupport.runner(root).withUserConfiguration(JournalAutoConfigurationTests.Database.class)
                .withPropertyValues("bounded-upload.journal.enabled=true", "bounded-upload.direct.enabled=true");
    }

    @Configuration(proxyBeanMethods = false)
    static class Signer {
        final List<SignRequest> signed = new CopyOnWriteArrayList<>();

        @Bean
        UploadSigner uploadSigner() {
            return new UploadSigner() {
                @Override
                public SignedRequest signPut(SignRequest request) {
                    signed.add(request);
                    return new SignedRequest("PUT", URI.create("https://storage.test/" + request.key()), Map.of(),
                            Map.of(), Instant.now().plus(request.lifetime()));
                }

                @Override
                public SignedRequest signPost(SignRequest request) {
                    throw new UnsupportedOperationException();
                }
            };
        }
    }

    @Test
    void offByDefault() {
        TestSupport.runner(root).withUserConfiguration(JournalAutoConfigurationTests.Database.class, Signer.class)
                .withPropertyValues("bounded-upload.journal.enabled=true").run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(DirectUploads.class)
                            .doesNotHaveBean(JdbcGrantStore.class);
                });
    }

    @Test
    void grantsWithTheSettingsAndConfirmsInTheCallersTransaction() {
        runner().withUserConfiguration(Signer.class).withPropertyValues("bounded-upload.direct.staging-prefix=incoming/",
                "bounded-upload.direct.lifetime=2m", "bounded-upload.direct.max-files-per-request=2",
                "bounded-upload.direct.content-types=text/plain").run(context -> {
                    DirectUploads direct = context.getBean(DirectUploads.class);
                    assertThat(context).hasSingleBean(JdbcGrantStore.class);
                    Signer signer = context.getBean(Signer.class);
                    byte[] content = "week 3".getBytes(StandardCharsets.UTF_8);

                    List<UploadGrant> grants = direct.grant("alice",
                            List.of(FileToUpload.of("notes.txt", content.length, "text/plain")));
                    assertThat(grants).singleElement().satisfies(grant -> {
                        assertThat(grant.stagingKey()).startsWith("incoming/");
                        assertThat(grant.expiresAt()).isBefore(Instant.now().plus(Duration.ofMinutes(2)).plusSeconds(1));
                    });
                    assertThat(signer.signed).singleElement().extracting(SignRequest::lifetime)
                            .isEqualTo(Duration.ofMinutes(2));
                    org.assertj.core.api.Assertions.assertThatThrownBy(() -> direct.grant("alice", List.of(
                            FileToUpload.of("a.txt", 1, "text/plain"), FileToUpload.of("b.txt", 1, "text/plain"),
                            FileToUpload.of("c.txt", 1, "text/plain")))).isInstanceOf(GrantRefusedException.class)
                            .hasMessageContaining("1 to 2 files");
                    org.assertj.core.api.Assertions.assertThatThrownBy(() -> direct.grant("alice", List.of(
                            FileToUpload.of("page.html", 1, "text/html")))).isInstanceOf(GrantRefusedException.class)
                            .hasMessageContaining("'page.html'", "text/html");

                    Path staged = root.resolve(grants.get(0).stagingKey()); // what the client would have sent
                    Files.createDirectories(staged.getParent());
                    Files.write(staged, content);
                    TransactionTemplate tx = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
                    BatchResult confirmed = tx.execute(status -> {
                        BatchResult result = direct.confirm("alice", List.of(grants.get(0).id()));
                        assertThat(staged).as("staged until the commit").exists();
                        return result;
                    });
                    assertThat(staged).as("removed once the confirm committed").doesNotExist();

                    assertThat(confirmed.allStored()).isTrue();
                    assertThat(Files.readAllBytes(root.resolve(confirmed.storedObjects().get(0).key())))
                            .isEqualTo(content);
                });
    }

    /**
     * On the local disk, the application signs URLs of its own and a servlet filter receives them: the whole flow,
     * the PUT through the filter as a servlet container hands it over, a tampered one refused with nothing stored.
     */
    @Test
    void onTheLocalDiskTheApplicationSignsAndReceivesTheUploads() {
        new WebApplicationContextRunner().withConfiguration(TestSupport.boundedUpload())
                .withUserConfiguration(JournalAutoConfigurationTests.Database.class)
                .withPropertyValues("bounded-upload.local.root=" + root, "bounded-upload.journal.enabled=true",
                        "bounded-upload.direct.enabled=true", "bounded-upload.direct.local-path=/files")
                .run(context -> {
                    assertThat(context).hasSingleBean(LocalUploadSigner.class).hasSingleBean(LocalUploadFilter.class);
                    DirectUploads direct = context.getBean(DirectUploads.class);
                    byte[] content = "week 3".getBytes(StandardCharsets.UTF_8);
                    UploadGrant grant = direct.grant("alice", List.of(FileToUpload.of("notes.txt", content.length,
                            "text/plain"))).get(0);
                    SignedRequest put = grant.signedRequest().orElseThrow();
                    assertThat(put.url().getPath()).isEqualTo("/files");
                    LocalUploadFilter filter = context.getBean(LocalUploadFilter.class);

                    MockHttpServletResponse tampered = send(filter, put.url().getRawQuery().replace("size=6",
                            "size=7"), "text/plain", "week 33".getBytes(StandardCharsets.UTF_8));
                    assertThat(tampered.getStatus()).isEqualTo(403);
                    assertThat(root.resolve(grant.stagingKey())).doesNotExist();
                    MockHttpServletResponse sent = send(filter, put.url().getRawQuery(), "text/plain", content);
                    assertThat(sent.getStatus()).isEqualTo(200);

                    BatchResult confirmed = direct.confirm("alice", List.of(grant.id()));
                    assertThat(Files.readAllBytes(root.resolve(confirmed.storedObjects().get(0).key())))
                            .isEqualTo(content);
                });
    }

    private static MockHttpServletResponse send(LocalUploadFilter filter, String query, String type, byte[] body)
            throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("PUT", "/files");
        request.setQueryString(query);
        request.setContentType(type);
        request.setContent(body);
        MockHttpServletResponse response = new MockHttpServletResponse();
        filter.doFilter(request, response, new MockFilterChain());
        return response;
    }

    @Test
    void withoutASignerStartUpFailsSayingSo() {
        runner().withUserConfiguration(OwnStorage.class).run(context -> assertThat(context).hasFailed().getFailure()
                .rootCause().hasMessage("bounded-upload.direct.enabled is true, but the storage signs no uploads.")
                .isInstanceOfSatisfying(UploaderSetupException.class, e -> assertThat(e.action())
                        .contains("bounded-upload.s3.bucket", "UploadSigner bean")));
    }

    /** A storage of the application's own, which signs nothing. */
    @Configuration(proxyBeanMethods = false)
    static class OwnStorage {

        @Bean
        FileUploader fileUploader(@org.springframework.beans.factory.annotation.Value("${bounded-upload.local.root}")
                Path root) throws java.io.IOException {
            LocalFileUploader local = new LocalFileUploader(root);
            return new FileUploader() {
                @Override
                public io.github.boundedupload.StoredObject upload(io.github.boundedupload.spi.UploadRequest request)
                        throws java.io.IOException {
                    return local.upload(request);
                }

                @Override
                public void delete(String key) throws java.io.IOException {
                    local.delete(key);
                }
            };
        }
    }

    @Test
    void withoutTheJournalStartUpFailsSayingSo() {
        TestSupport.runner(root).withUserConfiguration(Signer.class)
                .withPropertyValues("bounded-upload.direct.enabled=true")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessage("bounded-upload.direct.enabled is true, but there is no store for the grants.")
                        .isInstanceOfSatisfying(UploaderSetupException.class, e -> assertThat(e.action())
                                .contains("bounded-upload.journal.enabled=true", "GrantStore bean")));
    }

    @Test
    void aBadSettingFailsStartUpNamingIt() {
        runner().withUserConfiguration(Signer.class).withPropertyValues("bounded-upload.direct.staging-prefix=/tmp")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("stagingPrefix").hasMessageContaining("'/tmp'"));
    }
}
