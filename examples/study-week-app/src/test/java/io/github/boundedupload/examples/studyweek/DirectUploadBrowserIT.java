package io.github.boundedupload.examples.studyweek;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestBucket;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import software.amazon.awssdk.services.s3.model.CORSRule;

/**
 * Direct uploads from the page, in headless Chromium ({@link Chromium}), to a real S3 server: LocalStack, and
 * versitygw in the build's second pass of this class ({@code BOUNDED_UPLOAD_S3_SERVER=versitygw}). The browser asks
 * for grants, sends each file straight to the bucket on its signed PUT with its progress, and the week is created
 * with the grants; the bucket then holds exactly the files chosen, byte for byte, under the study's keys. The
 * bucket's CORS rule, which a browser needs to send to another origin, is this test's set-up, as an operator's
 * (docs/direct-uploads.md).
 */
@ActiveProfiles("localstack")
class DirectUploadBrowserIT extends AppTest {

    private static final S3TestServices SERVICES = S3TestServices.get();
    private static final TestBucket BUCKET = SERVICES.createBucket("study-week-direct");
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static Chromium chromium;

    @DynamicPropertySource
    static void s3(DynamicPropertyRegistry registry) {
        registry.add("bounded-upload.s3.bucket", BUCKET::name);
        registry.add("bounded-upload.s3.endpoint", () -> SERVICES.s3Endpoint().toString());
        registry.add("bounded-upload.s3.region", () -> SERVICES.region().id());
        registry.add("study-week.s3.create-bucket", () -> "false");
        // Room for a file in parts (application.yml: above 6MB, parts of 5MB).
        registry.add("study-week.max-file-size", () -> "12MB");
    }

    @BeforeAll
    static void corsAndChromium() throws IOException {
        CORSRule rule = CORSRule.builder().allowedOrigins("*").allowedMethods("PUT").allowedHeaders("*")
                .exposeHeaders("ETag").build();
        SERVICES.s3Client().putBucketCors(request -> request.bucket(BUCKET.name())
                .corsConfiguration(cors -> cors.corsRules(rule)));
        chromium = Chromium.start();
    }

    @AfterAll
    static void stop() {
        if (chromium != null) {
            chromium.close();
        }
        BUCKET.close();
    }

    @Test
    void eachFileGoesStraightToTheBucketAndTheWeekHasExactlyThem() throws Exception {
        Path dir = Files.createTempDirectory("study-week-direct");
        byte[] scan = new byte[40_000];
        new Random(11).nextBytes(scan);
        Path png = Files.write(dir.resolve("scan.png"), scan);
        Path notes = Files.writeString(dir.resolve("notes <i>3.txt"), "week 3"); // markup in a name
        Path korean = Files.writeString(dir.resolve("노트.txt"), "노트", StandardCharsets.UTF_8);
        byte[] filmBytes = new byte[11 * 1024 * 1024]; // above 6MB: three parts of a multipart upload (5, 5, 1 MB)
        new Random(12).nextBytes(filmBytes);
        Path film = Files.write(dir.resolve("film.mov"), filmBytes);

        chromium.fillTheForm(api, studyId, "Week 3", png, notes, korean, film);
        WebElement direct = chromium.browser.findElement(By.id("direct"));
        new WebDriverWait(chromium.browser, WAIT).until(ExpectedConditions.visibilityOf(direct));
        direct.click();
        chromium.browser.findElement(By.id("submit")).click();

        new WebDriverWait(chromium.browser, WAIT).until(ExpectedConditions.visibilityOfElementLocated(By.id("result")));
        assertThat(chromium.states()).containsExactly("stored", "stored", "stored", "stored");
        assertThat(chromium.browser.findElement(By.id("result-title")).getText())
                .isEqualTo("Week 3 (2026-11-16 to 2026-11-22): 4 files");
        assertThat(chromium.browser.findElements(By.cssSelector("#result-files a"))).extracting(WebElement::getText)
                .containsExactly("scan.png", "notes <i>3.txt", "노트.txt", "film.mov");

        List<String> keys = keysInTheDatabase();
        assertThat(keys).hasSize(4).allMatch(key -> key.startsWith("studies/" + studyId + "/"));
        assertThat(BUCKET.keys("studies/" + studyId + "/")).containsExactlyInAnyOrderElementsOf(keys);
        List<Path> files = List.of(png, notes, korean, film);
        for (int i = 0; i < keys.size(); i++) {
            assertThat(BUCKET.read(keys.get(i))).as(keys.get(i)).contains(Files.readAllBytes(files.get(i)));
        }
        assertThat(weekRows()).isOne();
        assertThat(BUCKET.keys("staging/")).as("the staging objects, once the week committed").isEmpty();
        assertThat(BUCKET.incompleteUploads()).as("the film's multipart upload, completed").isEmpty();
    }

    @Test
    void aFileOverTheLimitIsRefusedByNameBeforeAnythingIsSent() throws Exception {
        Path dir = Files.createTempDirectory("study-week-direct");
        Path small = Files.writeString(dir.resolve("small.txt"), "fits");
        Path big = Files.write(dir.resolve("big.bin"), new byte[12 * 1024 * 1024 + 1]); // over this test's 12MB

        chromium.fillTheForm(api, studyId, "Week 4", small, big);
        WebElement direct = chromium.browser.findElement(By.id("direct"));
        new WebDriverWait(chromium.browser, WAIT).until(ExpectedConditions.visibilityOf(direct));
        direct.click();
        int staged = BUCKET.keys("staging/").size();
        chromium.browser.findElement(By.id("submit")).click();

        WebElement error = new WebDriverWait(chromium.browser, WAIT)
                .until(ExpectedConditions.visibilityOfElementLocated(By.id("error")));
        assertThat(error.getText()).startsWith("Upload refused:").contains("file 2 'big.bin'", "12582913 bytes");
        assertThat(chromium.states()).containsExactly("not-saved", "not-saved");
        assertThat(BUCKET.keys()).noneMatch(key -> key.startsWith("studies/" + studyId + "/"));
        assertThat(BUCKET.keys("staging/")).as("nothing sent").hasSize(staged);
        assertThat(weekRows()).isZero();
    }
}
