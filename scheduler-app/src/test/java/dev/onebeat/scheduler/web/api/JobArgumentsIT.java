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
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A job's arguments on a running replica: placeholders filled from the instant, the same for a scheduled fire
 * and an operator's re-run; arguments over {@code onebeat.fire.max-arguments-size} refused with a 400 (runtime
 * job) or failing the fire (a job written in code), naming the size; an entity id past the old 255-character
 * column stored whole, one past 4096 characters failing the fire saying so.
 */
@WebIT(properties = {SchedulerTestDatabase.NO_DEMO,
        "onebeat.fire.max-arguments-size=64KB"})
class JobArgumentsIT {

    private static final String LONG_ID = "x".repeat(300);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    ApiClient server;

    @Autowired
    JdbcClient jdbc;

    @TestConfiguration
    static class CodeJobs {

        @Bean
        PeriodicJob longEntityIds() {
            return Jobs.periodic("long-entity-ids", Schedule.every(Duration.ofSeconds(1))).execute(ctx ->
                    ctx.dispatch(TaskRequest.builder("crm.sync").queue("crm").entity("customer", LONG_ID).build()));
        }

        @Bean
        PeriodicJob tooLongEntityId() {
            return Jobs.periodic("too-long-entity-id", Schedule.every(Duration.ofSeconds(1))).retry(RetryPolicy.NONE)
                    .execute(ctx -> ctx.dispatch(TaskRequest.builder("crm.sync").queue("crm")
                            .entity("customer", "y".repeat(5000)).build()));
        }

        @Bean
        PeriodicJob hugeArguments() {
            return Jobs.periodic("huge-arguments", Schedule.every(Duration.ofSeconds(1))).retry(RetryPolicy.NONE)
                    .execute(ctx -> ctx.dispatch(TaskRequest.builder("crm.import").queue("crm")
                            .kwargs(Map.of("rows", "r".repeat(70_000))).build()));
        }
    }

    @Test
    void placeholdersAreFilledFromTheInstantAndAReRunSendsTheSameArgumentsUnderTheSameKey() throws Exception {
        ApiClient admin = server.as("admin");
        HttpResponse<String> created = admin.send("POST", "/api/jobs", """
                {"name": "daily-export", "every": "2s", "zone": "Pacific/Auckland", "task": "exports.daily",
                 "queue": "exports", "args": ["{scheduled_date-1d}", "file-{scheduled_date}.csv", 7],
                 "kwargs": {"at": "{scheduled_at}", "literal": "{{scheduled_date}}"}}""");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

        await().atMost(Duration.ofSeconds(30)).until(() -> !rows("daily-export").isEmpty());
        Row scheduled = rows("daily-export").get(0);
        assertThat(scheduled.payload()).isEqualTo(expectedPayload(scheduled.scheduledAt()));

        assertThat(admin.send("POST", "/api/jobs/daily-export/pause", null).statusCode()).isEqualTo(200);
        Instant unfired = unfiredInstantAfterPause("daily-export");
        ApiClient operator = server.as("operator");
        Instant requested = Instant.now();
        HttpResponse<String> rerun = operator.send("POST", "/api/jobs/daily-export/instants/" + unfired + "/run", null);
        assertThat(rerun.statusCode()).as(rerun.body()).isEqualTo(202);

        await().atMost(Duration.ofSeconds(30)).until(() -> rows("daily-export").stream()
                .anyMatch(row -> row.scheduledAt().equals(unfired)));
        Row rerunRow = rows("daily-export").stream().filter(row -> row.scheduledAt().equals(unfired)).findFirst().orElseThrow();
        // an operator's re-run counts a task's expiry from the re-run itself: its payload says from when
        ObjectNode rerunPayload = ((ObjectNode) rerunRow.payload()).deepCopy();
        JsonNode delivery = rerunPayload.remove("delivery");
        assertThat(rerunPayload).isEqualTo(expectedPayload(unfired));
        assertThat(delivery.propertyNames()).containsExactly("expires_from");
        assertThat(Instant.parse(delivery.get("expires_from").asString())).isAfterOrEqualTo(requested.minusSeconds(1));
        assertThat(rerunRow.key()).isEqualTo("daily-export/" + unfired + "/exports.daily");
        assertThat(scheduled.key()).isEqualTo("daily-export/" + scheduled.scheduledAt() + "/exports.daily");
    }

