package io.github.boundedupload.examples.studyweek;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The progress endpoint the page polls while its request runs. */
class UploadProgressTests extends LocalDiskTest {

    @Test
    void showsEachFileWhileTheRequestRuns() throws Exception {
        String uploadId = UUID.randomUUID().toString();
        storage.hold();
        CompletableFuture<Api.Response> request = api.postAsync(weeksPath(), Multipart.week("Week 3")
                .file("1.txt", "one").file("2.txt", "two").file("3.txt", "three").file("4.txt", "four"),
                "X-Upload-Id", uploadId);
        storage.awaitEntered(3); // 3 uploads at once (application-test.yml): the fourth waits its turn

        Api.Response progress = api.get("/api/uploads/" + uploadId);

        assertThat(progress.status()).isEqualTo(200);
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
        assertThat(api.get("/api/uploads/" + UUID.randomUUID()).status()).isEqualTo(404);
    }
}
