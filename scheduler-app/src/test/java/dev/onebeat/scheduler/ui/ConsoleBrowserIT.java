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
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The console in a real browser (headless Chromium): sign in, the dashboard renders live figures; a screenshot is kept. */
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
                        "onebeat.jobs[0].task", "ops.heartbeat")
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
}
