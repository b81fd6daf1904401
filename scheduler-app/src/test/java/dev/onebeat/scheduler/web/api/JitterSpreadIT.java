package dev.onebeat.scheduler.web.api;

import static dev.onebeat.scheduler.ApiClient.detail;
import static dev.onebeat.scheduler.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.WebIT;
import dev.onebeat.scheduler.engine.schedule.FireMoments;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * Jobs with a spread or a jitter, created through the admin API, fire each at its planned moment past the instant
 * (never before it), with the instant's own keys; the instants API shows the planned moment and judges the fire
 * from it, the preview plans it ahead, and a jitter or spread that would overrun the next instant is refused naming
 * the field.
 */
@WebIT
class JitterSpreadIT {

    private static final Duration PERIOD = Duration.ofSeconds(2);
    private static final Duration SPREAD = Duration.ofMillis(1500);
    private static final Duration JITTER = Duration.ofMillis(1500);
    /** How late after its moment a fire may begin here, on a loaded machine: a wave starts 100 ms after its first. */
    private static final Duration WAVE_AND_START = Duration.ofSeconds(5);

    @Autowired
    ApiClient server;

    @Autowired
    JdbcClient jdbc;

    private ApiClient api;

    @BeforeEach
    void client() {
        api = server.as("admin");
    }

    /** Removes the jobs this class made: the replica is shared with other classes ({@link CalendarsIT}). */
    @AfterEach
    void removeWhatTheTestMade() throws Exception {
        for (int i = 0; i < 6; i++) {
            api.send("DELETE", "/api/jobs/spread-" + i, null);
        }
        api.send("DELETE", "/api/jobs/jittered", null);
    }

    @Test
    void eachJobFiresAtItsPlannedMomentAndTheInstantsApiJudgesItFromThere() throws Exception {
        List<String> spread = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            spread.add("spread-" + i);
            created(api.send("POST", "/api/jobs", "{\"name\":\"spread-" + i + "\",\"every\":\"2s\",\"task\":\"t.spread\","
                    + "\"spread\":\"1500ms\"}"));
        }
        created(api.send("POST", "/api/jobs", "{\"name\":\"jittered\",\"every\":\"2s\",\"task\":\"t.jitter\","
                + "\"jitter\":\"1500ms\",\"options\":{\"expires\":\"30s\"}}"));
        List<String> all = new ArrayList<>(spread);
        all.add("jittered");

        await().atMost(Duration.ofSeconds(60)).until(() -> {
            for (String job : all) {
                if (committed(job).size() < 2) {
                    return false;
                }
            }
            return true;
        });

