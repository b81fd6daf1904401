package dev.onebeat.scheduler.web.api;

import static dev.onebeat.scheduler.ApiClient.detail;
import static dev.onebeat.scheduler.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.WebIT;
import io.micrometer.core.instrument.Metrics;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/** The read-only REST API and actuator endpoints of a running replica with a job firing every second. */
// closes the context, and its running scheduler, before the extension drops the database
@WebIT(properties = {
        SchedulerTestDatabase.NO_DEMO,
        "onebeat.jobs[0].name=heartbeat", "onebeat.jobs[0].every=1s", "onebeat.jobs[0].task=ops.heartbeat",
        "onebeat.jobs[0].kwargs.source=api-test",
        "onebeat.jobs[1].name=weekday-report", "onebeat.jobs[1].cron=30 8 * * MON-FRI",
        "onebeat.jobs[1].zone=Europe/Paris", "onebeat.jobs[1].task=reports.daily",
        "onebeat.monitor.check-interval=1s"})
class ApiIT {

    @Autowired
    ApiClient server;
    @Autowired
    JdbcClient jdbc;

    private ApiClient api;

    @BeforeEach
    void client() {
        // admin: the actuator's prometheus endpoint needs it
        api = server.as("admin");
    }

    @Test
    void jobsListsEveryJobWithScheduleZoneAndNextFire() throws Exception {
        JsonNode jobs = json(api.get("/api/jobs")).get("items");

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
        JsonNode search = json(api.get("/api/jobs?q=REPORT"));
        JsonNode secondPage = json(api.get("/api/jobs?page=1&size=1"));

        assertThat(search.get("total").asLong()).isEqualTo(1);
        assertThat(search.get("items").get(0).get("name").asString()).isEqualTo("weekday-report");
        assertThat(secondPage.get("total").asLong()).isEqualTo(2);
        assertThat(secondPage.get("items")).hasSize(1);
        assertThat(secondPage.get("items").get(0).get("name").asString()).isEqualTo("weekday-report");
    }

