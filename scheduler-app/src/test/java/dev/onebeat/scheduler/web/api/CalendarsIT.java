package dev.onebeat.scheduler.web.api;

import static dev.onebeat.scheduler.ApiClient.detail;
import static dev.onebeat.scheduler.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.WebIT;
import dev.onebeat.scheduler.engine.fire.FireRequest;
import dev.onebeat.scheduler.engine.fire.FireTrigger;
import dev.onebeat.scheduler.engine.fire.ScheduleFire;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.ScheduleKeys;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * Calendars through the admin API, on a real replica: made, changed and deleted by an admin and audited; named by
 * runtime jobs, whose instants the instants API judges skipped where a calendar leaves them out (read in the
 * calendar's zone, across a daylight-saving change), whose fires are recorded skipped with the calendar's name, and
 * whose coming fires the preview marks, and which a backfill leaves out; a calendar in use is not deleted. (A calendar
 * of configuration, which the API does not change, is tested on the packaged application: {@code PackagedFeaturesIT}.)
 * Shares its replica with {@link JitterSpreadIT}; each removes what it made.
 */
@WebIT
class CalendarsIT {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

    @Autowired
    ApiClient server;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    ScheduleFire scheduleFire;
    @Autowired
    JobRegistry registry;
    @Autowired
    DataSource dataSource;

    private ApiClient api;

    @BeforeEach
    void client() {
        api = server.as("admin");
    }

    /** Removes the jobs, then the calendars, this class made: the replica is shared with other classes. */
    @AfterEach
    void removeWhatTheTestMade() throws Exception {
        for (String job : List.of("weekday-digest", "office-hourly", "hourly-sync", "racing-job")) {
            api.send("DELETE", "/api/jobs/" + job, null);
        }
        for (JsonNode calendar : json(api.get("/api/calendars"))) {
            api.send("DELETE", "/api/calendars/" + calendar.get("name").asString(), null);
        }
    }

    @Test
    void anAdminMakesChangesAndDeletesACalendarEachStepAudited() throws Exception {
        HttpResponse<String> created = api.send("PUT", "/api/calendars/freeze", """
                {"zone": "Europe/Paris", "ranges": ["2027-12-20..2028-01-03"]}""");
        HttpResponse<String> changed = api.send("PUT", "/api/calendars/freeze", """
                {"zone": "Europe/Paris", "ranges": ["2027-12-18..2028-01-03"], "weekly": ["sat,sun"]}""");

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        JsonNode shown = json(api.get("/api/calendars/freeze"));
        assertThat(shown.get("origin").asString()).isEqualTo("admin API");
        assertThat(shown.get("ranges").get(0).asString()).isEqualTo("2027-12-18..2028-01-03");
        assertThat(shown.get("weekly").get(0).asString()).isEqualTo("SAT,SUN");
        List<String> names = new ArrayList<>();
        json(api.get("/api/calendars")).forEach(calendar -> names.add(calendar.get("name").asString()));
        assertThat(names).contains("freeze");
        assertThat(server.as("viewer").get("/api/calendars/freeze").statusCode()).isEqualTo(200);
        assertThat(server.as("operator").send("PUT", "/api/calendars/freeze", "{\"dates\": [\"2027-01-01\"]}")
                .statusCode()).isEqualTo(403);

        assertThat(api.send("DELETE", "/api/calendars/freeze", null).statusCode()).isEqualTo(204);
        assertThat(api.get("/api/calendars/freeze").statusCode()).isEqualTo(404);
        assertThat(api.send("DELETE", "/api/calendars/freeze", null).statusCode()).isEqualTo(404);
        List<String> audit = new ArrayList<>();
        json(api.get("/api/audit?target=freeze")).forEach(entry -> audit.add(entry.get("action").asString()));
        assertThat(audit).containsExactlyInAnyOrder("calendar.create", "calendar.update", "calendar.delete");
    }

    @Test
    void aBadCalendarOrOneInUseIsRefusedSayingWhy() throws Exception {
        HttpResponse<String> badDay = api.send("PUT", "/api/calendars/bad", "{\"yearly\": [\"12-25\", \"13-01\"]}");
        HttpResponse<String> unknownField = api.send("PUT", "/api/calendars/bad", "{\"days\": [\"2027-01-01\"]}");
        api.send("PUT", "/api/calendars/in-use", "{\"weekly\": [\"SAT,SUN\"]}");
        api.send("POST", "/api/jobs", "{\"name\":\"weekday-digest\",\"cron\":\"0 6 * * *\",\"task\":\"t\","
                + "\"calendars\":{\"exclude\":[\"in-use\"]}}");
        HttpResponse<String> inUse = api.send("DELETE", "/api/calendars/in-use", null);
        HttpResponse<String> unknownCalendar = api.send("POST", "/api/jobs", "{\"name\":\"digest-2\",\"cron\":\"0 6 * * *\","
                + "\"task\":\"t\",\"calendars\":{\"exclude\":[\"in-use\", \"nowhere\"]}}");

        assertThat(badDay.statusCode()).isEqualTo(400);
        assertThat(detail(badDay)).isEqualTo("yearly[1]: '13-01' is not a day of the year (MM-DD)");
        assertThat(unknownField.statusCode()).isEqualTo(400);
        assertThat(detail(unknownField)).contains("days");
        assertThat(inUse.statusCode()).isEqualTo(409);
        assertThat(detail(inUse)).isEqualTo("calendar 'in-use' is named by job weekday-digest; take it out of their"
                + " calendars first");
        assertThat(unknownCalendar.statusCode()).isEqualTo(400);
        assertThat(detail(unknownCalendar)).startsWith("calendars.exclude[1]: no calendar is named 'nowhere'; defined: ");
        assertThat(json(api.get("/api/calendars/in-use")).get("usedBy").get(0).asString()).isEqualTo("weekday-digest");
    }

    /**
     * A job naming a calendar while an admin on another replica deletes it: the delete holds the calendar's lock from
     * its check to its commit, the job waits for it and is then refused; it is never stored naming a calendar that is
     * gone. The other replica's delete is played by a session of the test's own, as its statements are.
     */
    @Test
    void aJobNamingACalendarBeingDeletedWaitsForTheDeleteAndIsRefused() throws Exception {
        assertThat(api.send("PUT", "/api/calendars/racing", "{\"weekly\":[\"SAT,SUN\"]}").statusCode()).isEqualTo(201);
        try (Connection other = dataSource.getConnection()) {
            other.setAutoCommit(false);
            try (Statement statement = other.createStatement()) {
                statement.execute("SELECT pg_advisory_xact_lock(hashtextextended('onebeat.calendar:racing', 0))");
                statement.execute("DELETE FROM onebeat_calendar WHERE name = 'racing'");
            }
            CompletableFuture<HttpResponse<String>> create = CompletableFuture.supplyAsync(() -> {
                try {
                    return api.send("POST", "/api/jobs", "{\"name\":\"racing-job\",\"cron\":\"0 6 * * *\","
                            + "\"task\":\"t\",\"calendars\":{\"exclude\":[\"racing\"]}}");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await("the job's transaction waiting for the calendar's lock").atMost(Duration.ofSeconds(20))
                    .until(() -> jdbc.sql("""
                                    SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                                      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())""")
                            .query(Long.class).single() > 0);
            assertThat(create).isNotDone();
            other.commit();

            HttpResponse<String> refused = create.get(20, TimeUnit.SECONDS);
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(detail(refused)).isEqualTo("calendars: no calendar is named 'racing' any more; it was deleted"
                    + " meanwhile");
        }
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_runtime_job WHERE name = 'racing-job'").query(Long.class)
                .single()).isZero();
    }

    /**
     * An hourly job in UTC that fires only in Paris office hours, over the weekend the clocks went forward in 2026
     * (29 March): the instants API says which hours fire, and they move an hour earlier in UTC on the Monday after. The
     * reference is java.time's wall-clock time in Paris of each hour.
     */
    @Test
    void theInstantsApiSkipsTheHoursOutsideACalendarReadInItsZoneAcrossTheSpringChange() throws Exception {
        assertThat(api.send("PUT", "/api/calendars/paris-office", """
                {"zone": "Europe/Paris", "weekly": ["MON-FRI 08:00-18:00"]}""").statusCode()).isEqualTo(201);
        assertThat(api.send("POST", "/api/jobs", "{\"name\":\"office-hourly\",\"cron\":\"0 * * * *\",\"task\":\"t\","
                + "\"calendars\":{\"include\":[\"paris-office\"]}}").statusCode())
                .isEqualTo(201);
        jdbc.sql("UPDATE onebeat_job SET member_since = '2026-01-01T00:00:00Z' WHERE name = 'office-hourly'").update();

        JsonNode instants = json(api.get("/api/jobs/office-hourly/instants?from=2026-03-27T00:00:00Z"
                + "&to=2026-03-31T00:00:00Z&limit=200")).get("instants");

        assertThat(instants).hasSize(96);
        Map<Boolean, List<Instant>> bySkip = new java.util.HashMap<>();
        for (JsonNode instant : instants) {
            Instant at = Instant.parse(instant.get("instant").asString());
            boolean skipped = instant.get("outcome").asString().equals("skipped");
            bySkip.computeIfAbsent(skipped, key -> new ArrayList<>()).add(at);
            ZonedDateTime local = at.atZone(PARIS);
            boolean office = local.getDayOfWeek().getValue() <= DayOfWeek.FRIDAY.getValue()
                    && !local.toLocalTime().isBefore(LocalTime.of(8, 0)) && local.toLocalTime().isBefore(LocalTime.of(18, 0));
            assertThat(skipped).as("%s, %s in Paris", at, local).isEqualTo(!office);
            if (skipped) {
                assertThat(instant.get("reason").asString()).isEqualTo("outside calendar 'paris-office'");
            } else {
                assertThat(instant.get("outcome").asString()).as("no fire was made that long ago").isEqualTo("missed");
            }
        }
        assertThat(hoursUtc(bySkip.get(false), "2026-03-27")).as("Friday, UTC+1")
                .containsExactly(7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
        assertThat(hoursUtc(bySkip.get(false), "2026-03-30")).as("Monday, UTC+2")
                .containsExactly(6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        assertThat(hoursUtc(bySkip.get(false), "2026-03-28")).as("Saturday").isEmpty();

        // a backfill of the Friday does what the schedule would have done: the office hours only
        JsonNode plan = json(api.send("POST", "/api/jobs/office-hourly/backfill", "{\"from\":\"2026-03-27T00:00:00Z\","
                + "\"to\":\"2026-03-28T00:00:00Z\",\"dryRun\":true}"));
        assertThat(plan.get("toFire").asLong()).isEqualTo(10);
        assertThat(plan.get("instants").get(0).get("outcome").asString())
                .isEqualTo("skipped: outside calendar 'paris-office'");
        assertThat(plan.get("instants").get(7).get("outcome").asString()).as("08:00 in Paris").isEqualTo("none");
    }

    @Test
    void aFireOfAnExcludedInstantIsRecordedSkippedNamingTheCalendarAndThePreviewMarksIt() throws Exception {
        // two instants of an hourly job within its catch-up window, the later one inside a maintenance window
        Instant inWindow = Instant.now().truncatedTo(ChronoUnit.HOURS);
        Instant before = inWindow.minus(1, ChronoUnit.HOURS);
        ZonedDateTime window = inWindow.atZone(ZoneId.of("UTC"));
        String day = window.getDayOfWeek().name().substring(0, 3);
        api.send("PUT", "/api/calendars/maintenance", "{\"weekly\":[\"" + day + " "
                + String.format("%02d:00-%02d:59", window.getHour(), window.getHour()) + "\"]}");
        assertThat(api.send("POST", "/api/jobs", "{\"name\":\"hourly-sync\",\"cron\":\"0 * * * *\","
                + "\"task\":\"t\",\"catchUpWindow\":\"3h\",\"calendars\":{\"exclude\":[\"maintenance\"]}}")
                .statusCode()).isEqualTo(201);
        jdbc.sql("UPDATE onebeat_job SET member_since = '2026-01-01T00:00:00Z' WHERE name = 'hourly-sync'").update();
        jdbc.sql("DELETE FROM onebeat_fire WHERE job_name = 'hourly-sync'").update();
        String schedule = ScheduleKeys.key(registry.find("hourly-sync").orElseThrow().job());

        scheduleFire.fire(schedule, FireRequest.of(inWindow, FireTrigger.SCHEDULED, "test-node"));
        scheduleFire.fire(schedule, FireRequest.of(before, FireTrigger.MISFIRE, "test-node"));

        assertThat(jdbc.sql("""
                        SELECT reason FROM onebeat_fire_attempt
                        WHERE job_name = 'hourly-sync' AND scheduled_at = ? AND outcome = 'skipped'""")
                .param(Timestamp.from(inWindow)).query(String.class).list())
                .containsExactly("excluded by calendar 'maintenance'");
        assertThat(jdbc.sql("SELECT scheduled_at FROM onebeat_fire WHERE job_name = 'hourly-sync'")
                .query((rs, row) -> rs.getTimestamp(1).toInstant()).list()).as("the hour before fired, not the excluded")
                .containsExactly(before);
        JsonNode instant = json(api.get("/api/jobs/hourly-sync/instants?from=" + before + "&to="
                + inWindow.plusSeconds(1))).get("instants");
        assertThat(instant.get(1).get("outcome").asString()).isEqualTo("skipped");
        assertThat(instant.get(1).get("reason").asString()).isEqualTo("excluded by calendar 'maintenance'");

        api.send("PUT", "/api/calendars/maintenance-days", "{\"zone\":\"Europe/Paris\",\"dates\":[\"2027-05-13\"]}");
        JsonNode fires = json(api.get("/api/schedules/preview?cron=0+2+*+*+*&zone=Europe/Paris&count=3"
                + "&from=2027-05-12T00:00:00Z&exclude=maintenance-days")).get("fires");
        assertThat(fires.get(1).get("skippedBy").asString()).isEqualTo("excluded by calendar 'maintenance-days'");
        assertThat(fires.get(1).get("plannedAt").isNull()).isTrue();
        assertThat(fires.get(0).get("skippedBy").isNull()).isTrue();
        assertThat(detail(api.get("/api/schedules/preview?cron=0+2+*+*+*&include=nowhere")))
                .startsWith("calendars.include[0]: no calendar is named 'nowhere'");
    }

    private static List<Integer> hoursUtc(List<Instant> instants, String day) {
        return instants.stream().filter(at -> at.toString().startsWith(day))
                .map(at -> at.atZone(ZoneId.of("UTC")).getHour()).sorted().collect(Collectors.toList());
    }
}
