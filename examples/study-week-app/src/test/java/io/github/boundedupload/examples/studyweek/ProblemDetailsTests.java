package io.github.boundedupload.examples.studyweek;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every bad request gets an RFC 9457 problem detail with a message the client can act on; and nothing of a refused
 * request is saved or stored.
 */
class ProblemDetailsTests extends LocalDiskTest {

    private static final int MAX_FILE_SIZE = 64 * 1024; // application-test.yml
    private static final String MALFORMED = "The request is not a valid multipart/form-data form: send the fields"
            + " and files as a browser's form does. Nothing was saved.";

    @Test
    void noFiles() {
        Api.Response response = api.post(weeksPath(), Multipart.week("Week 3"));

        assertProblem(response, 400, "Bad Request");
        assertThat(response.json("$.detail", String.class)).isEqualTo("Required part 'files' is not present.");
        assertNothingKept();
    }

    @Test
    void anEmptyFileFieldIsNoFile() {
        // What a browser sends when no file was chosen.
        Api.Response response = api.post(weeksPath(), Multipart.week("Week 3").file("", new byte[0]));

        assertProblem(response, 400, "Bad Request");
        assertThat(response.json("$.detail", String.class)).contains("'files'");
        assertNothingKept();
    }

    @Test
    void tooManyFiles() {
        Multipart form = Multipart.week("Week 3");
        for (int i = 1; i <= 6; i++) {
            form.file("file-" + i + ".txt", "x");
        }

        Api.Response response = api.post(weeksPath(), form);

        assertProblem(response, 400, "Too many files");
        assertThat(response.json("$.detail", String.class))
                .isEqualTo("A week takes at most 5 files; this request has 6. Nothing was saved.");
        assertThat(response.json("$.maxFiles", Integer.class)).isEqualTo(5);
        assertNothingKept();
    }

    /** Regression: from 47 files on, Tomcat's part-count limit answered 413 "Request too large" with Spring's sizes. */
    @ParameterizedTest
    @ValueSource(ints = { 20, 47, 200 })
    void farTooManyTinyFilesAreTooManyFilesNotTooLarge(int count) {
        Multipart form = Multipart.week("Week 3");
        for (int i = 1; i <= count; i++) {
            form.file("file-" + i + ".txt", "x");
        }

        Api.Response response = api.post(weeksPath(), form);

        assertProblem(response, 400, "Too many files");
        assertThat(response.json("$.detail", String.class)).startsWith("A week takes at most 5 files;")
                .endsWith("Nothing was saved.");
        assertThat(response.json("$.maxFiles", Integer.class)).isEqualTo(5);
        assertNothingKept();
    }

    @Test
    void aFileOverTheLimitIsNamedAndCountedFromOne() {
        Api.Response response = api.post(weeksPath(), Multipart.week("Week 3")
                .file("small.txt", "x").file("big.bin", new byte[MAX_FILE_SIZE + 1]));

        assertProblem(response, 413, "File too large");
        assertThat(response.json("$.detail", String.class))
                .isEqualTo("Each file may be at most 64 KB; 'big.bin' is larger. Nothing was saved.");
        assertThat(response.json("$.maxFileSize", Integer.class)).isEqualTo(MAX_FILE_SIZE);
        assertNothingKept();
    }

    @Test
    void aFileOfExactlyTheLimitIsTaken() {
        Api.Response response = api.post(weeksPath(), Multipart.week("Week 3")
                .file("small.txt", "x").file("just-fits.bin", new byte[MAX_FILE_SIZE]));

        assertThat(response.status()).as("%s", response).isEqualTo(201);
    }

    /** Regression: the user met two size limits, the uploader's and Spring's, with two different numbers. */
    @Test
    void aFileFarOverTheLimitIsToldTheSameLimit() {
        Api.Response response = api.post(weeksPath(), Multipart.week("Week 3")
                .file("huge.bin", new byte[10 * MAX_FILE_SIZE]));

        assertProblem(response, 413, "File too large");
        assertThat(response.json("$.detail", String.class))
                .isEqualTo("Each file may be at most 64 KB; 'huge.bin' is larger. Nothing was saved.");
        assertNothingKept();
    }