    @Test
    void anUnknownPlaceholderIsBadRequestNamingTheArgument() throws Exception {
        HttpResponse<String> response = server.as("admin").send("POST", "/api/jobs",
                "{\"name\": \"typo\", \"every\": \"1h\", \"task\": \"t\", \"kwargs\": {\"day\": \"{scheduled_dat}\"}}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response)).startsWith("kwargs.day: '{scheduled_dat}' is not a placeholder onebeat knows");
    }

    @Test
    void aRuntimeJobWithArgumentsOverTheBoundIsBadRequestNamingFieldAndSizeAndIsNotStored() throws Exception {
        ApiClient admin = server.as("admin");
        HttpResponse<String> response = admin.send("POST", "/api/jobs",
                "{\"name\": \"bulky\", \"every\": \"1h\", \"task\": \"t\", \"kwargs\": {\"blob\": \"" + "b".repeat(2_000_000)
                        + "\"}}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response)).isEqualTo("kwargs: args and kwargs take 2000013 bytes (1.91 MiB) as JSON (args 2 bytes,"
                + " kwargs 2000011 bytes (1.91 MiB)), more than onebeat.fire.max-arguments-size allows (65536 bytes"
                + " (64.0 KiB))");
        assertThat(admin.get("/api/jobs/bulky/fires").statusCode()).isEqualTo(404);
    }

    @Test
    void aCodeJobsTaskOverTheBoundFailsItsFireNamingTaskAndSizeAndWritesNothing() {
        await().atMost(Duration.ofSeconds(30)).until(() -> !errors("huge-arguments").isEmpty());

        assertThat(errors("huge-arguments").get(0)).isEqualTo("java.lang.IllegalArgumentException: args/kwargs: task"
                + " 'crm.import' has arguments of 70032 bytes (68.4 KiB) as JSON, more than"
                + " onebeat.fire.max-arguments-size allows (65536 bytes (64.0 KiB))");
        assertThat(rows("huge-arguments")).isEmpty();
    }

    @Test
    void anEntityIdPastTheOldColumnIsStoredWholeAndOnePastTheLimitFailsTheFireSayingSo() {
        await().atMost(Duration.ofSeconds(30)).until(() -> !rows("long-entity-ids").isEmpty());
        assertThat(jdbc.sql("SELECT entity_id FROM onebeat_task WHERE job_name = 'long-entity-ids' LIMIT 1")
                .query(String.class).single()).isEqualTo(LONG_ID);
        assertThat(rows("long-entity-ids").get(0).key()).hasSizeLessThanOrEqualTo(255);

        await().atMost(Duration.ofSeconds(30)).until(() -> !errors("too-long-entity-id").isEmpty());
        assertThat(errors("too-long-entity-id").get(0)).startsWith("java.lang.IllegalArgumentException: entity.id must"
                + " have at most 4096 characters, had 5000");
        assertThat(rows("too-long-entity-id")).isEmpty();
    }

    private static JsonNode expectedPayload(Instant at) {
        String date = at.atZone(ZoneId.of("Pacific/Auckland")).toLocalDate().toString();
        String dayBefore = at.atZone(ZoneId.of("Pacific/Auckland")).toLocalDate().minusDays(1).toString();
        return JSON.readTree("{\"args\": [\"" + dayBefore + "\", \"file-" + date + ".csv\", 7], \"kwargs\": {\"at\": \"" + at
                + "\", \"literal\": \"{scheduled_date}\"}}");
    }

    /** An instant of the job's schedule, now past, that no fire took because the job was paused. */
    private Instant unfiredInstantAfterPause(String job) {
        Instant last = jdbc.sql("SELECT max(scheduled_at) FROM onebeat_fire WHERE job_name = ?").param(job)
                .query(Timestamp.class).single().toInstant();
        Instant candidate = last.plusSeconds(4);
        await().atMost(Duration.ofSeconds(30)).until(() -> Instant.now().isAfter(candidate.plusSeconds(1)));
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ? AND scheduled_at = ?").param(job)
                .param(Timestamp.from(candidate)).query(Long.class).single()).as("paused, it did not fire").isZero();
        return candidate;
    }

    private record Row(Instant scheduledAt, String key, JsonNode payload) {
    }

    private List<Row> rows(String job) {
        return jdbc.sql("SELECT scheduled_at, idempotency_key, payload::text FROM onebeat_task WHERE job_name = ?"
                        + " ORDER BY scheduled_at").param(job)
                .query((rs, i) -> new Row(rs.getTimestamp(1).toInstant(), rs.getString(2), JSON.readTree(rs.getString(3))))
                .list();
    }

    private List<String> errors(String job) {
        return jdbc.sql("SELECT error_class || ': ' || error_message FROM onebeat_fire_attempt WHERE job_name = ? AND outcome = 'failed'"
                + " ORDER BY scheduled_at").param(job).query(String.class).list();
    }
}
