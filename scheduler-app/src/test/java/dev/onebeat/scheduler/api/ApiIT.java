package dev.onebeat.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SecurityTestUsers;
import dev.onebeat.testsupport.PostgresExtension;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The read-only REST API and actuator endpoints of a running replica with a job firing every second. */
@ExtendWith(PostgresExtension.class)
// closes the context, and its running scheduler, before the extension drops the database
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        SchedulerTestDatabase.NO_DEMO,
        "onebeat.jobs[0].name=heartbeat", "onebeat.jobs[0].every=1s", "onebeat.jobs[0].task=ops.heartbeat",
        "onebeat.jobs[0].kwargs.source=api-test",
        "onebeat.jobs[1].name=weekday-report", "onebeat.jobs[1].cron=30 8 * * MON-FRI",
        "onebeat.jobs[1].zone=Europe/Paris", "onebeat.jobs[1].task=reports.daily"})
class ApiIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        SchedulerTestDatabase.register(registry, ApiIT.class);
        SecurityTestUsers.register(registry);
    }

    @Test
    void jobsListsEveryJobWithScheduleZoneAndNextFire() throws Exception {
        JsonNode jobs = json(get("/api/jobs")).get("items");

        assertThat(jobs).hasSize(2);
        JsonNode report = jobs.get(1);
        assertThat(report.get("name").asString()).isEqualTo("weekday-report");
        assertThat(report.get("schedule").asString()).isEqualTo("30 8 * * MON-FRI");
        assertThat(report.get("quartzSchedule").asString()).isEqualTo("cron 0 30 8 ? * MON-FRI Europe/Paris");
        assertThat(report.get("zone").asString()).isEqualTo("Europe/Paris");
        assertThat(report.get("nextFire").isNull()).isFalse();
        assertThat(report.get("paused").asBoolean()).isFalse();
        assertThat(report.get("registered").asBoolean()).isTrue();
    }

    @Test
    void jobsAreSearchedByNameAndPagedWithTheirTotal() throws Exception {
        JsonNode search = json(get("/api/jobs?q=REPORT"));
        JsonNode secondPage = json(get("/api/jobs?page=1&size=1"));

        assertThat(search.get("total").asLong()).isEqualTo(1);
        assertThat(search.get("items").get(0).get("name").asString()).isEqualTo("weekday-report");
        assertThat(secondPage.get("total").asLong()).isEqualTo(2);
        assertThat(secondPage.get("items")).hasSize(1);
        assertThat(secondPage.get("items").get(0).get("name").asString()).isEqualTo("weekday-report");
    }

    @Test
    void locksShowTheJobLockOfAJobThatFired() {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode locks = json(get("/api/locks"));
            assertThat(locks.findValuesAsString("name")).contains("onebeat:heartbeat");
            assertThat(locks.get(0).get("lockedBy").asString()).isNotBlank();
            assertThat(locks.get(0).get("lockedAt").isNull()).isFalse();
        });
    }

    @Test
    void firesOfAJobAppearNewestFirst() {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode fires = json(get("/api/jobs/heartbeat/fires?limit=2"));
            assertThat(fires).hasSize(2);
            assertThat(fires.get(0).get("scheduledAt").asString())
                    .isGreaterThan(fires.get(1).get("scheduledAt").asString());
            assertThat(fires.get(0).get("taskCount").asInt()).isEqualTo(1);
            assertThat(fires.get(0).get("outcome").asString()).isEqualTo("committed");
        });
    }

    @Test
    void firesOfUnknownJobIsNotFoundProblem() throws Exception {
        HttpResponse<String> response = get("/api/jobs/nope/fires");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(json(response).get("detail").asString()).isEqualTo("no job named 'nope'");
    }

    @Test
    void fireLimitOutOfRangeIsBadRequestNamingTheParameter() throws Exception {
        HttpResponse<String> response = get("/api/jobs/heartbeat/fires?limit=5000");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("detail").asString())
                .isEqualTo("limit: must be less than or equal to 1000 (was 5000)");
    }

    @Test
    void fireLimitThatIsNotANumberIsBadRequestNamingTheParameter() throws Exception {
        HttpResponse<String> response = get("/api/jobs/heartbeat/fires?limit=ten");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("detail").asString()).isEqualTo("limit: 'ten' is not a valid int");
    }

    @Test
    void clusterShowsThisReplica() throws Exception {
        JsonNode cluster = json(get("/api/cluster"));

        assertThat(cluster.get("nodes")).hasSize(1);
        assertThat(cluster.get("nodes").get(0).get("instanceId").asString()).isEqualTo(cluster.get("self").asString());
        assertThat(cluster.get("nodes").get(0).get("checkinIntervalMillis").asLong()).isEqualTo(1000);
    }

    @Test
    void healthIsUpWithDatabaseAndClock() throws Exception {
        JsonNode health = json(get("/actuator/health"));

        assertThat(health.get("status").asString()).isEqualTo("UP");
        assertThat(health.get("components").get("db").get("status").asString()).isEqualTo("UP");
        assertThat(health.get("components").get("clock").get("details").has("skewMillis")).isTrue();
        // probes need no user, and see the status only
        JsonNode anonymous = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                + "/actuator/health")).build(), HttpResponse.BodyHandlers.ofString()).body());
        assertThat(anonymous.get("status").asString()).isEqualTo("UP");
        assertThat(anonymous.has("components")).isFalse();
    }

    @Test
    void prometheusExposesFireMetrics() {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(get("/actuator/prometheus").body())
                .contains("onebeat_fires_total{application=\"onebeat\",job=\"heartbeat\",outcome=\"committed\"}")
                .contains("onebeat_tasks_dispatched_total{application=\"onebeat\",job=\"heartbeat\"}")
                .contains("onebeat_tasks_duplicate_total{application=\"onebeat\",job=\"heartbeat\"}")
                .contains("onebeat_fire_lag_seconds_bucket{application=\"onebeat\",job=\"heartbeat\""));
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        // admin: the actuator's prometheus endpoint needs it
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                        .header("Authorization", SecurityTestUsers.basic("admin")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }
}
