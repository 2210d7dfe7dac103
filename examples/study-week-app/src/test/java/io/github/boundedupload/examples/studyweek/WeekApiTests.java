package io.github.boundedupload.examples.studyweek;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.DocumentContext;
import com.zaxxer.hikari.HikariDataSource;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Creating a week with its files, reading it back, downloading the files. */
class WeekApiTests extends LocalDiskTest {

    private static final Path SAMPLES = Path.of("..", "plain-java", "sample-files");

    @Autowired
    HikariDataSource dataSource;

    @Test
    void answersWithTheWeekAndWhereToFindIt() throws Exception {
        byte[] notes = Files.readAllBytes(SAMPLES.resolve("week-3-notes.txt"));

        Api.Response created = api.post(weeksPath(), Multipart.week("  Week 3 ")
                .file("Algorithm.png", Files.readAllBytes(SAMPLES.resolve("Algorithm.png")))
                .file("week-3-notes.txt", notes));

        assertThat(created.status()).as("%s", created).isEqualTo(201);
        assertThat(created.header("Location")).matches(weeksPath() + "/\\d+");
        DocumentContext week = created.json();
        assertThat(week.read("$.url", String.class)).isEqualTo(created.header("Location"));
        assertThat(week.read("$.title", String.class)).isEqualTo("Week 3");
        assertThat(week.read("$.content", String.class)).isEqualTo("Graphs, week 3");
        assertThat(week.read("$.startDate", String.class)).isEqualTo("2026-11-16");
        assertThat(week.read("$.endDate", String.class)).isEqualTo("2026-11-22");
        assertThat(week.read("$.attachments[*].size", List.class)).containsExactly(179, notes.length);
        assertThat(week.read("$.attachments[1].url", String.class))
                .matches(created.header("Location") + "/attachments/\\d+");
    }

    @Test
    void theLimitsAreTheOnesTheRefusalsName() {
        Api.Response limits = api.get("/api/limits");

        assertThat(limits.json("$.maxFiles", Integer.class)).isEqualTo(5); // application-test.yml
        assertThat(limits.json("$.maxFileSize", Integer.class)).isEqualTo(64 * 1024);
        assertThat(limits.json("$.text", String.class)).isEqualTo("Up to 5 files, each at most 64 KB.");
    }

    /** Regression: GET on the weeks of a study was 405; the page lists them. */
    @Test
    void listsTheWeeksOfAStudyLatestFirstWithTheirFiles() {
        assertThat(api.get(weeksPath()).json("$", List.class)).as("none yet").isEmpty();
        assertThat(api.post(weeksPath(), Multipart.week("Week 3").file("a.txt", "a")).status()).isEqualTo(201);
        assertThat(api.post(weeksPath(), new Multipart().field("title", "Week 4").field("startDate", "2026-11-23")
                .field("endDate", "2026-11-29").file("b.txt", "bb").file("c.txt", "ccc")).status()).isEqualTo(201);

        Api.Response weeks = api.get(weeksPath());

        assertThat(weeks.status()).isEqualTo(200);
        assertThat(weeks.json("$[*].title", List.class)).containsExactly("Week 4", "Week 3");
        assertThat(weeks.json("$[0].attachments[*].fileName", List.class)).containsExactly("b.txt", "c.txt");
        assertThat(weeks.json("$[0].attachments[*].size", List.class)).containsExactly(2, 3);
        assertThat(weeks.json("$[1].attachments[*].state", List.class)).containsExactly("STORED");
        assertThat(api.get(weeks.json("$[1].attachments[0].url", String.class)).text()).isEqualTo("a");
        assertThat(api.get("/api/studies/" + (studyId + 1_000_000_000L) + "/weeks").json("$", List.class))
                .as("another study's").isEmpty();
    }

    /** Regression: the Host header (or X-Forwarded-Host) a client sent came back in Location and every URL. */
    @Test
    void urlsAndLocationAreNeverMadeFromTheHostHeader() {
        Multipart form = Multipart.week("Week 3").file("a.txt", "a");
        byte[] body = form.bytes();
        String head = "POST " + weeksPath() + " HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Host: evil.example\r\n"
                + "X-Forwarded-Proto: https\r\nForwarded: host=evil.example;proto=https\r\nContent-Type: "
                + form.contentType() + "\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        request.writeBytes(body);

        String response = api.raw(request.toByteArray());

        assertThat(response).startsWith("HTTP/1.1 201 ")
                .containsPattern("(?i)\r\nLocation: " + weeksPath() + "/\\d+\r\n")
                .contains("\"url\":\"" + weeksPath() + "/")
                .doesNotContain("evil.example", "https:");
    }

