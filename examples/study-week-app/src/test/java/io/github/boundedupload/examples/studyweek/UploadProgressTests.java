package io.github.boundedupload.examples.studyweek;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The progress endpoint the page polls while its request runs. */
class UploadProgressTests extends LocalDiskTest {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Test
    void showsEachFileWhileTheRequestRuns() throws Exception {
        String uploadId = newUploadId();
        storage.hold();
        CompletableFuture<Api.Response> request = api.postAsync(weeksPath(), Multipart.week("Week 3")
                .file("1.txt", "one").file("2.txt", "two").file("3.txt", "three").file("4.txt", "four"),
                "X-Upload-Id", uploadId);
        storage.awaitEntered(3); // 3 uploads at once (application-test.yml): the fourth waits its turn

        Api.Response progress = api.get("/api/uploads/" + uploadId);

        assertThat(progress.status()).isEqualTo(200);
        assertThat(progress.header("Cache-Control")).isEqualTo("no-store");
        assertThat(progress.json("$[*].fileName", List.class)).containsExactly("1.txt", "2.txt", "3.txt", "4.txt");
        assertThat(progress.json("$[*].size", List.class)).containsExactly(3, 3, 5, 4);
        assertThat(progress.json("$[*].state", List.class))
                .containsExactlyInAnyOrder("STORING", "STORING", "STORING", "QUEUED");

        storage.release();
        assertThat(request.join().status()).isEqualTo(201);
        assertThat(api.get("/api/uploads/" + uploadId).status()).as("forgotten once answered").isEqualTo(404);
    }

    @Test
    void anUnknownUploadIsNotFound() {
        assertThat(api.get("/api/uploads/" + newUploadId()).status()).isEqualTo(404);
    }

    /**
     * Regression: any id of 8 characters was tracked, so that another client could guess "12345678" and read the
     * file names of whoever chose it. An id of less than 128 random bits (32 hex digits) is not tracked at all.
     */
    @ParameterizedTest
    @ValueSource(strings = { "12345678", "00000000-0000-0000-0000-000000000001", "0123456789abcdef0123456789ABCDEF" })
    void aGuessableIdIsNotTracked(String weakId) throws Exception {
        storage.hold();
        CompletableFuture<Api.Response> request = api.postAsync(weeksPath(), Multipart.week("Week 3")
                .file("secret-plan.txt", "x"), "X-Upload-Id", weakId);
        storage.awaitEntered(1);

        Api.Response progress = api.get("/api/uploads/" + weakId);

        assertThat(progress.status()).isEqualTo(404);
        assertThat(progress.text()).doesNotContain("secret-plan");
        storage.release();
        assertThat(request.join().status()).isEqualTo(201);
    }

    /** 128 random bits, as the page makes them. */
    static String newUploadId() {
        byte[] bits = new byte[16];
        RANDOM.nextBytes(bits);
        return HexFormat.of().formatHex(bits);
    }
}
