package dev.onebeat.scheduler.web.ui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium driven by its chromedriver, with both paths set (no driver download).
 * Missing packages fail the test with the command that installs them; {@code .ci/run} installs them.
 */
final class Browser implements AutoCloseable {

    private static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("ONEBEAT_TEST_CHROMIUM", "/usr/bin/chromium"));
    private static final Path DRIVER = Path.of(System.getenv().getOrDefault("ONEBEAT_TEST_CHROMEDRIVER", "/usr/bin/chromedriver"));
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private final ChromeDriver driver;

    Browser() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(DRIVER)) {
            throw new IllegalStateException("headless Chromium needs " + CHROMIUM + " and " + DRIVER
                    + ": apt-get install chromium chromium-driver (.ci/run does)");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--window-size=1280,900");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
    }

    WebDriver driver() {
        return driver;
    }

    /** Saves the page as {@code target/screenshots/<name>.png}, the window grown to the page's height, and returns the path. */
    Path screenshot(String name) throws IOException {
        long height = ((Number) ((JavascriptExecutor) driver)
                .executeScript("return document.documentElement.scrollHeight")).longValue();
        driver.manage().window().setSize(new Dimension(1280, (int) Math.min(4000, Math.max(900, height + 160))));
        Files.createDirectories(SCREENSHOTS);
        Path file = SCREENSHOTS.resolve(name + ".png");
        Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        return file;
    }

    /** Saves what the window shows, {@code width} by {@code height}, as {@code target/screenshots/<name>.png}. */
    Path viewport(String name, int width, int height) throws IOException {
        driver.manage().window().setSize(new Dimension(width, height));
        Files.createDirectories(SCREENSHOTS);
        Path file = SCREENSHOTS.resolve(name + ".png");
        Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        return file;
    }

    @Override
    public void close() {
        driver.quit();
    }
}