    @Test
    void storesEachFileUnderASanitisedKeyOfItsStudy() {
        Api.Response created = api.post(weeksPath(), Multipart.week("Week 3").file("my notes (v2).txt", "x"));

        assertThat(created.status()).isEqualTo(201);
        assertThat(keysOnDisk()).singleElement().asString()
                .matches("studies/" + studyId + "/\\d{4}/\\d{2}/\\d{2}/[0-9a-f-]{36}-my_notes__v2_.txt");
        assertThat(keysInTheDatabase()).isEqualTo(keysOnDisk());
    }

    @Test
    void downloadsAreSavedNotShown() {
        Api.Response created = api.post(weeksPath(), Multipart.week("Week 3")
                .file("week-3-notes.txt", "notes").file("page.html", "<script>alert(1)</script>"));

        Api.Response notes = api.get(created.json("$.attachments[0].url", String.class));
        assertThat(notes.header("Content-Type")).startsWith("text/plain");
        assertThat(notes.header("Content-Length")).isEqualTo("5");
        assertThat(notes.header("Content-Disposition")).isEqualTo("attachment; filename=\"week-3-notes.txt\"");
        Api.Response page = api.get(created.json("$.attachments[1].url", String.class));
        assertThat(page.header("Content-Disposition")).isEqualTo("attachment; filename=\"page.html\"");
        assertThat(page.header("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(page.header("Content-Security-Policy")).isEqualTo("sandbox");
    }

    @Test
    void uploadsTheFilesAtTheSameTime() {
        // Each upload waits in the storage until all three are there: one after another, they would fail.
        storage.requireTogether(3);

        Api.Response created = api.post(weeksPath(), Multipart.week("Week 3")
                .file("a.txt", "a").file("b.txt", "b").file("c.txt", "c"));

        assertThat(created.status()).as("%s", created).isEqualTo(201);
    }

    @Test
    void holdsNoDatabaseConnectionWhileTheFilesUpload() throws Exception {
        storage.hold();
        CompletableFuture<Api.Response> request = api.postAsync(weeksPath(), Multipart.week("Week 3")
                .file("a.txt", "a").file("b.txt", "b"));
        storage.awaitEntered(2);

        assertThat(dataSource.getHikariPoolMXBean().getActiveConnections())
                .as("database connections in use while the uploads run").isZero();

        storage.release();
        assertThat(request.join().status()).isEqualTo(201);
    }

    @Test
    void offersDownloadsUnderTheirOriginalNameWithoutBreakingTheHeader() {
        String name = "résumé \"final\" 1.txt";
        Api.Response created = api.post(weeksPath(), Multipart.week("Week 3").file(name, "cv"));
        assertThat(created.status()).as("%s", created).isEqualTo(201);
        assertThat(created.json("$.attachments[0].fileName", String.class)).isEqualTo(name.replace("\"", "%22"));

        Api.Response download = api.get(created.json("$.attachments[0].url", String.class));

        assertThat(download.text()).isEqualTo("cv");
        assertThat(download.header("Content-Disposition"))
                .startsWith("attachment; ")
                .contains("filename*=UTF-8''r%C3%A9sum%C3%A9%20%2522final%2522%201.txt");
    }

    @Test
    void anUnknownWeekIsNotFound() {
        Api.Response response = api.get(weeksPath() + "/999999999");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.header("Content-Type")).isEqualTo("application/problem+json");
        assertThat(response.json("$.detail", String.class)).isEqualTo("Study " + studyId + " has no week 999999999.");
    }

    @Test
    void aWeekIsNotFoundUnderAnotherStudy() {
        Api.Response created = api.post(weeksPath(), Multipart.week("Week 3").file("a.txt", "a"));
        String otherStudy = created.header("Location").replace("/studies/" + studyId + "/",
                "/studies/" + (studyId + 1_000_000_000L) + "/");

        assertThat(api.get(otherStudy).status()).isEqualTo(404);
        assertThat(api.get(otherStudy + "/attachments/" + created.json("$.attachments[0].id", Integer.class))
                .status()).isEqualTo(404);
    }

    @Test
    void theHomePageIsServed() {
        Api.Response page = api.get("/");

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.text()).contains("<form id=\"week-form\">");
        assertThat(new String(api.get("/app.js").bytes(), StandardCharsets.UTF_8)).contains("X-Upload-Id");
        // The icon the page names, at the path every browser and tool asks for: no 404 in anyone's log.
        assertThat(page.text()).contains("<link rel=\"icon\" href=\"/favicon.ico\"");
        Api.Response icon = api.get("/favicon.ico");
        assertThat(icon.status()).isEqualTo(200);
        assertThat(icon.bytes()).startsWith(0, 0, 1, 0, 1, 0); // an ICO of one image
    }
}
