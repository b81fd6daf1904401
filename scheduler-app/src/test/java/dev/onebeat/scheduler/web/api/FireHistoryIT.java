package dev.onebeat.scheduler.web.api;

import static dev.onebeat.scheduler.ApiClient.detail;
import static dev.onebeat.scheduler.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.WebIT;
import dev.onebeat.scheduler.engine.fire.FireFilter;
import dev.onebeat.scheduler.engine.fire.FireLedger;
import dev.onebeat.scheduler.engine.fire.FireRecord;
import java.net.http.HttpResponse;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /api/jobs/{name}/fires} filtered by outcome, trigger kind and scheduled instant, over ledger
 * rows written here (Quartz does not run, so these are the only fires).
 */
@WebIT(properties = {
        SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.jobs[0].name=hourly", "onebeat.jobs[0].cron=0 * * * *", "onebeat.jobs[0].task=ops.hourly",
        "onebeat.jobs[1].name=other", "onebeat.jobs[1].cron=0 * * * *", "onebeat.jobs[1].task=ops.other"})
class FireHistoryIT {

    @Autowired
    ApiClient server;

    private ApiClient api;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    FireLedger ledger;

    @BeforeEach
    void client() {
        api = server.as("viewer");
    }

    @BeforeEach
    void ledger() {
        jdbc.sql("DELETE FROM onebeat_fire").update();
        jdbc.sql("DELETE FROM onebeat_fire_attempt").update();
        failed("2027-01-01T09:00:00Z", 1, "scheduled", "2027-01-01T09:00:10Z");
        failed("2027-01-01T09:00:00Z", 2, "retry", null);
        fire("hourly", "2027-01-01T10:00:00Z", "scheduled");
        fire("hourly", "2027-01-01T11:00:00Z", "misfire");
        fire("hourly", "2027-01-01T12:00:00Z", "scheduled");
        fire("hourly", "2027-01-01T12:30:00Z", "manual");
        fire("hourly", "2027-01-01T13:00:00Z", "recovery");
        fire("other", "2027-01-01T12:00:00Z", "scheduled");
    }

    @Test
    void withoutFiltersEveryFireOfTheJobIsListedNewestFirst() throws Exception {
        assertThat(scheduled(api.get("/api/jobs/hourly/fires"))).containsExactly("2027-01-01T13:00:00Z",
                "2027-01-01T12:30:00Z", "2027-01-01T12:00:00Z", "2027-01-01T11:00:00Z", "2027-01-01T10:00:00Z",
                "2027-01-01T09:00:00Z", "2027-01-01T09:00:00Z");
    }

    @Test
    void failedAttemptsAreListedLatestFirstWithTheirErrorAndNextAttempt() throws Exception {
        JsonNode fires = json(api.get("/api/jobs/hourly/fires?outcome=failed"));

        assertThat(fires.findValuesAsString("outcome")).containsExactly("failed", "failed");
        assertThat(fires.findValues("attempt")).extracting(JsonNode::asInt).containsExactly(2, 1);
        assertThat(fires.findValuesAsString("trigger")).containsExactly("retry", "scheduled");
        assertThat(fires.findValuesAsString("error")).containsExactly("java.lang.IllegalStateException: boom 2",
                "java.lang.IllegalStateException: boom 1");
        assertThat(fires.get(0).get("retryAt").isNull()).as("no attempt left after the second").isTrue();
        assertThat(fires.get(1).get("retryAt").asString()).isEqualTo("2027-01-01T09:00:10Z");
    }

    @Test
    void triggerFilterKeepsOnlyFiresOfThatKind() throws Exception {
        JsonNode fires = json(api.get("/api/jobs/hourly/fires?trigger=scheduled"));

        assertThat(fires.findValuesAsString("scheduledAt")).containsExactly("2027-01-01T12:00:00Z", "2027-01-01T10:00:00Z",
                "2027-01-01T09:00:00Z");
        assertThat(fires.findValuesAsString("trigger")).containsOnly("scheduled");
    }

