package dev.onebeat.scheduler.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SecurityTestUsers;
import dev.onebeat.testsupport.PostgresExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The console in a real browser (headless Chromium): sign in, the dashboard renders live figures; an
 * operator pauses, resumes and triggers a job and sees the new fire in its history; a bad cron is
 * answered next to its field. Screenshots are kept under {@code target/screenshots}.
 */
@ExtendWith(PostgresExtension.class)
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = SchedulerTestDatabase.NO_DEMO)
class ConsoleBrowserIT {

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        SchedulerTestDatabase.register(registry, ConsoleBrowserIT.class);
        SecurityTestUsers.register(registry);
        Map.of("onebeat.jobs[0].name", "browser-heartbeat", "onebeat.jobs[0].every", "1s",
                        "onebeat.jobs[0].task", "ops.heartbeat",
                        // fires once a year: every fire in its history is one this test made
                        "onebeat.jobs[1].name", "yearly-report", "onebeat.jobs[1].cron", "0 6 1 1 *",
                        "onebeat.jobs[1].zone", "Europe/Paris", "onebeat.jobs[1].task", "reports.yearly")
                .forEach((name, value) -> registry.add(name, () -> value));
    }

    @Test
    void dashboardShowsTheLatestFiresInARealBrowser() throws Exception {
        try (Browser browser = new Browser()) {
            // the console asks for a sign-in first, then comes back to the page asked for
            browser.driver().get("http://localhost:" + port + "/ui");
            assertThat(browser.driver().getCurrentUrl()).endsWith("/login");
            browser.driver().findElement(By.id("username")).sendKeys("viewer");
            browser.driver().findElement(By.id("password")).sendKeys(SecurityTestUsers.PASSWORD);
            browser.driver().findElement(By.cssSelector("button[type=submit]")).click();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                browser.driver().get("http://localhost:" + port + "/ui");
                assertThat(browser.driver().findElement(By.tagName("h1")).getText()).isEqualTo("Dashboard");
                assertThat(browser.driver().findElement(By.id("recent-fires")).getText()).contains("browser-heartbeat");
            });
            Path shot = browser.screenshot("dashboard");
            assertThat(Files.size(shot)).isPositive();
        }
    }

    @Test
    void adminPausesResumesAndTriggersAJobAndSeesTheFire() throws Exception {
        try (Browser browser = new Browser()) {
            WebDriver driver = browser.driver();
            // signing in with no page asked for lands on the dashboard
            driver.get(url("/login"));
            driver.findElement(By.id("username")).sendKeys("admin");
            driver.findElement(By.id("password")).sendKeys(SecurityTestUsers.PASSWORD);
            driver.findElement(By.cssSelector("button[type=submit]")).click();
            assertThat(driver.getCurrentUrl()).isEqualTo(url("/ui"));
            assertThat(driver.findElement(By.id("signed-in-as")).getText()).isEqualTo("admin · admin");

            driver.findElement(By.linkText("Jobs")).click();
            driver.findElement(By.id("q")).sendKeys("yearly");
            driver.findElement(By.cssSelector("form[role=search] button")).click();
            assertThat(driver.findElement(By.id("jobs")).getText()).contains("yearly-report")
                    .doesNotContain("browser-heartbeat");
            driver.findElement(By.linkText("yearly-report")).click();
            assertThat(driver.findElement(By.id("job-state")).getText()).isEqualTo("active");
            assertThat(driver.findElement(By.id("history")).getText()).contains("No fire yet.");

            driver.findElement(By.id("pause")).click();
            assertThat(driver.findElement(By.id("notice")).getText()).startsWith("Paused: yearly-report");
            assertThat(driver.findElement(By.id("job-state")).getText()).isEqualTo("paused");
            assertThat(driver.findElement(By.id("next-fire")).getText()).isEqualTo("none while paused");

            driver.findElement(By.id("resume")).click();
            assertThat(driver.findElement(By.id("notice")).getText()).startsWith("Resumed: yearly-report");
            assertThat(driver.findElement(By.id("job-state")).getText()).isEqualTo("active");

            driver.findElement(By.id("trigger")).click();
            assertThat(driver.findElement(By.id("notice")).getText()).startsWith("Triggered: yearly-report");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                driver.navigate().refresh();
                assertThat(driver.findElements(By.cssSelector("#history tr.manual"))).hasSize(1);
            });
            assertThat(driver.findElement(By.cssSelector("#history tr.manual")).getText()).contains("manual")
                    .contains("committed");
            assertThat(driver.findElement(By.id("changes")).getText()).contains("job.pause").contains("job.resume")
                    .contains("job.trigger");

            // a bad cron is answered next to its field, and the schedule stays as it was
            driver.findElement(By.id("cron")).clear();
            driver.findElement(By.id("cron")).sendKeys("0 25 * * *");
            driver.findElement(By.id("save")).click();
            assertThat(driver.findElement(By.id("cron-error")).getText()).contains("0 25 * * *");
            assertThat(driver.findElement(By.id("job-schedule")).getText()).isEqualTo("0 6 1 1 *");
            driver.findElement(By.id("cron")).clear();
            driver.findElement(By.id("cron")).sendKeys("30 2 * * *");
            driver.findElement(By.id("preview")).click();
            assertThat(driver.findElement(By.id("preview-result")).getText()).contains("02:30:00+01:00");

            driver.get(url("/ui/jobs/yearly-report"));
            Path shot = browser.screenshot("job");
            assertThat(Files.size(shot)).isPositive();
        }
    }

    private String url(String path) {
        return "http://localhost:" + port + path;
    }
}
