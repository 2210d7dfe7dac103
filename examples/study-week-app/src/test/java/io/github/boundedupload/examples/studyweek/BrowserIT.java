package io.github.boundedupload.examples.studyweek;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page, in headless Chromium: choose files, upload them, watch each file's progress, get the list of stored files.
 * Debian's {@code chromium} and {@code chromium-driver} packages ({@code .ci/run} installs them), driven by Selenium;
 * nothing is downloaded.
 */
class BrowserIT extends LocalDiskTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static WebDriver browser;
    private static Path profile;

    @BeforeAll
    static void startChromium() throws IOException {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("the browser test needs Debian's Chromium and its driver: "
                    + "apt-get install -y chromium chromium-driver");
        }
        profile = Files.createTempDirectory("study-week-chromium");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile()).addArguments("--headless",
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile);
        ChromeDriverService driver = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        browser = new ChromeDriver(driver, options);
    }

    @AfterAll
    static void stopChromium() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void uploadsSeveralFilesShowingEachOnesProgressThenTheStoredFiles() throws Exception {
        Path dir = Files.createTempDirectory("study-week-files");
        Path png = Files.copy(Path.of("..", "plain-java", "sample-files", "Algorithm.png"), dir.resolve("Algorithm.png"));
        Path notes = Files.writeString(dir.resolve("notes <i>3.txt"), "week 3"); // markup in a name
        Path korean = Files.writeString(dir.resolve("노트.txt"), "노트", StandardCharsets.UTF_8);
        storage.hold(); // so that the page can be seen while the files are in the storage

        fillTheForm("Week 3", png, notes, korean);
        browser.findElement(By.cssSelector("button[type=submit]")).click();

        storage.awaitEntered(3);
        // The page polls the server's progress: all three files are being written to the storage.
        new WebDriverWait(browser, WAIT).until(page -> states().equals(List.of("storing", "storing", "storing")));
        assertThat(rowTexts()).allSatisfy(text -> assertThat(text).contains("storing"));

        storage.release();

        new WebDriverWait(browser, WAIT).until(ExpectedConditions.visibilityOfElementLocated(By.id("result")));
        assertThat(states()).containsExactly("stored", "stored", "stored");
        assertThat(browser.findElement(By.id("result-title")).getText())
                .isEqualTo("Week 3 (2026-11-16 to 2026-11-22): 3 files");
        List<WebElement> links = browser.findElements(By.cssSelector("#result-files a"));
        assertThat(links).extracting(WebElement::getText)
                .containsExactly("Algorithm.png", "notes <i>3.txt", "노트.txt"); // shown as text, never as HTML
        assertThat(browser.findElements(By.cssSelector("#result-files i"))).isEmpty();
        assertThat(api.get(links.get(0).getAttribute("href")).bytes()).isEqualTo(Files.readAllBytes(png));
        assertThat(api.get(links.get(2).getAttribute("href")).text()).isEqualTo("노트");
        assertThat(weekRows()).isOne();
    }

    @Test
    void showsWhyTheServerRefusedTheUpload() throws Exception {
        Path dir = Files.createTempDirectory("study-week-files");
        Path file = Files.writeString(dir.resolve("a.txt"), "a");
        assertThat(api.post(weeksPath(), Multipart.week("Week 3").file("a.txt", "a")).status()).isEqualTo(201);

        fillTheForm("Week 3", file);
        browser.findElement(By.cssSelector("button[type=submit]")).click();

        WebElement error = new WebDriverWait(browser, WAIT)
                .until(ExpectedConditions.visibilityOfElementLocated(By.id("error")));
        assertThat(error.getText()).isEqualTo("Duplicate week: Study " + studyId
                + " already has a week titled 'Week 3'. Nothing was saved.");
        assertThat(states()).containsExactly("not-saved");
    }

    private void fillTheForm(String title, Path... files) {
        browser.get(api.uri("/").toString());
        set("studyId", Long.toString(studyId));
        set("title", title);
        set("content", "Graphs");
        set("startDate", "2026-11-16"); // date inputs take yyyy-MM-dd from script whatever the locale shows
        set("endDate", "2026-11-22");
        browser.findElement(By.name("files")).sendKeys(String.join("\n",
                java.util.Arrays.stream(files).map(Path::toString).toList()));
    }

    private void set(String field, String value) {
        ((JavascriptExecutor) browser).executeScript("arguments[0].value = arguments[1]",
                browser.findElement(By.name(field)), value);
    }

    private List<String> states() {
        return browser.findElements(By.cssSelector("#progress-rows tr")).stream()
                .map(row -> row.getAttribute("data-state")).toList();
    }

    private List<String> rowTexts() {
        return browser.findElements(By.cssSelector("#progress-rows tr")).stream().map(WebElement::getText).toList();
    }
}
