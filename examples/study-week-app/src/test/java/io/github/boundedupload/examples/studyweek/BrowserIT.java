package io.github.boundedupload.examples.studyweek;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page, in headless Chromium ({@link Chromium}): choose files, upload them, watch each file's progress, get the
 * list of stored files. Direct uploads from the page: {@code DirectUploadBrowserIT}.
 */
class BrowserIT extends LocalDiskTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private static Chromium chromium;
    private static ChromeDriver browser;

    @BeforeAll
    static void startChromium() throws IOException {
        chromium = Chromium.start();
        browser = chromium.browser;
    }

    @AfterAll
    static void stopChromium() {
        if (chromium != null) {
            chromium.close();
        }
    }

    @BeforeEach
    void desktopWidth() {
        viewport(1280, 900, false);
    }

    @Test
    void uploadsSeveralFilesShowingEachOnesProgressThenTheStoredFiles() throws Exception {
        Path dir = Files.createTempDirectory("study-week-files");
        Path png = Files.copy(Path.of("..", "plain-java", "sample-files", "Algorithm.png"), dir.resolve("Algorithm.png"));
        Path notes = Files.writeString(dir.resolve("notes <i>3.txt"), "week 3"); // markup in a name
        Path korean = Files.writeString(dir.resolve("노트.txt"), "노트", StandardCharsets.UTF_8);
        storage.hold(); // so that the page can be seen while the files are in the storage

        fillTheForm("Week 3", png, notes, korean);
        browser.findElement(By.id("submit")).click();

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

    /**
     * Direct uploads on the local disk: the same page, the signed PUTs to the application's own URLs (the starter's
     * filter receives them), so the example needs nothing installed. On S3: {@code DirectUploadBrowserIT}.
     */
    @Test
    void sendsTheFilesStraightToTheLocalDiskOnTheApplicationsOwnSignedUrls() throws Exception {
        Path dir = Files.createTempDirectory("study-week-files");
        Path png = Files.copy(Path.of("..", "plain-java", "sample-files", "Algorithm.png"), dir.resolve("Algorithm.png"));
        Path korean = Files.writeString(dir.resolve("노트.txt"), "노트", StandardCharsets.UTF_8);

        fillTheForm("Week 5", png, korean);
        WebElement direct = browser.findElement(By.id("direct"));
        new WebDriverWait(browser, WAIT).until(ExpectedConditions.visibilityOf(direct));
        direct.click();
        browser.findElement(By.id("submit")).click();

        new WebDriverWait(browser, WAIT).until(ExpectedConditions.visibilityOfElementLocated(By.id("result")));
        assertThat(states()).containsExactly("stored", "stored");
        List<String> keys = keysInTheDatabase();
        assertThat(keysOnDisk()).containsExactlyInAnyOrderElementsOf(keys);
        assertThat(Files.readAllBytes(DATA.resolve("uploads").resolve(keys.get(0)))).isEqualTo(Files.readAllBytes(png));
        assertThat(Files.readString(DATA.resolve("uploads").resolve(keys.get(1)), StandardCharsets.UTF_8))
                .isEqualTo("노트");
    }

    @Test
    void showsWhyTheServerRefusedTheUpload() throws Exception {
        Path dir = Files.createTempDirectory("study-week-files");
        Path file = Files.writeString(dir.resolve("a.txt"), "a");
        assertThat(api.post(weeksPath(), Multipart.week("Week 3").file("a.txt", "a")).status()).isEqualTo(201);

        fillTheForm("Week 3", file);
        browser.findElement(By.id("submit")).click();

        WebElement error = new WebDriverWait(browser, WAIT)
                .until(ExpectedConditions.visibilityOfElementLocated(By.id("error")));
        assertThat(error.getText()).isEqualTo("Duplicate week: Study " + studyId
                + " already has a week titled 'Week 3'. Nothing was saved.");
        assertThat(states()).containsExactly("not-saved");
    }

    /**
     * The page as a user sees it, at a desktop's and at a phone's width: the study's weeks listed with their files,
     * each submission's progress alone in the table, the refusal next to the button and within the viewport, nothing
     * wider than the screen. Asserted on the layout (element boxes, computed styles), not on pixels; the screenshots
     * are kept in {@code target/screenshots} to look at.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({ "desktop, 1280, 900, false", "phone, 390, 844, true" })
    void aSmallProductPageAtEachWidth(String name, int width, int height, boolean mobile) throws Exception {
        viewport(width, height, mobile);
        Path dir = Files.createTempDirectory("study-week-files");
        Path png = Files.copy(Path.of("..", "plain-java", "sample-files", "Algorithm.png"), dir.resolve("Algorithm.png"));
        Path notes = Files.writeString(dir.resolve("week-3-notes.txt"), "week 3");
        Path longName = Files.writeString(dir.resolve("a-rather-long-file-name-without-any-spaces-in-it-v2.txt"), "x");

        fillTheForm("Week 3", png, notes, longName);
        browser.findElement(By.id("submit")).click();
        new WebDriverWait(browser, WAIT).until(ExpectedConditions.visibilityOfElementLocated(By.id("result")));
        new WebDriverWait(browser, WAIT).until(page -> weekTitles().equals(List.of("Week 3")));
        assertThat(browser.findElements(By.cssSelector("#weeks .week a"))).extracting(WebElement::getText)
                .containsExactly("Algorithm.png", "week-3-notes.txt", longName.getFileName().toString());
        assertThat(states()).containsExactly("stored", "stored", "stored");

        // The same title again, with one file, on the same page: refused.
        set("files", "");
        browser.findElement(By.name("files")).sendKeys(notes.toString());
        browser.findElement(By.id("submit")).click();
        WebElement error = new WebDriverWait(browser, WAIT)
                .until(ExpectedConditions.visibilityOfElementLocated(By.id("error")));

        assertThat(error.getText()).startsWith("Duplicate week:");
        assertThat(states()).as("the previous submission's rows are gone").containsExactly("not-saved");
        Map<String, Number> box = boxes();
        assertThat(box.get("errorTop").doubleValue()).as("error within the viewport").isGreaterThanOrEqualTo(0);
        assertThat(box.get("errorBottom").doubleValue()).isLessThanOrEqualTo(box.get("viewportHeight").doubleValue());
        assertThat(box.get("errorRight").doubleValue()).isLessThanOrEqualTo(box.get("viewportWidth").doubleValue());
        boolean sameRow = box.get("errorTop").doubleValue() < box.get("buttonBottom").doubleValue()
                && box.get("errorBottom").doubleValue() > box.get("buttonTop").doubleValue()
                && box.get("errorLeft").doubleValue() >= box.get("buttonRight").doubleValue();
        double gapBelow = box.get("errorTop").doubleValue() - box.get("buttonBottom").doubleValue();
        double buttonHeight = box.get("buttonBottom").doubleValue() - box.get("buttonTop").doubleValue();
        if (mobile) {
            assertThat(sameRow || gapBelow >= 0 && gapBelow <= buttonHeight).as("next to the button: %s", box).isTrue();
        } else {
            assertThat(sameRow).as("beside the button: %s", box).isTrue();
        }
        assertThat(box.get("pageWidth").doubleValue()).as("nothing wider than the screen")
                .isLessThanOrEqualTo(box.get("viewportWidth").doubleValue());
        assertThat(script("return getComputedStyle(document.getElementById('title')).fontWeight"))
                .as("input text is not bold").isEqualTo("400");
        assertThat(script("return fetch(document.querySelector('link[rel=icon]').href).then(r => r.status)"))
                .as("the page's icon is there").isEqualTo(200L);
        assertThat(browser.findElement(By.id("limits")).getText()).isEqualTo("Up to 5 files, each at most 64 KB.");

        ((JavascriptExecutor) browser).executeScript("window.scrollTo(0, 0)");
        Files.createDirectories(SCREENSHOTS);
        Files.write(SCREENSHOTS.resolve("study-week-" + name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
    }

    private static void viewport(int width, int height, boolean mobile) {
        chromium.viewport(width, height, mobile);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Number> boxes() {
        return (Map<String, Number>) ((JavascriptExecutor) browser).executeScript("""
                const b = document.getElementById('submit').getBoundingClientRect();
                const e = document.getElementById('error').getBoundingClientRect();
                return { buttonTop: b.top, buttonBottom: b.bottom, buttonRight: b.right, errorTop: e.top,
                    errorBottom: e.bottom, errorLeft: e.left, errorRight: e.right, viewportWidth: innerWidth,
                    viewportHeight: innerHeight, pageWidth: document.documentElement.scrollWidth };
                """);
    }

    private Object script(String script) {
        return ((JavascriptExecutor) browser).executeScript(script);
    }

    private List<String> weekTitles() {
        return browser.findElements(By.cssSelector("#weeks .week h3")).stream().map(WebElement::getText).toList();
    }

    private void fillTheForm(String title, Path... files) {
        chromium.fillTheForm(api, studyId, title, files);
    }

    private void set(String field, String value) {
        chromium.set(field, value);
    }

    private List<String> states() {
        return chromium.states();
    }

    private List<String> rowTexts() {
        return chromium.rowTexts();
    }
}
