package dev.onebeat.scheduler.web.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SecurityTestUsers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The console's dashboard, rendered by a running replica from its ledger, outbox and cluster state, for signed-in users. */
@SchedulerIT(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = SchedulerTestDatabase.NO_DEMO)
class DashboardIT {

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        SecurityTestUsers.register(registry);
        Map.of("onebeat.jobs[0].name", "dashboard-heartbeat", "onebeat.jobs[0].every", "1s",
                        "onebeat.jobs[0].task", "ops.heartbeat")
                .forEach((name, value) -> registry.add(name, () -> value));
    }

    @Test
    void dashboardShowsThisReplicaAndTheLatestFires() throws Exception {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            HttpResponse<String> page = get("/ui", SecurityTestUsers.basic("viewer"));
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
            assertThat(page.body()).contains("<h1>Dashboard</h1>").contains("(this replica)")
                    .contains(">dashboard-heartbeat</a></td>").doesNotContain("No fire yet.");
        });
        assertThat(get("/css/onebeat.css", null).statusCode()).isEqualTo(200);
        HttpResponse<String> anonymous = get("/ui", null);
        assertThat(anonymous.statusCode()).isEqualTo(302);
        assertThat(anonymous.headers().firstValue("Location")).hasValueSatisfying(to -> assertThat(to).endsWith("/login"));
    }

    private HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