    @Test
    void aFormFieldOverTheLimitIsTheSameNumber() {
        Api.Response response = api.post(weeksPath(), new Multipart().field("title", "Week 3")
                .field("content", "x".repeat(MAX_FILE_SIZE + 1)).field("startDate", "2026-11-16")
                .field("endDate", "2026-11-22").file("a.txt", "a"));

        assertProblem(response, 413, "Request too large");
        assertThat(response.json("$.detail", String.class))
                .isEqualTo("Each form field may be at most 64 KB; 'content' is larger. Nothing was saved.");
        assertNothingKept();
    }

    @ParameterizedTest
    @ValueSource(strings = { "../../etc/passwd", "..\\..\\boot.ini", "a/b.txt", "evil..txt", "bell\u0007.txt",
            "invoice\u202Efdp.exe" })
    void aDangerousFileName(String name) {
        Api.Response response = api.post(weeksPath(), Multipart.week("Week 3").file("fine.txt", "ok").file(name, "x"));

        assertProblem(response, 400, "Invalid files");
        assertThat(response.json("$.detail", String.class)).startsWith("File 2 ('").contains("): the file name ")
                .endsWith("Nothing was saved.").doesNotContain("#", "attachment", "\u0000", "\u0007", "\u202E");
        assertThat(response.json("$.files[0].file", Integer.class)).isEqualTo(2);
        assertThat(response.json("$.files[0].reason", String.class)).startsWith("the file name ");
        assertNothingKept();
    }

    /** Regression: a NUL in a file name was a 500 (Tomcat refuses it while reading the request). */
    @Test
    void aNulInAFileName() {
        Api.Response response = api.post(weeksPath(), Multipart.week("Week 3").file("fine.txt", "ok")
                .file("nul\u0000.txt", "x"));

        assertProblem(response, 400, "Invalid files");
        assertThat(response.json("$.detail", String.class)).isEqualTo("The file 'nul\uFFFD.txt': the file name contains"
                + " a control character. Nothing was saved.");
        assertThat(response.json("$.files[0].reason", String.class)).isEqualTo("the file name contains a control"
                + " character");
        assertNothingKept();
    }

    @Test
    void aMalformedMultipartBodyIsABadRequest() {
        Api.Response response = api.postRaw(weeksPath(), "multipart/form-data; boundary=xyz",
                "--xyz\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nWeek 3 and no end".getBytes());

        assertProblem(response, 400, "Malformed request");
        assertThat(response.json("$.detail", String.class)).isEqualTo(MALFORMED);
        assertNothingKept();
    }

    @Test
    void aMultipartBodyWithoutBoundaryIsABadRequest() {
        Multipart form = Multipart.week("Week 3").file("a.txt", "a");

        Api.Response response = api.postRaw(weeksPath(), "multipart/form-data", form.bytes());

        assertProblem(response, 400, "Malformed request");
        assertThat(response.json("$.detail", String.class)).isEqualTo(MALFORMED);
        assertNothingKept();
    }

    @Test
    void anInvalidForm() {
        Api.Response response = api.post(weeksPath(), new Multipart().field("title", " ")
                .field("startDate", "2026-11-22").field("endDate", "2026-11-16").file("a.txt", "a"));

        assertProblem(response, 400, "Invalid form");
        assertThat(response.json("$.fields", Map.class))
                .containsEntry("title", "must not be blank")
                .containsEntry("endDate", "must not be before startDate");
        assertNothingKept();
    }

    @Test
    void aDateThatIsNoDate() {
        Api.Response response = api.post(weeksPath(), new Multipart().field("title", "Week 3")
                .field("startDate", "22.11.2026").field("endDate", "2026-11-22").file("a.txt", "a"));

        assertProblem(response, 400, "Invalid form");
        assertThat(response.json("$.fields.startDate", String.class)).isEqualTo("is not valid");
        assertNothingKept();
    }

