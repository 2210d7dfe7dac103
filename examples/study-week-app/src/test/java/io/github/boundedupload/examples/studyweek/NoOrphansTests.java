package io.github.boundedupload.examples.studyweek;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The two ways a week can fail after the uploads began (source 003): an upload fails, or the week cannot be saved
 * after the uploads. Either way no row points to a missing file and no file is left without a row.
 */
class NoOrphansTests extends AppTest {

    @Autowired
    DataSource dataSource;

    @Test
    void whenOneUploadFailsTheStoredFilesAreDeletedAndNothingIsSaved() {
        // b.txt fails once a.txt and c.txt are in the storage: the uploader must delete those two again.
        storage.failAfterOthers("b.txt", 2);

        Api.Response response = api.post(weeksPath(), Multipart.week("Week 3")
                .file("a.txt", "a").file("b.txt", "b").file("c.txt", "c"));

        assertThat(response.status()).as("%s", response).isEqualTo(502);
        assertThat(response.json("$.failedFiles", java.util.List.class)).containsExactly(1);
        assertThat(storedFiles()).isEmpty();
        assertThat(weekRows()).isZero();
        assertThat(attachmentRows()).isZero();
    }

    @Test
    void whenTheWeekCannotBeSavedAfterTheUploadsItsFilesAreDeleted() throws Exception {
        try (ConcurrentWriter other = new ConcurrentWriter(dataSource, studyId, "Week 3")) {
            storage.hold();
            CompletableFuture<Api.Response> request = api.postAsync(weeksPath(), Multipart.week("Week 3")
                    .file("a.txt", "a").file("b.txt", "b"));
            storage.awaitEntered(2); // past the duplicate check, which could not see the other writer's row
            other.commit();
            storage.release();

            Api.Response response = request.join();

            assertThat(response.status()).as("%s", response).isEqualTo(409);
            assertThat(response.json("$.detail", String.class))
                    .isEqualTo("Study " + studyId + " already has a week titled 'Week 3'. Nothing was saved.");
        }
        assertThat(weekRows()).as("the other writer's week only").isOne();
        assertThat(attachmentRows()).isZero();
        assertThat(storedFiles()).isEmpty();
    }
}
