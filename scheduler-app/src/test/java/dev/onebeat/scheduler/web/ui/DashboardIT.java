package dev.onebeat.scheduler.web.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.WebIT;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The console's dashboard, rendered by a running replica from its ledger, outbox and cluster state, for signed-in users. */
@WebIT(properties = {SchedulerTestDatabase.NO_DEMO,
        "onebeat.jobs[0].name=dashboard-heartbeat", "onebeat.jobs[0].every=1s", "onebeat.jobs[0].task=ops.heartbeat"})
class DashboardIT {

    @Autowired
    ApiClient server;

    @Test
    void dashboardShowsThisReplicaAndTheLatestFires() throws Exception {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            HttpResponse<String> page = server.as("viewer").get("/ui");
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
            assertThat(page.body()).contains("<h1>Dashboard</h1>").contains("(this replica)")
                    .contains(">dashboard-heartbeat</a></td>").doesNotContain("No fire yet.");
        });
        assertThat(server.get("/css/onebeat.css").statusCode()).isEqualTo(200);
        HttpResponse<String> anonymous = server.get("/ui");
        assertThat(anonymous.statusCode()).isEqualTo(302);
        assertThat(anonymous.headers().firstValue("Location")).hasValueSatisfying(to -> assertThat(to).endsWith("/login"));
    }

}
