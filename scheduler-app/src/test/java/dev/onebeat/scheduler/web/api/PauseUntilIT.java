package dev.onebeat.scheduler.web.api;

import static dev.onebeat.scheduler.ApiClient.detail;
import static dev.onebeat.scheduler.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.WebIT;
import java.net.http.HttpResponse;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * A pause with a reason and an end: shown in the API, no instant fired while it lasts, the instant at
 * its end fired, and the pause then cleared and audited as a resume by the system.
 */
@WebIT(properties = {
        SchedulerTestDatabase.NO_DEMO,
        "onebeat.jobs[0].name=ticker", "onebeat.jobs[0].every=1s", "onebeat.jobs[0].task=ops.tick",
        "onebeat.jobs[1].name=yearly", "onebeat.jobs[1].cron=0 6 1 1 *", "onebeat.jobs[1].task=ops.noop"})
class PauseUntilIT {

    @Autowired
    ApiClient server;

    @Autowired
    JdbcClient jdbc;

    private ApiClient api;

    @BeforeEach
    void client() {
        api = server.as("admin");
    }

    @Test
    void aPauseUntilATimeFiresNothingBeforeItThenFiresFromItAndEndsItselfAudited() throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> fires().size() >= 2);
        Instant pausedAt = Instant.now();
        Instant until = pausedAt.plusSeconds(5).truncatedTo(ChronoUnit.SECONDS);

        HttpResponse<String> paused = api.send("POST", "/api/jobs/ticker/pause",
                "{\"reason\": \"database maintenance\", \"until\": \"" + until + "\"}");
        // committed by now: the request's own time (2.7 s once, the first request of a context on a loaded machine)
        // is not the pause's to answer for
        Instant committed = Instant.now();

        assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
        assertThat(json(paused).get("reason").asString()).isEqualTo("database maintenance");
        assertThat(json(paused).get("until").asString()).isEqualTo(until.toString());
        JsonNode job = json(api.get("/api/jobs/ticker"));
        assertThat(job.get("paused").asBoolean()).isTrue();
        assertThat(job.get("pauseReason").asString()).isEqualTo("database maintenance");
        assertThat(job.get("pausedUntil").asString()).isEqualTo(until.toString());

        await().atMost(Duration.ofSeconds(30)).until(() -> fires().contains(until.plusSeconds(2)));
        // an instant fired as the pause was being written may belong to either side
        assertThat(fires()).as("no instant fired while paused")
                .noneMatch(at -> at.isAfter(committed.plusSeconds(1)) && at.isBefore(until));
        assertThat(fires()).as("the pause's end is the first instant fired again").contains(until);

        await().atMost(Duration.ofSeconds(30)).until(() -> !json(api.get("/api/jobs/ticker")).get("paused").asBoolean());
        assertThat(json(api.get("/api/jobs/ticker")).get("pauseReason").isNull()).isTrue();
        JsonNode audit = json(api.get("/api/audit?target=ticker"));
        assertThat(audit.get(0).get("action").asString()).isEqualTo("job.resume");
        assertThat(audit.get(0).get("actor").asString()).isEqualTo("system");
        assertPause(audit.get(0).get("before"), until);
        assertThat(audit.get(0).get("after").toString()).isEqualTo("{\"paused\":false}");
        assertThat(audit.get(1).get("action").asString()).isEqualTo("job.pause");
        assertThat(audit.get(1).get("actor").asString()).isEqualTo("admin");
        assertPause(audit.get(1).get("after"), until);
    }

    private static void assertPause(JsonNode state, Instant until) {
        assertThat(state.get("paused").asBoolean()).isTrue();
        assertThat(state.get("reason").asString()).isEqualTo("database maintenance");
        assertThat(state.get("until").asString()).isEqualTo(until.toString());
        assertThat(state.size()).isEqualTo(3);
    }

    @Test
    void anEndInThePastIsBadRequestNamingItAndPausesNothing() throws Exception {
        HttpResponse<String> response = api.send("POST", "/api/jobs/yearly/pause",
                "{\"until\": \"2020-01-01T00:00:00Z\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response)).isEqualTo("until: 2020-01-01T00:00:00Z is not in the future; omit it for a pause"
                + " only a resume ends");
        assertThat(json(api.get("/api/jobs/yearly")).get("paused").asBoolean()).isFalse();
    }

    @Test
    void anOverlongReasonIsBadRequestNamingIt() throws Exception {
        HttpResponse<String> response = api.send("POST", "/api/jobs/yearly/pause",
                "{\"reason\": \"" + "x".repeat(501) + "\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response)).isEqualTo("reason: must be at most 500 characters, was 501");
    }

    private List<Instant> fires() {
        return jdbc.sql("SELECT scheduled_at FROM onebeat_fire WHERE job_name = 'ticker' ORDER BY scheduled_at")
                .query(Timestamp.class).list().stream().map(Timestamp::toInstant).toList();
    }
}
