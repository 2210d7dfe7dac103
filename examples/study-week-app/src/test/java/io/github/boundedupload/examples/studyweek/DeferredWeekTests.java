package io.github.boundedupload.examples.studyweek;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A week created deferred (source 003's "respond first"): 202 at once with its files pending, while the storage holds
 * them back; then, once the storage lets them through, the week lists them stored and they download.
 */
class DeferredWeekTests extends LocalDiskTest {

    @Test
    void answersBeforeTheFilesAreStoredAndListsThemStoredAfterwards() throws Exception {
        storage.hold();

        Api.Response accepted = api.post(weeksPath() + "?deferred=true", Multipart.week("Week 3")
                .file("a.txt", "first").file("b.txt", "second"));

        assertThat(accepted.status()).as("%s", accepted).isEqualTo(202);
        assertThat(accepted.json("$.attachments[*].state", List.class)).containsExactly("PENDING", "PENDING");
        assertThat(weekRows()).isOne();
        String week = accepted.header("Location");
        storage.awaitEntered(1); // the background upload has reached the storage, which holds it
        assertThat(api.get(week).json("$.attachments[*].state", List.class)).containsOnly("PENDING");
        List<String> urls = accepted.json().read("$.attachments[*].url");
        assertThat(api.get(urls.get(0)).status()).as("a pending file cannot be downloaded").isEqualTo(409);

        storage.release();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                api.get(week).json("$.attachments[*].state", List.class)).containsExactly("STORED", "STORED"));
        assertThat(api.get(urls.get(0)).text()).isEqualTo("first");
        assertThat(api.get(urls.get(1)).text()).isEqualTo("second");
    }
}