        Set<Duration> spreadOffsets = new HashSet<>();
        for (String job : spread) {
            for (JsonNode instant : committed(job)) {
                Duration offset = checkedMoment(job, instant, Duration.ZERO, SPREAD);
                spreadOffsets.add(offset);
            }
        }
        assertThat(spreadOffsets).as("one offset per job, the same at every instant").hasSize(spread.size());
        Set<Duration> jitterOffsets = new HashSet<>();
        for (JsonNode instant : committed("jittered")) {
            jitterOffsets.add(checkedMoment("jittered", instant, JITTER, Duration.ZERO));
        }
        assertThat(jitterOffsets).as("an offset of its own at each instant").hasSizeGreaterThan(1);
        for (JsonNode instant : committed("jittered")) {
            String expiresFrom = jdbc.sql("""
                            SELECT payload -> 'delivery' ->> 'expires_from' FROM onebeat_task
                            WHERE job_name = 'jittered' AND scheduled_at = ?::timestamptz""")
                    .param(instant.get("instant").asString()).query(String.class).single();
            assertThat(Instant.parse(expiresFrom)).as("its expiry counts from the planned moment, not the instant")
                    .isEqualTo(Instant.parse(instant.get("plannedAt").asString()));
        }
        assertThat(jdbc.sql("SELECT idempotency_key FROM onebeat_task WHERE job_name = 'jittered' ORDER BY scheduled_at")
                .query(String.class).list()).as("the instant's keys, not the moment's")
                .allSatisfy(key -> assertThat(Instant.parse(key.split("/")[1]).getEpochSecond() % PERIOD.toSeconds())
                        .isZero());
        JsonNode job = json(api.get("/api/jobs/jittered"));
        assertThat(job.get("jitter").asString()).isEqualTo("PT1.5S");
        assertThat(job.get("spread").asString()).isEqualTo("PT0S");
    }

    /**
     * Checks one committed instant of the job as the instants API shows it: planned where {@link FireMoments} puts it,
     * fired no earlier than that and soon after, on time.
     *
     * @return the instant's offset
     */
    private static Duration checkedMoment(String job, JsonNode expected, Duration jitter, Duration spread) {
        Instant instant = Instant.parse(expected.get("instant").asString());
        Instant planned = Instant.parse(expected.get("plannedAt").asString());
        Instant fired = Instant.parse(expected.get("firedAt").asString());
        Duration offset = FireMoments.offset(job, jitter, spread, instant);
        assertThat(planned).as("%s at %s", job, instant).isEqualTo(instant.plus(offset));
        assertThat(fired).as("%s at %s: not before its moment", job, instant).isAfterOrEqualTo(planned.minusMillis(20));
        assertThat(fired).as("%s at %s: soon after its moment", job, instant).isBefore(planned.plus(WAVE_AND_START));
        assertThat(expected.get("outcome").asString()).isEqualTo("on-time");
        assertThat(expected.get("lagMillis").asLong()).as("from the planned moment")
                .isBetween(-20L, WAVE_AND_START.toMillis());
        return offset;
    }

    @Test
    void aJitterOrSpreadThatWouldReachTheNextInstantIsRefusedNamingTheField() throws Exception {
        HttpResponse<String> jitter = api.send("POST", "/api/jobs",
                "{\"name\":\"too-jittery\",\"every\":\"4s\",\"task\":\"t\",\"jitter\":\"4s\"}");
        HttpResponse<String> both = api.send("POST", "/api/jobs",
                "{\"name\":\"too-spread\",\"cron\":\"*/5 * * * *\",\"task\":\"t\",\"jitter\":\"3m\",\"spread\":\"2m\"}");
        HttpResponse<String> late = api.send("POST", "/api/jobs",
                "{\"name\":\"past-window\",\"cron\":\"0 3 * * *\",\"task\":\"t\",\"spread\":\"90m\"}");
        HttpResponse<String> text = api.send("POST", "/api/jobs",
                "{\"name\":\"not-a-duration\",\"every\":\"1m\",\"task\":\"t\",\"spread\":\"soon\"}");

        assertThat(List.of(jitter, both, late, text)).extracting(HttpResponse::statusCode).containsOnly(400);
        assertThat(detail(jitter)).isEqualTo("jitter: jitter PT4S must be shorter than the shortest time between two "
                + "instants of the schedule (PT4S): a fire would begin after the next instant's");
        assertThat(detail(both)).startsWith("jitter: jitter PT3M plus spread PT2M must be shorter than the shortest "
                + "time between two instants of the schedule (PT5M)");
        assertThat(detail(late)).startsWith("spread: spread PT1H30M must be shorter than the catch-up window (PT1H)");
        assertThat(detail(text)).startsWith("spread: ").contains("soon");
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_runtime_job WHERE name IN ('too-jittery', 'too-spread', "
                + "'past-window', 'not-a-duration')").query(Long.class).single()).as("nothing stored").isZero();
    }

    @Test
    void thePreviewPlansEachFireOfANamedJob() throws Exception {
        JsonNode fires = json(api.get("/api/schedules/preview?every=2s&count=4&name=spread-0&spread=1500ms&jitter=400ms"))
                .get("fires");
        HttpResponse<String> nameless = api.get("/api/schedules/preview?every=2s&spread=1500ms");

        assertThat(fires).hasSize(4).allSatisfy(fire -> {
            Instant utc = Instant.parse(fire.get("utc").asString());
            assertThat(Instant.parse(fire.get("plannedAt").asString())).isEqualTo(utc.plus(FireMoments.offset("spread-0",
                    Duration.ofMillis(400), SPREAD, utc)));
        });
        assertThat(nameless.statusCode()).isEqualTo(400);
        assertThat(detail(nameless)).startsWith("name: is needed with a jitter or a spread");
    }

    private static void created(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    }

    /** @return the job's committed instants of the last minute, as the instants API shows them */
    private List<JsonNode> committed(String job) throws Exception {
        List<JsonNode> committed = new ArrayList<>();
        for (JsonNode instant : json(api.get("/api/jobs/" + job + "/instants?limit=20")).get("instants")) {
            if (!instant.get("firedAt").isNull()) {
                committed.add(instant);
            }
        }
        return committed;
    }
}