    @Test
    void locksShowTheJobLockOfAJobThatFired() {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode locks = json(api.get("/api/locks"));
            assertThat(locks.findValuesAsString("name")).contains("onebeat:heartbeat");
            assertThat(locks.get(0).get("lockedBy").asString()).isNotBlank();
            assertThat(locks.get(0).get("lockedAt").isNull()).isFalse();
        });
    }

    @Test
    void firesOfAJobAppearNewestFirst() {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode fires = json(api.get("/api/jobs/heartbeat/fires?limit=2"));
            assertThat(fires).hasSize(2);
            assertThat(fires.get(0).get("scheduledAt").asString())
                    .isGreaterThan(fires.get(1).get("scheduledAt").asString());
            assertThat(fires.get(0).get("taskCount").asInt()).isEqualTo(1);
            assertThat(fires.get(0).get("outcome").asString()).isEqualTo("committed");
        });
    }

    @Test
    void firesOfUnknownJobIsNotFoundProblem() throws Exception {
        HttpResponse<String> response = api.get("/api/jobs/nope/fires");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(detail(response)).isEqualTo("no job named 'nope'");
    }

    @Test
    void fireLimitOutOfRangeIsBadRequestNamingTheParameter() throws Exception {
        HttpResponse<String> response = api.get("/api/jobs/heartbeat/fires?limit=5000");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response))
                .isEqualTo("limit: must be less than or equal to 1000 (was 5000)");
    }

    @Test
    void fireLimitThatIsNotANumberIsBadRequestNamingTheParameter() throws Exception {
        HttpResponse<String> response = api.get("/api/jobs/heartbeat/fires?limit=ten");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response)).isEqualTo("limit: 'ten' is not a valid int");
    }

    @Test
    void clusterShowsThisReplica() throws Exception {
        JsonNode cluster = json(api.get("/api/cluster"));

        assertThat(cluster.get("nodes")).hasSize(1);
        assertThat(cluster.get("nodes").get(0).get("instanceId").asString()).isEqualTo(cluster.get("self").asString());
        assertThat(cluster.get("nodes").get(0).get("checkinIntervalMillis").asLong()).isEqualTo(1000);
        assertThat(Math.abs(cluster.get("nodes").get(0).get("clockSkewMillis").asLong())).as("one clock here")
                .isLessThan(1000);
    }

    @Test
    void healthIsUpWithDatabaseAndClock() throws Exception {
        JsonNode health = json(api.get("/actuator/health"));

        assertThat(health.get("status").asString()).isEqualTo("UP");
        assertThat(health.get("components").get("db").get("status").asString()).isEqualTo("UP");
        assertThat(health.get("components").get("clock").get("details").has("skewMillis")).isTrue();
        assertThat(health.get("components").get("clock").get("details").get("firing").asString()).isEqualTo("active");
        // probes need no user, and see the status only
        JsonNode anonymous = json(server.get("/actuator/health"));
        assertThat(anonymous.get("status").asString()).isEqualTo("UP");
        assertThat(anonymous.has("components")).isFalse();
    }

    @Test
    void prometheusExposesFireMetrics() {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(api.get("/actuator/prometheus").body())
                .contains("onebeat_fires_total{application=\"onebeat\",job=\"heartbeat\",namespace=\"default\",outcome=\"committed\"}")
                .contains("onebeat_tasks_dispatched_total{application=\"onebeat\",job=\"heartbeat\",namespace=\"default\"}")
                .contains("onebeat_tasks_duplicate_total{application=\"onebeat\",job=\"heartbeat\",namespace=\"default\"}")
                .contains("onebeat_fire_lag_seconds_bucket{application=\"onebeat\",trigger=\"scheduled\""));
    }

    @Test
    void prometheusExposesTheDetectorsPerJobMetricsAndTheLostFires() {
        // a hand-back gives a fire up in a static callback, through Micrometer's global registry
        Metrics.counter("onebeat.fire.lost").increment();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(api.get("/actuator/prometheus").body())
                .containsPattern("onebeat_job_last_success_timestamp_seconds\\{application=\"onebeat\",job=\"heartbeat\",namespace=\"default\"} 1\\.\\d+E9")
                .containsPattern("onebeat_job_deadline_timestamp_seconds\\{application=\"onebeat\",job=\"heartbeat\",namespace=\"default\"} 1\\.\\d+E9")
                .contains("onebeat_monitor_last_check_timestamp_seconds{application=\"onebeat\"}")
                .containsPattern("onebeat_fire_lost_total\\{application=\"onebeat\"} [1-9]"));
    }

    @Test
    void instantsGiveEachExpectedInstantOfTheRangeWithItsOutcome() throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> json(api.get("/api/jobs/heartbeat/instants?limit=50"))
                .get("counts").get("on-time").asInt() >= 8);

        JsonNode timeline = json(api.get("/api/jobs/heartbeat/instants?limit=5"));

        assertThat(timeline.get("job").asString()).isEqualTo("heartbeat");
        assertThat(timeline.get("truncated").asBoolean()).as("the job's day so far holds more than 5").isTrue();
        JsonNode instants = timeline.get("instants");
        assertThat(instants).hasSize(5);
        JsonNode fired = instants.get(0);
        assertThat(fired.get("outcome").asString()).isIn("on-time", "late");
        assertThat(fired.get("trigger").asString()).isEqualTo("scheduled");
        assertThat(fired.get("lagMillis").asLong()).isNotNegative();
        assertThat(Instant.parse(fired.get("graceEnds").asString()))
                .isEqualTo(Instant.parse(fired.get("instant").asString()).plusSeconds(30));
        assertThat(instants.get(4).get("outcome").asString()).as("the instant due now").isIn("pending", "on-time");
    }

    @Test
    void aFireThatBeganBeforeItsInstantByTheDatabasesClockIsShownEarlyWithItsNegativeLag() throws Exception {
        // as a replica whose clock ran 1.9 s ahead wrote it before fires waited for the database's time
        Object memberSince = jdbc.sql("SELECT member_since FROM onebeat_job WHERE name = 'weekday-report'")
                .query().singleValue();
        jdbc.sql("UPDATE onebeat_job SET member_since = '2026-01-01T00:00:00Z' WHERE name = 'weekday-report'").update();
        jdbc.sql("""
                INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome)
                VALUES ('weekday-report', '2026-06-01T06:30:00Z', '2026-06-01T06:29:58.100Z', 'n1', 'scheduled',
                        'committed')""").update();
        try {
            JsonNode timeline = json(api.get(
                    "/api/jobs/weekday-report/instants?from=2026-06-01T06:00:00Z&to=2026-06-01T07:00:00Z"));

            JsonNode fired = timeline.get("instants").get(0);
            assertThat(fired.get("instant").asString()).isEqualTo("2026-06-01T06:30:00Z");
            assertThat(fired.get("outcome").asString()).isEqualTo("early");
            assertThat(fired.get("lagMillis").asLong()).isEqualTo(-1900);
            assertThat(timeline.get("counts").get("early").asInt()).isEqualTo(1);
        } finally {
            jdbc.sql("DELETE FROM onebeat_fire WHERE job_name = 'weekday-report' AND scheduled_at = '2026-06-01T06:30:00Z'")
                    .update();
            jdbc.sql("UPDATE onebeat_job SET member_since = ? WHERE name = 'weekday-report'").param(memberSince).update();
        }
    }

    @Test
    void instantsFromTheYearOneGiveAtMostTheLimitOfRunsAndEventsTheLatestOnes() throws Exception {
        // 700 runs outside the schedule and 700 events of the year 2000, before the job joined its schedule
        jdbc.sql("""
                INSERT INTO onebeat_fire (job_name, scheduled_at, run_id, fired_at, node, trigger_kind, outcome)
                SELECT 'weekday-report', timestamptz '2000-01-01 00:00Z' + n * interval '1 hour', 'run-' || n,
                       timestamptz '2000-01-01 00:00Z' + n * interval '1 hour', 'n1', 'manual', 'committed'
                FROM generate_series(1, 700) AS n""").update();
        jdbc.sql("""
                INSERT INTO onebeat_job_event (job_name, scheduled_at, kind, reason, alerted, node, detected_at)
                SELECT 'weekday-report', timestamptz '2000-01-01 00:00Z' + n * interval '1 hour', 'missed', 'r', false,
                       'n1', now()
                FROM generate_series(1, 700) AS n""").update();
        try {
            var timeline = api.get("/api/jobs/weekday-report/instants?from=0001-01-01T00:00:00Z&limit=100");

            assertThat(timeline.statusCode()).as(timeline.body()).isEqualTo(200);
            JsonNode runs = json(timeline).get("runs");
            JsonNode events = json(timeline).get("events");
            assertThat(runs).hasSize(100);
            assertThat(events).hasSize(100);
            assertThat(runs.get(99).get("run").asString()).as("the latest, oldest first").isEqualTo("run-700");
            assertThat(runs.get(0).get("run").asString()).isEqualTo("run-601");
            assertThat(Instant.parse(events.get(99).get("instant").asString()))
                    .isEqualTo(Instant.parse("2000-01-01T00:00:00Z").plus(Duration.ofHours(700)));
        } finally {
            jdbc.sql("DELETE FROM onebeat_fire WHERE job_name = 'weekday-report' AND run_id LIKE 'run-%'").update();
            jdbc.sql("DELETE FROM onebeat_job_event WHERE job_name = 'weekday-report' AND reason = 'r'").update();
        }
    }

    @Test
    void instantsOfAnUnknownJobAre404AndABadRangeA400NamingTheParameter() throws Exception {
        assertThat(api.get("/api/jobs/nope/instants").statusCode()).isEqualTo(404);
        var backwards = api.get("/api/jobs/heartbeat/instants?from=2027-01-02T00:00:00Z&to=2027-01-01T00:00:00Z");
        assertThat(backwards.statusCode()).isEqualTo(400);
        assertThat(backwards.body()).contains("from: 2027-01-02T00:00:00Z is not before to: 2027-01-01T00:00:00Z");
        var tooMany = api.get("/api/jobs/heartbeat/instants?from=2027-01-01T00:00:00Z&to=2027-01-02T00:00:00Z");
        assertThat(tooMany.statusCode()).isEqualTo(400);
        assertThat(tooMany.body()).contains("holds more than 500 instants of job 'heartbeat'");
    }
}
