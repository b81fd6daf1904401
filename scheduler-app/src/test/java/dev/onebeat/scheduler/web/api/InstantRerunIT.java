package dev.onebeat.scheduler.web.api;

import static dev.onebeat.scheduler.ApiClient.detail;
import static dev.onebeat.scheduler.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.RetryPolicy;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.WebIT;
import java.net.http.HttpResponse;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /api/jobs/{name}/instants/{instant}/run}: an instant given up after its last attempt is
 * re-run by an operator, once, with its own keys; an instant that committed, or that is not on the
 * schedule, is refused saying why.
 */
@WebIT
class InstantRerunIT {

    static final AtomicBoolean FAILING = new AtomicBoolean(true);

    @Autowired
    ApiClient server;

    @Autowired
    JdbcClient jdbc;

    @TestConfiguration
    static class FailingJob {

        /** One attempt per instant, failing until the test says otherwise. */
        @Bean
        PeriodicJob reports() {
            return Jobs.periodic("reports", Schedule.every(Duration.ofSeconds(2))).retry(RetryPolicy.NONE).execute(ctx -> {
                if (FAILING.get()) {
                    throw new IllegalStateException("report service down");
                }
                ctx.dispatch(TaskRequest.of("reports.build", "reports"));
            });
        }
    }

    @Test
    void anInstantGivenUpIsReRunOnceByAnOperatorAndThenRefused() throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> givenUp().size() >= 1);
        Instant instant = givenUp().get(0);
        FAILING.set(false);
        ApiClient operator = server.as("operator");

        HttpResponse<String> accepted = operator.send("POST", "/api/jobs/reports/instants/" + instant + "/run", null);

        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        assertThat(json(accepted).get("attempt").asInt()).isEqualTo(2);
        await().atMost(Duration.ofSeconds(30)).until(() -> ledger(instant).size() == 1);
        assertThat(ledger(instant)).containsExactly("attempt 2 backfill");
        assertThat(jdbc.sql("SELECT idempotency_key FROM onebeat_task WHERE job_name = 'reports' AND scheduled_at = ?")
                .param(Timestamp.from(instant)).query(String.class).list())
                .as("the instant's own key").containsExactly("reports/" + instant + "/reports.build");

        HttpResponse<String> again = operator.send("POST", "/api/jobs/reports/instants/" + instant + "/run", null);
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(detail(again)).isEqualTo("instant " + instant + " of job 'reports' has committed already (attempt 2);"
                + " its tasks went out once and are not sent again");
        JsonNode audit = json(operator.get("/api/audit?target=reports"));
        assertThat(audit.get(0).get("action").asString()).isEqualTo("job.rerun");
        assertThat(audit.get(0).get("actor").asString()).isEqualTo("operator");
    }

    @Test
    void anInstantNotOnTheScheduleIsBadRequestNamingTheNearestOnes() throws Exception {
        ApiClient operator = server.as("operator");

        HttpResponse<String> response = operator.send("POST", "/api/jobs/reports/instants/2027-01-01T00:00:01Z/run", null);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response)).isEqualTo("instant: 2027-01-01T00:00:01Z is not an instant of job 'reports' (every 2s);"
                + " the nearest are 2027-01-01T00:00:00Z and 2027-01-01T00:00:02Z");
    }

    @Test
    void anInstantNotDueYetIsBadRequest() throws Exception {
        HttpResponse<String> response = server.as("operator")
                .send("POST", "/api/jobs/reports/instants/2099-01-01T00:00:00Z/run", null);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response)).isEqualTo("instant: 2099-01-01T00:00:00Z is not due yet; the schedule fires it then");
    }

    @Test
    void aViewerMayNotReRun() throws Exception {
        HttpResponse<String> response = server.as("viewer")
                .send("POST", "/api/jobs/reports/instants/2027-01-01T00:00:00Z/run", null);

        assertThat(response.statusCode()).isEqualTo(403);
    }

    @Test
    void aTextThatIsNotAnInstantIsBadRequestNamingTheParameter() throws Exception {
        HttpResponse<String> response = server.as("operator")
                .send("POST", "/api/jobs/reports/instants/yesterday/run", null);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response)).isEqualTo("instant: 'yesterday' is not a valid Instant");
    }

    private List<Instant> givenUp() {
        return jdbc.sql("""
                        SELECT scheduled_at FROM onebeat_fire_attempt
                        WHERE job_name = 'reports' AND outcome = 'failed' AND retry_at IS NULL ORDER BY scheduled_at
                        """).query(Timestamp.class).list().stream().map(Timestamp::toInstant).toList();
    }

    private List<String> ledger(Instant at) {
        return jdbc.sql("SELECT 'attempt ' || attempt || ' ' || trigger_kind FROM onebeat_fire WHERE job_name = 'reports'"
                        + " AND scheduled_at = ?").param(Timestamp.from(at)).query(String.class).list();
    }
}
