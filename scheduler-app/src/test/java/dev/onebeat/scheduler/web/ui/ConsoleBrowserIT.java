package dev.onebeat.scheduler.web.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SecurityTestUsers;
import dev.onebeat.scheduler.WebIT;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.assertj.core.api.ThrowingConsumer;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The console in a real browser (headless Chromium): sign in, the dashboard renders live figures; an
 * operator pauses, resumes and triggers a job and sees the new fire in its history; a bad cron is
 * answered next to its field. Screenshots are kept under {@code target/screenshots}.
 */
@WebIT(properties = {SchedulerTestDatabase.NO_DEMO,
        "onebeat.jobs[0].name=browser-heartbeat", "onebeat.jobs[0].every=1s", "onebeat.jobs[0].task=ops.heartbeat",
        // fires once a year: every fire in its history is one this test made
        "onebeat.jobs[1].name=yearly-report", "onebeat.jobs[1].cron=0 6 1 1 *", "onebeat.jobs[1].zone=Europe/Paris",
        "onebeat.jobs[1].task=reports.yearly"})
class ConsoleBrowserIT {

    @Autowired
    ApiClient server;

    @Test
    void dashboardShowsTheLatestFiresInARealBrowser() throws Exception {
        try (Browser browser = new Browser()) {
            // the console asks for a sign-in first, then comes back to the page asked for
            browser.driver().get(server.url("/ui"));
            assertThat(browser.driver().getCurrentUrl()).endsWith("/login");
            browser.driver().findElement(By.id("username")).sendKeys("viewer");
            browser.driver().findElement(By.id("password")).sendKeys(SecurityTestUsers.PASSWORD);
            browser.driver().findElement(By.cssSelector("button[type=submit]")).click();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                browser.driver().get(server.url("/ui"));
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
            see(driver, By.id("signed-in-as"), text -> assertThat(text).isEqualTo("admin · admin"));
            assertThat(driver.getCurrentUrl()).isEqualTo(url("/ui"));

            click(driver, By.linkText("Jobs"));
            see(driver, By.id("job-count"), text -> assertThat(text).isEqualTo("2 jobs"));
            driver.findElement(By.id("q")).sendKeys("yearly");
            click(driver, By.cssSelector("form[role=search] button"));
            see(driver, By.id("job-count"), text -> assertThat(text).isEqualTo("1 job"));
            see(driver, By.id("jobs"), text -> assertThat(text).contains("yearly-report")
                    .doesNotContain("browser-heartbeat"));
            click(driver, By.linkText("yearly-report"));
            see(driver, By.id("job-state"), text -> assertThat(text).isEqualTo("active"));
            see(driver, By.id("history"), text -> assertThat(text).contains("No fire yet."));

            click(driver, By.id("pause"));
            see(driver, By.id("notice"), text -> assertThat(text).startsWith("Paused: yearly-report"));
            see(driver, By.id("job-state"), text -> assertThat(text).isEqualTo("paused"));
            see(driver, By.id("next-fire"), text -> assertThat(text).isEqualTo("none while paused"));

            click(driver, By.id("resume"));
            see(driver, By.id("notice"), text -> assertThat(text).startsWith("Resumed: yearly-report"));
            see(driver, By.id("job-state"), text -> assertThat(text).isEqualTo("active"));

            click(driver, By.id("trigger"));
            see(driver, By.id("notice"), text -> assertThat(text).startsWith("Triggered: yearly-report"));
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
                driver.navigate().refresh();
                assertThat(driver.findElements(By.cssSelector("#history tr.manual"))).hasSize(1);
            });
            see(driver, By.cssSelector("#history tr.manual"), text -> assertThat(text).contains("manual")
                    .contains("committed"));
            see(driver, By.id("changes"), text -> assertThat(text).contains("job.pause").contains("job.resume")
                    .contains("job.trigger"));

            // a bad cron is answered next to its field, and the schedule stays as it was
            driver.findElement(By.id("cron")).clear();
            driver.findElement(By.id("cron")).sendKeys("0 25 * * *");
            click(driver, By.id("save"));
            see(driver, By.id("cron-error"), text -> assertThat(text).contains("0 25 * * *"));
            see(driver, By.id("job-schedule"), text -> assertThat(text).isEqualTo("0 6 1 1 *"));
            driver.findElement(By.id("cron")).clear();
            driver.findElement(By.id("cron")).sendKeys("30 2 * * *");
            click(driver, By.id("preview"));
            see(driver, By.id("preview-result"), text -> assertThat(text).contains("02:30:00+01:00"));

            driver.get(url("/ui/jobs/yearly-report"));
            see(driver, By.id("changes"), text -> assertThat(text).contains("job.trigger"));
            Path shot = browser.screenshot("job");
            assertThat(Files.size(shot)).isPositive();
        }
    }

    /**
     * Waits until the element, looked up afresh each time, shows a text that passes {@code check}: after
     * a click the next page may still be loading, and the old page's elements go stale.
     */
    private static void see(WebDriver driver, By element, ThrowingConsumer<String> check) {
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                .untilAsserted(() -> check.accept(driver.findElement(element).getText()));
    }

    /** Clicks the element once it is there: the page holding it may still be loading. */
    private static void click(WebDriver driver, By element) {
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() -> driver.findElement(element).click());
    }

    private String url(String path) {
        return server.url(path);
    }
}
