package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploadTimeoutException;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.Adapters.Kind;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 11, defect 6: content from {@code ofStream(() -> url.openStream())}, the Javadoc's own example, where the
 * server never answers and the socket has no read timeout: its read ignores interrupts. After the upload timeout the
 * caller gets its answer, the rest of the uploader is not starved, and close() returns.
 */
class StuckStreamIT {

    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucket("stuck");

    private ServerSocket silent;
    private final List<Socket> held = new CopyOnWriteArrayList<>();

    /** Accepts connections and never answers on them. */
    @BeforeEach
    void silentServer() throws IOException {
        silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!silent.isClosed()) {
                try {
                    held.add(silent.accept());
                } catch (IOException e) {
                    return;
                }
            }
        }, "silent-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Closing the connections ends the stuck reads. */
    @AfterEach
    void closeServer() throws IOException {
        silent.close();
        for (Socket socket : held) {
            socket.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aStreamThatNeverAnswersNeitherHoldsItsCallerNorStarvesTheUploader(Kind kind) {
        URI url = URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/photo.jpg");
        Attachment stuck = Attachment.of("photo.jpg", AttachmentContent.ofStream(() -> url.toURL().openStream()));
        UploaderConfig config = UploaderConfig.builder().name("stuck-" + kind).maxConcurrentUploads(4)
                .maxConcurrentUploadsPerBatch(4).uploadTimeout(Duration.ofSeconds(1)).stopTimeout(Duration.ofSeconds(1))
                .shutdownGracePeriod(Duration.ofMillis(500)).failurePolicy(FailurePolicy.COLLECT).build();
        List<Attachment> later = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            later.add(Attachment.of("later-" + i + ".bin", TestData.bytes(i, 1024)));
        }
        try (Adapters adapters = new Adapters(S3TestServices.get().s3Endpoint(), s3.bucket().name(), Adapters.smallParts())) {
            ConcurrentAttachmentUploader uploader = adapters.uploader(kind, config);

            BatchResult result = assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> uploader.uploadAll(List.of(stuck)));
            assertThat(result.results().get(0).status()).isEqualTo(Status.FAILED);
            assertThat(result.results().get(0).failure()).get().isInstanceOf(UploadTimeoutException.class);
            assertThat(uploader.stats().bytesInFlight()).isZero();

            BatchResult next = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> uploader.uploadAll(later));
            assertThat(next.allStored()).isTrue();
            assertThat(next.storedObjects()).allSatisfy(o -> assertThat(s3.bucket().exists(o.key())).isTrue());

            assertTimeoutPreemptively(Duration.ofSeconds(30), uploader::close);
            assertThat(s3.bucket().exists(result.results().get(0).key())).isFalse();
        }
    }
}
