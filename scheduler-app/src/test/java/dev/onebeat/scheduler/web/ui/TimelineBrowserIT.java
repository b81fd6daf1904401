package dev.onebeat.scheduler.web.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SecurityTestUsers;
import dev.onebeat.scheduler.WebIT;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The job page's timeline strip in a real browser (headless Chromium): an hour of a job's instants, one failed for
 * good, one missed, one skipped while paused and one late among on-time ones, each cell coloured and titled by what
 * became of it; the dashboard lists the job among those with misses. The screenshot of the job page is the one in docs/.
 */
@WebIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.monitor.check-interval=1s",
        "onebeat.jobs[0].name=" + TimelineBrowserIT.JOB, "onebeat.jobs[0].every=60s", "onebeat.jobs[0].task=billing.invoices"})
class TimelineBrowserIT {

    static final String JOB = "hourly-invoices";
    private static final Instant LAST = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(2));
    private static final Instant FAILED = LAST.minus(Duration.ofMinutes(20));
    private static final Instant MISSED = LAST.minus(Duration.ofMinutes(12));

    @Autowired
    ApiClient server;
    @Autowired
    JdbcClient jdbc;

    @Test
    void theStripShowsAFailedAndAMissedInstantAsSuchAndTheDashboardListsTheJob() throws Exception {
        history();
        try (Browser browser = new Browser()) {
            WebDriver driver = browser.driver();
            driver.get(url("/login"));
            driver.findElement(By.id("username")).sendKeys("viewer");
            driver.findElement(By.id("password")).sendKeys(SecurityTestUsers.PASSWORD);
            driver.findElement(By.cssSelector("button[type=submit]")).click();

            driver.get(url("/ui/jobs/" + JOB));
            List<WebElement> cells = driver.findElements(By.cssSelector("#timeline .strip .cell"));
            WebElement failed = cell(driver, FAILED);
            WebElement missed = cell(driver, MISSED);

            assertThat(cells).hasSizeGreaterThanOrEqualTo(50);
            assertThat(failed.getAttribute("data-outcome")).isEqualTo("failed");
            assertThat(failed.getAttribute("title")).contains("failed").contains("attempt 3 failed: "
                    + "java.sql.SQLTransientConnectionException: connection refused");
            assertThat(failed.getCssValue("background-color")).isEqualTo("rgba(192, 57, 43, 1)");
            assertThat(missed.getAttribute("data-outcome")).isEqualTo("missed");
            assertThat(missed.getAttribute("title")).contains("missed — no fire began by");
            assertThat(cell(driver, LAST.minus(Duration.ofMinutes(30))).getAttribute("data-outcome")).isEqualTo("skipped");
            assertThat(cell(driver, LAST.minus(Duration.ofMinutes(5))).getAttribute("title")).contains("late by 120.0 s");
            assertThat(cell(driver, LAST).getAttribute("data-outcome")).isEqualTo("on-time");
            assertThat(driver.findElement(By.cssSelector("#timeline .legend")).getText()).contains("failed 1")
                    .contains("missed 1");
            // the picture in docs/: the top of the job page, its facts and the strip
            Path shot = browser.viewport("job-timeline", 1280, 820);
            assertThat(Files.size(shot)).isPositive();

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                driver.get(url("/ui"));
                assertThat(driver.findElement(By.id("missed-jobs")).getText()).contains(JOB);
            });
            browser.screenshot("dashboard-misses");
        }
    }

    /** An hour of one-minute instants up to now, as the fire path records them. */
    private void history() {
        // the job was stored as the test started: its history here is older
        jdbc.sql("UPDATE onebeat_job SET member_since = ?").param(Timestamp.from(LAST.minus(Duration.ofHours(2)))).update();
        // up to now: an instant after LAST with no fire would be missed too
        for (Instant at = LAST.minus(Duration.ofMinutes(59)); !at.isAfter(Instant.now()); at = at.plusSeconds(60)) {
            if (at.equals(FAILED)) {
                jdbc.sql("""
                                INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, attempt, outcome, error_class,
                                                                  error_message, node, trigger_kind, attempted_at)
                                VALUES (?, ?, 3, 'failed', 'java.sql.SQLTransientConnectionException', 'connection refused',
                                        'replica-2', 'retry', ?)""")
                        .params(JOB, Timestamp.from(at), Timestamp.from(at.plusSeconds(31))).update();
            } else if (at.equals(LAST.minus(Duration.ofMinutes(30)))) {
                jdbc.sql("""
                                INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, attempt, outcome, reason, node,
                                                                  trigger_kind, attempted_at)
                                VALUES (?, ?, 1, 'skipped', 'paused', 'replica-1', 'scheduled', ?)""")
                        .params(JOB, Timestamp.from(at), Timestamp.from(at)).update();
            } else if (!at.equals(MISSED)) {
                Instant firedAt = at.equals(LAST.minus(Duration.ofMinutes(5))) ? at.plusSeconds(120) : at.plusMillis(40);
                jdbc.sql("""
                                INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome,
                                                          task_count, duration_ms)
                                VALUES (?, ?, ?, 'replica-1', 'scheduled', 'committed', 1, 12)""")
                        .params(JOB, Timestamp.from(at), Timestamp.from(firedAt)).update();
            }
        }
        // the detector's progress from before the hour, so that its next check judges the hour
        jdbc.sql("""
                        INSERT INTO onebeat_job_monitor (job_name, checked_until, updated_at) VALUES (?, ?, now())
                        ON CONFLICT (job_name) DO UPDATE SET checked_until = EXCLUDED.checked_until""")
                .params(JOB, Timestamp.from(LAST.minus(Duration.ofMinutes(60)))).update();
    }

    private static WebElement cell(WebDriver driver, Instant instant) {
        return driver.findElement(By.cssSelector("#timeline .strip .cell[data-instant='" + instant + "']"));
    }

    private String url(String path) {
        return server.url(path);
    }
}
