package io.github.boundedupload.examples.studyweek;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium for the page's tests: Debian's {@code chromium} and {@code chromium-driver} packages
 * ({@code .ci/run} installs them), driven by Selenium; nothing is downloaded. With the page's own steps (fill the
 * form, read the progress rows) that the browser tests share.
 */
final class Chromium implements AutoCloseable {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    final ChromeDriver browser;

    private Chromium(ChromeDriver browser) {
        this.browser = browser;
    }

    static Chromium start() throws IOException {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("the browser test needs Debian's Chromium and its driver: "
                    + "apt-get install -y chromium chromium-driver");
        }
        Path profile = Files.createTempDirectory("study-week-chromium");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile()).addArguments("--headless",
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile);
        ChromeDriverService driver = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        return new Chromium(new ChromeDriver(driver, options));
    }

    /** The viewport a device has: the window's size is not the page's in headless Chromium. */
    void viewport(int width, int height, boolean mobile) {
        browser.executeCdpCommand("Emulation.setDeviceMetricsOverride", Map.of("width", width, "height", height,
                "deviceScaleFactor", 1, "mobile", mobile));
    }

    /** Opens the page, shows the study's weeks, fills in the new week's fields and chooses the files. */
    void fillTheForm(Api api, long studyId, String title, Path... files) {
        browser.get(api.uri("/").toString());
        set("studyId", Long.toString(studyId));
        browser.findElement(By.cssSelector("#study-form button")).click(); // lists this study's weeks
        set("title", title);
        set("content", "Graphs");
        set("startDate", "2026-11-16"); // date inputs take yyyy-MM-dd from script whatever the locale shows
        set("endDate", "2026-11-22");
        browser.findElement(By.name("files")).sendKeys(String.join("\n",
                Arrays.stream(files).map(Path::toString).toList()));
    }

    void set(String field, String value) {
        script("arguments[0].value = arguments[1]", browser.findElement(By.name(field)), value);
    }

    Object script(String script, Object... arguments) {
        return ((JavascriptExecutor) browser).executeScript(script, arguments);
    }

    /** Each file's state in the progress table, in order. */
    List<String> states() {
        return browser.findElements(By.cssSelector("#progress-rows tr")).stream()
                .map(row -> row.getAttribute("data-state")).toList();
    }

    List<String> rowTexts() {
        return browser.findElements(By.cssSelector("#progress-rows tr")).stream().map(WebElement::getText).toList();
    }

    @Override
    public void close() {
        browser.quit();
    }
}