    @Test
    void aDuplicateTitle() {
        assertThat(api.post(weeksPath(), Multipart.week("Week 3").file("a.txt", "a")).status()).isEqualTo(201);

        Api.Response response = api.post(weeksPath(), Multipart.week("Week 3").file("b.txt", "b"));

        assertThat(response.status()).isEqualTo(409);
        assertThat(response.json("$.detail", String.class))
                .isEqualTo("Study " + studyId + " already has a week titled 'Week 3'. Nothing was saved.");
        assertThat(weekRows()).isEqualTo(1);
        assertThat(keysOnDisk()).hasSize(1);
    }

    @Test
    void aSaturatedUploaderAnswers429WithRetryAfter() throws Exception {
        // application-test.yml: 3 uploads at once, 5 queued. The first request's 5 files are all queued, then 3 start
        // and are held in the storage; 2 stay queued. The second request's 4 files do not fit in what is left.
        storage.hold();
        CompletableFuture<Api.Response> first = api.postAsync(weeksPath(), Multipart.week("Week 3")
                .file("1.txt", "1").file("2.txt", "2").file("3.txt", "3").file("4.txt", "4").file("5.txt", "5"));
        storage.awaitEntered(3);

        Api.Response refused = api.post(weeksPath(), Multipart.week("Week 4")
                .file("a.txt", "a").file("b.txt", "b").file("c.txt", "c").file("d.txt", "d"));

        assertProblem(refused, 429, "Too many uploads");
        assertThat(refused.header("Retry-After")).isEqualTo("7");
        assertThat(refused.json("$.detail", String.class)).isEqualTo("The server is busy with other uploads and"
                + " cannot take 4 more files now. Nothing was stored; try again in 7 seconds.");

        storage.release();
        assertThat(first.join().status()).isEqualTo(201);
        assertThat(weekRows()).isEqualTo(1);
        assertThat(keysOnDisk()).hasSize(5);
    }

    @Test
    void aStorageFailureIs502WithoutInternals() throws Exception {
        // The storage cannot create the study's directory: a file is in the way. A real failure of the real disk.
        Path studyDir = DATA.resolve("uploads/studies/" + studyId);
        Files.createDirectories(studyDir.getParent());
        Files.writeString(studyDir, "in the way");
        try {
            Api.Response response = api.post(weeksPath(), Multipart.week("Week 3").file("a.txt", "a"));

            assertProblem(response, 502, "Storage failed");
            assertThat(response.json("$.detail", String.class)).isEqualTo("The file storage failed while storing 1 of"
                    + " 1 files: file 1 ('a.txt'). Nothing was saved; try again later.");
            assertThat(response.text()).doesNotContain(DATA.toString(), "uploads", "Exception", "\tat ", "trace")
                    .doesNotContainPattern("studies/\\d+/\\d{4}/"); // no storage key
            assertThat(weekRows()).isZero();
            assertThat(attachmentRows()).isZero();
        } finally {
            Files.delete(studyDir);
        }
    }

    private void assertNothingKept() {
        assertThat(weekRows()).isZero();
        assertThat(keysOnDisk()).isEmpty();
    }

    /** A problem detail, as RFC 9457 has it, with the request id to quote. */
    private static void assertProblem(Api.Response response, int status, String title) {
        assertThat(response.status()).as("%s", response).isEqualTo(status);
        assertThat(response.header("Content-Type")).isEqualTo("application/problem+json");
        assertThat(response.json("$.status", Integer.class)).isEqualTo(status);
        assertThat(response.json("$.title", String.class)).isEqualTo(title);
        assertThat(response.json("$.detail", String.class)).isNotBlank();
        assertThat(response.json("$.requestId", String.class)).isEqualTo(response.header("X-Request-Id"));
        assertThat(response.text()).doesNotContain("\tat ", "stackTrace");
    }
}
