package io.github.boundedupload.examples.studyweek;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.jdbc.JdbcUploadJournal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * What must hold on every storage and database the application runs on: a week is created and read back with its
 * files; and when it fails after the uploads began (source 003), no row points to a missing object and no object is
 * left without a row, whether an upload failed or the week could not be saved after its uploads (then the upload
 * journal deletes them).
 */
abstract class FailurePathsContract extends AppTest {

    /** The bytes of the file whose upload {@link #failTheUploadOf(String)} breaks. */
    static final byte[] BIG = new byte[40 * 1024];

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcUploadJournal journal;

    /** The storage keys of this test's study that the storage really holds. */
    abstract List<String> storedKeys();

    /** Makes the upload of one file of the next request fail; where the storage allows, after the others are stored. */
    abstract void failTheUploadOf(String fileName) throws Exception;

    @Test
    void createsAWeekAndReadsItBackWithItsFiles() {
        Api.Response created = api.post(weeksPath(), Multipart.week("Week 3")
                .file("Algorithm.png", BIG).file("notes.txt", "read chapter 22").file("노트.txt", "노트"));

        assertThat(created.status()).as("%s", created).isEqualTo(201);
        Api.Response week = api.get(created.header("Location"));
        assertThat(week.text()).isEqualTo(created.text());
        assertThat(week.json("$.attachments[*].fileName", List.class))
                .containsExactly("Algorithm.png", "notes.txt", "노트.txt");
        List<String> urls = week.json().read("$.attachments[*].url");
        assertThat(api.get(urls.get(0)).bytes()).isEqualTo(BIG);
        assertThat(api.get(urls.get(1)).text()).isEqualTo("read chapter 22");
        assertThat(api.get(urls.get(2)).text()).isEqualTo("노트");
        assertThat(storedKeys()).containsExactlyInAnyOrderElementsOf(keysInTheDatabase()).hasSize(3);
    }

    @Test
    void whenAnUploadFailsNothingIsKept() throws Exception {
        failTheUploadOf("b.bin");

        Api.Response response = api.post(weeksPath(), Multipart.week("Week 3")
                .file("a.txt", "a").file("b.bin", BIG).file("c.txt", "c"));

        assertThat(response.status()).as("%s", response).isEqualTo(502);
        assertThat(response.json("$.failedFiles", List.class)).as("counted from 1").containsExactly(2);
        assertThat(response.json("$.detail", String.class)).contains("file 2 ('b.bin')");
        assertThat(response.text()).as("nothing internal in the body")
                .doesNotContain("s3://", "uploads", "Exception", "\tat ", "Credential", "X-Amz")
                .doesNotContainPattern("studies/\\d+/\\d{4}/");
        assertThat(storedKeys()).isEmpty();
        assertThat(weekRows()).isZero();
        assertThat(attachmentRows()).isZero();
    }

    @Test
    void whenTheWeekCannotBeSavedAfterTheUploadsItsFilesAreDeleted() throws Exception {
        try (ConcurrentWriter other = new ConcurrentWriter(dataSource, studyId, "Week 3")) {
            signals.expectStored(2);
            CompletableFuture<Api.Response> request = api.postAsync(weeksPath(), Multipart.week("Week 3")
                    .file("a.txt", "a").file("b.txt", "b"));
            signals.awaitStored(); // past the duplicate check, which could not see the other writer's row
            other.commit();

            Api.Response response = request.join();

            assertThat(response.status()).as("%s", response).isEqualTo(409);
            assertThat(response.json("$.detail", String.class))
                    .isEqualTo("Study " + studyId + " already has a week titled 'Week 3'. Nothing was saved.");
        }
        assertThat(weekRows()).as("the other writer's week only").isOne();
        assertThat(attachmentRows()).isZero();
        // The rollback hands the objects to the upload journal, which deletes them right after it, and then forgets the
        // batch: both awaited, since the keys are gone a moment before the batch is (a race seen on LocalStack).
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(storedKeys()).isEmpty();
            assertThat(journal.status().unsettledBatches()).isZero();
        });
    }
}