    @Test
    void fromIsInclusiveAndToExclusiveOnTheScheduledInstant() throws Exception {
        assertThat(scheduled(api.get("/api/jobs/hourly/fires?from=2027-01-01T11:00:00Z&to=2027-01-01T13:00:00Z")))
                .containsExactly("2027-01-01T12:30:00Z", "2027-01-01T12:00:00Z", "2027-01-01T11:00:00Z");
    }

    @Test
    void filtersCombineWithTheLimit() throws Exception {
        assertThat(scheduled(api.get("/api/jobs/hourly/fires?outcome=committed&trigger=scheduled"
                + "&from=2027-01-01T09:00:00Z&limit=1"))).containsExactly("2027-01-01T12:00:00Z");
    }

    @Test
    void unknownTriggerIsBadRequestListingTheKnownOnes() throws Exception {
        HttpResponse<String> response = api.get("/api/jobs/hourly/fires?trigger=cron");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response)).isEqualTo("trigger: 'cron' is not one of [scheduled, misfire, recovery, manual, retry, backfill]");
    }

    @Test
    void unknownOutcomeIsBadRequestListingTheKnownOnes() throws Exception {
        HttpResponse<String> response = api.get("/api/jobs/hourly/fires?outcome=lost");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response)).isEqualTo("outcome: 'lost' is not one of [committed, failed, skipped, duplicate]");
    }

    @Test
    void fromThatIsNotAnInstantIsBadRequestNamingTheParameter() throws Exception {
        HttpResponse<String> response = api.get("/api/jobs/hourly/fires?from=yesterday");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response)).isEqualTo("from: 'yesterday' is not a valid Instant");
    }

    @Test
    void fromNotBeforeToIsBadRequest() throws Exception {
        HttpResponse<String> response =
                api.get("/api/jobs/hourly/fires?from=2027-01-02T00:00:00Z&to=2027-01-01T00:00:00Z");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response)).isEqualTo("from: 2027-01-02T00:00:00Z must be before to, 2027-01-01T00:00:00Z");
    }

    @Test
    void instantBeyondYear9999IsBadRequestNamingTheParameter() throws Exception {
        HttpResponse<String> response = api.get("/api/jobs/hourly/fires?to=%2B1000000-01-01T00:00:00Z");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response)).startsWith("to: +1000000-01-01T00:00:00Z is out of range");
    }

    @Test
    void historyOfJobAndLimitStillListsTheLatestFires() {
        List<FireRecord> fires = ledger.history("hourly", 2);

        assertThat(fires).extracting(FireRecord::trigger).containsExactly("recovery", "manual");
    }

    @Test
    void ledgerFilterSelectsByTriggerAndInstant() {
        List<FireRecord> fires = ledger.history(new FireFilter("hourly", null, "misfire",
                Instant.parse("2027-01-01T00:00:00Z"), null, 10));

        assertThat(fires).extracting(FireRecord::scheduledAt).containsExactly(Instant.parse("2027-01-01T11:00:00Z"));
    }

    private void fire(String job, String scheduledAt, String trigger) {
        Timestamp at = Timestamp.from(Instant.parse(scheduledAt));
        jdbc.sql("""
                        INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome)
                        VALUES (?, ?, ?, 'test-node', ?, 'committed')
                        """)
                .params(job, at, at, trigger)
                .update();
    }

    private void failed(String scheduledAt, int attempt, String trigger, String retryAt) {
        Timestamp at = Timestamp.from(Instant.parse(scheduledAt));
        jdbc.sql("""
                        INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, attempt, outcome, error_class,
                                                          error_message, node, trigger_kind, attempted_at, retry_at)
                        VALUES ('hourly', ?, ?, 'failed', 'java.lang.IllegalStateException', ?, 'test-node', ?, ?, ?)
                        """)
                .params(at, attempt, "boom " + attempt, trigger, at,
                        retryAt == null ? null : Timestamp.from(Instant.parse(retryAt)))
                .update();
    }

    private List<String> scheduled(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json(response).findValuesAsString("scheduledAt");
    }
}
