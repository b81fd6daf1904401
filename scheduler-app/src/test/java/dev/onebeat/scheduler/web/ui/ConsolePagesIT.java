package dev.onebeat.scheduler.web.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SecurityTestUsers;
import dev.onebeat.scheduler.WithTestUsers;
import dev.onebeat.scheduler.operate.admin.JobDirectory;
import dev.onebeat.scheduler.operate.admin.JobView;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.HttpHeaders;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The console's pages and forms on a running replica (real database, Quartz running, the real filter
 * chain): what each role is offered, what the forms change, and how a bad value comes back next to
 * its field. Every job fires once a year, so each fire seen here is a manual one.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO,
        "onebeat.jobs[0].name=yearly-report", "onebeat.jobs[0].cron=0 6 1 1 *", "onebeat.jobs[0].task=reports.yearly",
        "onebeat.jobs[1].name=monthly-cleanup", "onebeat.jobs[1].cron=0 7 1 * *", "onebeat.jobs[1].task=ops.cleanup",
        "onebeat.jobs[2].name=pause-me", "onebeat.jobs[2].cron=0 8 1 1 *", "onebeat.jobs[2].task=ops.noop",
        "onebeat.jobs[3].name=trigger-me", "onebeat.jobs[3].cron=0 9 1 1 *", "onebeat.jobs[3].task=ops.noop",
        "onebeat.jobs[4].name=reschedule-me", "onebeat.jobs[4].cron=0 10 1 1 *", "onebeat.jobs[4].task=ops.noop",
        "onebeat.jobs[5].name=keep-me", "onebeat.jobs[5].cron=0 11 1 1 *", "onebeat.jobs[5].task=ops.noop",
        "onebeat.jobs[6].name=reschedule-badly", "onebeat.jobs[6].cron=0 12 1 1 *", "onebeat.jobs[6].task=ops.noop",
        "onebeat.jobs[7].name=filter-me", "onebeat.jobs[7].cron=0 13 1 1 *", "onebeat.jobs[7].task=ops.noop",
        "onebeat.jobs[8].name=rerun-me", "onebeat.jobs[8].cron=0 14 1 1 *", "onebeat.jobs[8].task=ops.noop",
        "onebeat.jobs[9].name=pause-a-while", "onebeat.jobs[9].cron=0 15 1 1 *", "onebeat.jobs[9].task=ops.noop",
        "onebeat.calendars.every-day.weekly[0]=MON-SUN", "onebeat.calendars.every-day.zone=Europe/Paris",
        "onebeat.jobs[10].name=calendar-me", "onebeat.jobs[10].cron=0 16 1 * *", "onebeat.jobs[10].task=ops.noop",
        "onebeat.jobs[10].calendars.exclude[0]=every-day", "onebeat.jobs[10].active-until=2099-01-01"})
@AutoConfigureMockMvc
@WithTestUsers
class ConsolePagesIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    MockMvc mvc;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    JobDirectory directory;

    @Test
    void jobsListSearchesByNameAndShowsTheNextFire() throws Exception {
        MockHttpServletResponse all = page(get("/ui/jobs"), "viewer");
        assertThat(all.getStatus()).isEqualTo(200);
        assertThat(all.getContentAsString()).contains("11 jobs").contains("href=\"/ui/jobs/monthly-cleanup\"")
                .contains("<code>0 7 1 * *</code>");

        String found = page(get("/ui/jobs").param("q", "YEARLY"), "viewer").getContentAsString();

        assertThat(found).contains("1 job").contains("href=\"/ui/jobs/yearly-report\"")
                .doesNotContain("monthly-cleanup")
                // next 1 January, 06:00 UTC
                .contains((Instant.now().atZone(java.time.ZoneOffset.UTC).getYear() + 1) + "-01-01 06:00:00");
        // viewers are not offered to create jobs
        assertThat(found).doesNotContain("id=\"new-job\"");
        assertThat(page(get("/ui/jobs"), "admin").getContentAsString()).contains("id=\"new-job\"");
    }

    @Test
    void jobPageOffersEachRoleItsActionsOnly() throws Exception {
        String viewer = page(get("/ui/jobs/keep-me"), "viewer").getContentAsString();
        String operator = page(get("/ui/jobs/keep-me"), "operator").getContentAsString();
        String admin = page(get("/ui/jobs/keep-me"), "admin").getContentAsString();

        assertThat(viewer).contains("<h1><span>keep-me</span>").contains("id=\"history\"")
                .doesNotContain("id=\"pause\"").doesNotContain("id=\"trigger\"").doesNotContain("id=\"reschedule\"");
        assertThat(operator).contains("id=\"pause\"").contains("id=\"trigger\"").doesNotContain("id=\"reschedule\"");
        // a job defined in configuration can be rescheduled, not deleted
        assertThat(admin).contains("id=\"reschedule\"").contains("name=\"_csrf\"").doesNotContain("id=\"delete\"");
        // the coming fires are listed in the job's zone
        assertThat(admin).contains("01-01 11:00:00</span> UTC");
    }

    @Test
    void apiJobDetailAndTheJobPageReadTheSameRecord() throws Exception {
        MockHttpServletResponse api = page(get("/api/jobs/keep-me"), "viewer");

        assertThat(api.getStatus()).isEqualTo(200);
        JsonNode job = JSON.readTree(api.getContentAsString());
        assertThat(job.get("name").asString()).isEqualTo("keep-me");
        assertThat(job.get("schedule").asString()).isEqualTo("0 11 1 1 *");
        assertThat(job.get("quartzSchedule").asString()).isEqualTo("cron 0 0 11 1 1 ? UTC");
        assertThat(job.get("origin").asString()).isEqualTo("onebeat.jobs[5]");
        assertThat(job.get("runtime").asBoolean()).isFalse();
        assertThat(job.get("paused").asBoolean()).isFalse();
        String nextFire = job.get("nextFire").asString();
        assertThat(page(get("/ui/jobs/keep-me"), "viewer").getContentAsString())
                .contains(nextFire.substring(0, 10) + " " + nextFire.substring(11, 19)).contains("onebeat.jobs[5]");

        MockHttpServletResponse unknown = page(get("/api/jobs/no-such-job"), "viewer");
        assertThat(unknown.getStatus()).isEqualTo(404);
        assertThat(JSON.readTree(unknown.getContentAsString()).get("detail").asString())
                .isEqualTo("no job named 'no-such-job'");
    }

    @Test
    void unknownJobIsA404PageNamingIt() throws Exception {
        MockHttpServletResponse response = page(get("/ui/jobs/no-such-job"), "viewer");

        assertThat(response.getStatus()).isEqualTo(404);
        assertThat(response.getContentAsString()).contains("no job named &#39;no-such-job&#39;");
    }

    @Test
    void operatorPausesAndResumesFromTheJobPage() throws Exception {
        MvcResult paused = perform(post("/ui/jobs/pause-me/pause").with(csrf()), "operator");

        assertThat(paused.getResponse().getStatus()).isEqualTo(302);
        assertThat(paused.getResponse().getRedirectedUrl()).isEqualTo("/ui/jobs/pause-me");
        assertThat(String.valueOf(paused.getFlashMap().get("notice"))).startsWith("Paused: pause-me");
        assertThat(directory.find("pause-me").orElseThrow().paused()).isTrue();
        assertThat(page(get("/ui/jobs/pause-me"), "operator").getContentAsString())
                .contains("id=\"resume\"").contains("none while paused");

        page(post("/ui/jobs/pause-me/resume").with(csrf()), "operator");

        assertThat(directory.find("pause-me").orElseThrow().paused()).isFalse();
        assertThat(jdbc.sql("SELECT action || ' by ' || actor FROM onebeat_audit WHERE target = 'pause-me' ORDER BY id")
                .query(String.class).list()).containsExactly("job.pause by operator", "job.resume by operator");
    }

    @Test
    void operatorPausesForAWhileWithAReasonShownOnThePage() throws Exception {
        MvcResult paused = perform(post("/ui/jobs/pause-a-while/pause").param("reason", "supplier outage")
                .param("for", "2h").with(csrf()), "operator");

        assertThat(String.valueOf(paused.getFlashMap().get("notice"))).startsWith("Paused: pause-a-while fires again from ");
        assertThat(directory.find("pause-a-while").orElseThrow().pausedUntil())
                .isBetween(Instant.now().plus(Duration.ofMinutes(119)), Instant.now().plus(Duration.ofMinutes(121)));
        assertThat(page(get("/ui/jobs/pause-a-while"), "viewer").getContentAsString())
                .contains("id=\"job-pause\"").contains("supplier outage").contains(", until ");
        MvcResult bad = perform(post("/ui/jobs/pause-a-while/pause").param("for", "soon").with(csrf()), "operator");
        assertThat(String.valueOf(bad.getFlashMap().get("problem"))).isEqualTo("for: 'soon' is not a duration such as 30m or 2h");
    }

    @Test
    void anInstantGivenUpShowsARerunButtonThatReRunsIt() throws Exception {
        Instant instant = Instant.parse("2026-01-01T14:00:00Z");
        jdbc.sql("""
                        INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, attempt, outcome, error_class, error_message,
                                                          node, trigger_kind, attempted_at)
                        VALUES ('rerun-me', ?, 3, 'failed', 'java.io.IOException', 'disk full', 'test-node', 'retry', ?)
                        """).params(Timestamp.from(instant), Timestamp.from(instant)).update();

        assertThat(page(get("/ui/jobs/rerun-me"), "operator").getContentAsString())
                .contains("java.io.IOException: disk full").contains("no attempt left").contains("class=\"rerun\"")
                .contains("/ui/jobs/rerun-me/instants/2026-01-01T14:00:00Z/run");
        assertThat(page(get("/ui/jobs/rerun-me"), "viewer").getContentAsString()).doesNotContain("class=\"rerun\"");

        MvcResult rerun = perform(post("/ui/jobs/rerun-me/instants/2026-01-01T14:00:00Z/run").with(csrf()), "operator");

        assertThat(String.valueOf(rerun.getFlashMap().get("notice"))).isEqualTo(
                "Re-running rerun-me for 2026-01-01 14:00:00 UTC, attempt 4.");
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.sql(
                "SELECT count(*) FROM onebeat_fire WHERE job_name = 'rerun-me' AND trigger_kind = 'backfill' AND attempt = 4")
                .query(Long.class).single() == 1);
    }

    @Test
    void triggerFormSentTwiceFiresOnce() throws Exception {
        String form = page(get("/ui/jobs/trigger-me"), "operator").getContentAsString();
        String requestId = form.replaceAll("(?s).*name=\"requestId\" value=\"([^\"]+)\".*", "$1");
        assertThat(requestId).hasSize(36);

        for (int i = 0; i < 2; i++) {
            MockHttpServletResponse response = page(post("/ui/jobs/trigger-me/trigger").param("requestId", requestId)
                    .with(csrf()), "operator");
            assertThat(response.getStatus()).isEqualTo(302);
            assertThat(response.getRedirectedUrl()).isEqualTo("/ui/jobs/trigger-me");
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> manualFires("trigger-me") == 1);
        // and no second fire follows
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> manualFires("trigger-me") == 1);
        assertThat(page(get("/ui/jobs/trigger-me"), "viewer").getContentAsString())
                .contains("<td>manual</td>").doesNotContain("No fire yet.");
    }

    @Test
    void historyIsFilteredByTriggerKind() throws Exception {
        page(post("/ui/jobs/filter-me/trigger").param("requestId", UUID.randomUUID().toString()).with(csrf()),
                "operator");
        await().atMost(Duration.ofSeconds(30)).until(() -> manualFires("filter-me") == 1);

        assertThat(page(get("/ui/jobs/filter-me").param("trigger", "manual"), "viewer").getContentAsString())
                .contains("<td>manual</td>");
        assertThat(page(get("/ui/jobs/filter-me").param("trigger", "scheduled"), "viewer").getContentAsString())
                .doesNotContain("<td>manual</td>").contains("No fire yet.");
        MockHttpServletResponse bogus = page(get("/ui/jobs/filter-me").param("trigger", "bogus"), "viewer");
        assertThat(bogus.getStatus()).isEqualTo(400);
        assertThat(bogus.getContentAsString()).contains("trigger: &#39;bogus&#39; is not one of");
    }

    @Test
    void badCronComesBackNextToItsFieldAndChangesNothing() throws Exception {
        MockHttpServletResponse response = page(post("/ui/jobs/reschedule-badly/schedule").param("cron", "61 * * * *")
                .param("zone", "UTC").param("action", "save").with(csrf()), "admin");

        assertThat(response.getStatus()).isEqualTo(400);
        String body = response.getContentAsString();
        assertThat(body).contains("id=\"cron-error\"").contains("61 * * * *").contains("value=\"61 * * * *\"");
        assertThat(body.replaceAll("(?s).*<p class=\"field-error\" id=\"cron-error\">([^<]*)</p>.*", "$1"))
                .doesNotStartWith("cron:").isNotBlank();
        assertThat(directory.find("reschedule-badly").orElseThrow().schedule()).isEqualTo("0 12 1 1 *");
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_audit WHERE target = 'reschedule-badly'").query(Long.class)
                .single()).isZero();

        MockHttpServletResponse zone = page(post("/ui/jobs/reschedule-badly/schedule").param("cron", "0 3 * * *")
                .param("zone", "Mars/Olympus").param("action", "preview").with(csrf()), "admin");
        assertThat(zone.getStatus()).isEqualTo(400);
        assertThat(zone.getContentAsString()).contains("id=\"zone-error\"").contains("Mars/Olympus");
    }

    @Test
    void adminPreviewsThenSavesANewSchedule() throws Exception {
        MockHttpServletResponse preview = page(post("/ui/jobs/reschedule-me/schedule").param("cron", "30 2 * * *")
                .param("zone", "Europe/Paris").param("action", "preview").with(csrf()), "admin");

        assertThat(preview.getStatus()).isEqualTo(200);
        assertThat(preview.getContentAsString()).contains("id=\"preview-result\"").contains("T02:30:00+0")
                .contains("Europe/Paris");
        // a preview changes nothing
        assertThat(directory.find("reschedule-me").orElseThrow().schedule()).isEqualTo("0 10 1 1 *");

        MockHttpServletResponse saved = page(post("/ui/jobs/reschedule-me/schedule").param("cron", "30 2 * * *")
                .param("zone", "Europe/Paris").param("misfire", "skip-missed").param("action", "save").with(csrf()),
                "admin");

        assertThat(saved.getStatus()).isEqualTo(302);
        assertThat(directory.find("reschedule-me").orElseThrow().quartzSchedule())
                .isEqualTo("cron 0 30 2 * * ? Europe/Paris");
        assertThat(directory.find("reschedule-me").orElseThrow().misfirePolicy()).isEqualTo("SKIP_MISSED");
        assertThat(page(get("/ui/jobs/reschedule-me"), "admin").getContentAsString())
                .contains("<option value=\"skip-missed\" selected=\"selected\">skip-missed</option>");
        assertThat(jdbc.sql("SELECT action || ' by ' || actor FROM onebeat_audit WHERE target = 'reschedule-me'")
                .query(String.class).list()).containsExactly("job.reschedule by admin");
        // operators may not
        assertThat(page(post("/ui/jobs/reschedule-me/schedule").param("every", "1h").with(csrf()), "operator")
                .getStatus()).isEqualTo(403);
    }

    @Test
    void adminCreatesAndDeletesARuntimeJobThroughTheForm() throws Exception {
        assertThat(page(get("/ui/new-job"), "admin").getContentAsString()).contains("id=\"create\"")
                .contains("action=\"/ui/jobs\"");
        MockHttpServletResponse bad = page(post("/ui/jobs").param("name", "nightly-export").param("every", "1h")
                .param("task", "exports.run").param("args", "[1, 2").with(csrf()), "admin");

        assertThat(bad.getStatus()).isEqualTo(400);
        assertThat(bad.getContentAsString()).contains("id=\"args-error\"").contains("must be a JSON array")
                .contains("value=\"nightly-export\"");
        assertThat(directory.find("nightly-export")).isEmpty();

        MockHttpServletResponse noTask = page(post("/ui/jobs").param("name", "nightly-export").param("every", "1h")
                .with(csrf()), "admin");
        assertThat(noTask.getStatus()).isEqualTo(400);
        assertThat(noTask.getContentAsString()).contains("id=\"task-error\"");

        MockHttpServletResponse created = page(post("/ui/jobs").param("name", "nightly-export").param("every", "1h")
                .param("task", "exports.run").param("queue", "exports").param("args", "[1, \"a\"]")
                .param("kwargs", "{\"full\": true}").with(csrf()), "admin");

        assertThat(created.getStatus()).isEqualTo(302);
        assertThat(created.getRedirectedUrl()).isEqualTo("/ui/jobs/nightly-export");
        assertThat(directory.find("nightly-export").orElseThrow().runtime()).isTrue();
        assertThat(page(get("/ui/jobs/nightly-export"), "admin").getContentAsString()).contains("id=\"delete\"");

        // a new schedule keeps the rest of the runtime job
        MockHttpServletResponse rescheduled = page(post("/ui/jobs/nightly-export/schedule").param("every", "2h")
                .param("zone", "").param("action", "save").with(csrf()), "admin");
        assertThat(rescheduled.getStatus()).isEqualTo(302);
        assertThat(directory.find("nightly-export").orElseThrow().quartzSchedule()).isEqualTo("every 7200s");
        assertThat(jdbc.sql("SELECT definition->>'task' || ' ' || (definition->'args')::text || ' '"
                        + " || (definition->'kwargs')::text FROM onebeat_runtime_job WHERE name = 'nightly-export'")
                .query(String.class).single()).isEqualTo("exports.run [1, \"a\"] {\"full\": true}");

        assertThat(page(post("/ui/jobs/nightly-export/delete").with(csrf()), "operator").getStatus()).isEqualTo(403);
        MockHttpServletResponse deleted = page(post("/ui/jobs/nightly-export/delete").with(csrf()), "admin");

        assertThat(deleted.getRedirectedUrl()).isEqualTo("/ui/jobs");
        assertThat(directory.find("nightly-export")).isEmpty();
        assertThat(jdbc.sql("SELECT action FROM onebeat_audit WHERE target = 'nightly-export' ORDER BY id")
                .query(String.class).list()).containsExactly("job.create", "job.update", "job.delete");
    }

    @Test
    void newJobFormSetsRetriesCatchUpAndOverlapPolicyAndNamesABadOne() throws Exception {
        MockHttpServletResponse bad = page(post("/ui/jobs").param("name", "tuned-export").param("every", "1h")
                .param("task", "exports.run").param("overlapPolicy", "sometimes").with(csrf()), "admin");

        assertThat(bad.getStatus()).isEqualTo(400);
        assertThat(bad.getContentAsString()).contains("id=\"overlapPolicy-error\"")
                .contains("&#39;sometimes&#39; is not one of [skip, buffer-one, allow]");
        MockHttpServletResponse notANumber = page(post("/ui/jobs").param("name", "tuned-export").param("every", "1h")
                .param("task", "exports.run").param("maxCatchUp", "ten").with(csrf()), "admin");
        assertThat(notANumber.getContentAsString()).contains("id=\"maxCatchUp-error\"");
        assertThat(directory.find("tuned-export")).isEmpty();

        MockHttpServletResponse created = page(post("/ui/jobs").param("name", "tuned-export").param("every", "1h")
                .param("task", "exports.run").param("retryAttempts", "5").param("catchUpWindow", "2h")
                .param("maxCatchUp", "4").param("misfire", "fire-all-missed").param("overlapPolicy", "skip")
                .with(csrf()), "admin");

        assertThat(created.getStatus()).isEqualTo(302);
        JobView job = directory.find("tuned-export").orElseThrow();
        assertThat(job.retryAttempts()).isEqualTo(5);
        assertThat(job.catchUpWindow()).isEqualTo(java.time.Duration.ofHours(2));
        assertThat(job.maxCatchUp()).isEqualTo(4);
        assertThat(job.overlapPolicy()).isEqualTo("SKIP");
        assertThat(page(get("/ui/jobs/tuned-export"), "viewer").getContentAsString())
                .contains("FIRE_ALL_MISSED, at most 4 instants").contains("id=\"job-overlap-policy\">SKIP<");
    }

    @Test
    void operatorBackfillsARangeFromTheJobPageAndSeesItsProgress() throws Exception {
        assertThat(page(get("/ui/jobs/keep-me"), "operator").getContentAsString()).contains("id=\"backfill-form\"");
        assertThat(page(get("/ui/jobs/keep-me"), "viewer").getContentAsString()).doesNotContain("id=\"backfill-form\"");
        // 06:00 on the first of January, 2025 and 2026: two instants of the yearly job
        MvcResult dryRun = perform(post("/ui/jobs/yearly-report/backfill").param("from", "2025-01-01T00:00:00Z")
                .param("to", "2026-06-01T00:00:00Z").param("dryRun", "true").with(csrf()), "operator");

        assertThat(dryRun.getFlashMap().get("notice")).isEqualTo("Dry run: 2 instants from 2025-01-01 00:00:00 to "
                + "2026-06-01 00:00:00 UTC, 2 without a committed fire would fire. Nothing was started.");
        MvcResult started = perform(post("/ui/jobs/yearly-report/backfill").param("from", "2025-01-01T00:00:00Z")
                .param("to", "2026-06-01T00:00:00Z").param("dryRun", "false").with(csrf()), "operator");
        assertThat(String.valueOf(started.getFlashMap().get("notice"))).startsWith("Backfill ").contains("started");
        MvcResult bad = perform(post("/ui/jobs/yearly-report/backfill").param("from", "yesterday")
                .param("to", "2026-06-01T00:00:00Z").with(csrf()), "operator");
        assertThat(bad.getFlashMap().get("problem")).isEqualTo("from: 'yesterday' is not an instant such as "
                + "2027-01-01T00:00:00Z");

        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> jdbc.sql(
                "SELECT count(*) FROM onebeat_fire WHERE job_name = 'yearly-report' AND trigger_kind = 'backfill'")
                .query(Long.class).single() == 2);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() ->
                page(get("/ui/jobs/yearly-report"), "viewer").getContentAsString().contains(">done<"));
        assertThat(page(get("/ui/jobs/yearly-report"), "viewer").getContentAsString())
                .contains("<progress value=\"2\" max=\"2\"").contains("2 / 2");
    }

    @Test
    void newJobFormOffersGapAndOverlapSelectsWithTheDefaultsFirst() throws Exception {
        String form = page(get("/ui/new-job"), "admin").getContentAsString();

        assertThat(form).contains("<select id=\"gap\" name=\"gap\">")
                .contains("<option value=\"\">shift (default)</option>").contains("<option value=\"skip\">skip</option>")
                .contains("<select id=\"overlap\" name=\"overlap\">")
                .contains("<option value=\"\">first (default)</option>").contains("<option value=\"last\">last</option>")
                .contains("<option value=\"both\">both</option>");
    }

    @Test
    void newJobFormSetsAJitterAndASpreadThatTheJobPageShowsWithEachComingFiresMoment() throws Exception {
        MockHttpServletResponse tooLong = page(post("/ui/jobs").param("name", "spread-sync").param("cron", "0 * * * *")
                .param("task", "tenants.sync").param("spread", "1h").with(csrf()), "admin");

        assertThat(tooLong.getStatus()).isEqualTo(400);
        assertThat(tooLong.getContentAsString()).contains("id=\"spread-error\"")
                .contains("spread PT1H must be shorter than the catch-up window (PT1H)");
        assertThat(directory.find("spread-sync")).isEmpty();

        MockHttpServletResponse created = page(post("/ui/jobs").param("name", "spread-sync").param("cron", "0 * * * *")
                .param("task", "tenants.sync").param("spread", "1m").param("jitter", "1500ms").with(csrf()), "admin");

        assertThat(created.getStatus()).isEqualTo(302);
        JobView job = directory.find("spread-sync").orElseThrow();
        assertThat(job.spread()).isEqualTo(java.time.Duration.ofMinutes(1));
        assertThat(job.jitter()).isEqualTo(java.time.Duration.ofMillis(1500));
        String shown = page(get("/ui/jobs/spread-sync"), "viewer").getContentAsString();
        assertThat(shown).contains("id=\"job-moves\">at its own offset in a 1m spread, plus a jitter of up to 1500ms;"
                + " keys and outcomes stay the instant&#39;s<");
        assertThat(shown).as("each coming fire with its moment").contains("class=\"planned\"").contains("fires at ");
    }

    @Test
    void theCalendarsPageListsEachCalendarWithItsJobsAndAJobPageShowsWhatItsCalendarsSkip() throws Exception {
        String calendars = page(get("/ui/calendars"), "viewer").getContentAsString();
        String job = page(get("/ui/jobs/calendar-me"), "viewer").getContentAsString();

        assertThat(calendars).contains("id=\"calendar-every-day\"").contains("<td>configuration</td>")
                .contains("<td>Europe/Paris</td>").contains("<td>MON-SUN</td>")
                .contains("href=\"/ui/jobs/calendar-me\"");
        assertThat(job).contains("id=\"job-calendars\"").contains("never inside every-day")
                .contains("; active until 2099-01-01 00:00:00 UTC")
                .contains("skipped: excluded by calendar &#39;every-day&#39;");
    }

    @Test
    void jobPageShowsThePolicyAndNotesTheComingTimesAGapSkips() throws Exception {
        // every Sunday of March at 02:30 in Paris: the last one falls in the spring-forward gap, every year
        MockHttpServletResponse created = page(post("/ui/jobs").param("name", "dst-sundays")
                .param("cron", "0 30 2 ? 3 SUN").param("zone", "Europe/Paris").param("gap", "skip")
                .param("overlap", "").param("task", "ops.dst").with(csrf()), "admin");
        assertThat(created.getStatus()).isEqualTo(302);

        String job = page(get("/ui/jobs/dst-sundays"), "admin").getContentAsString();

        assertThat(job).contains("<dd id=\"job-dst\">gap=skip overlap=first</dd>")
                .contains("<li class=\"skipped\">").contains("not fired")
                .contains("02:30 does not exist (clocks jump forward): skipped (gap=skip)")
                .contains("<option value=\"skip\" selected=\"selected\">skip</option>");
        assertThat(page(post("/ui/jobs/dst-sundays/delete").with(csrf()), "admin").getRedirectedUrl())
                .isEqualTo("/ui/jobs");
    }

    @Test
    void reschedulePreviewNotesBothOccurrencesOfATimeTheClocksShowTwice() throws Exception {
        // every Sunday of October at 02:30 in Paris: the last one happens twice, every year
        MockHttpServletResponse preview = page(post("/ui/jobs/reschedule-badly/schedule")
                .param("cron", "0 30 2 ? 10 SUN").param("zone", "Europe/Paris").param("gap", "")
                .param("overlap", "both").param("action", "preview").with(csrf()), "admin");

        assertThat(preview.getStatus()).isEqualTo(200);
        String body = preview.getContentAsString();
        assertThat(body).contains("id=\"preview-result\"").contains("gap=shift overlap=both")
                .contains("<li class=\"dst\">")
                .contains("02:30 happens twice (clocks go back): the first, at +02:00 (overlap=both)")
                .contains("02:30 happens twice (clocks go back): the second, at +01:00 (overlap=both)")
                .contains("<option value=\"both\" selected=\"selected\">both</option>");
        assertThat(directory.find("reschedule-badly").orElseThrow().schedule()).isEqualTo("0 12 1 1 *");
    }

    @Test
    void badGapComesBackNextToItsSelectInTheWordsStartUpUsesAndChangesNothing() throws Exception {
        MockHttpServletResponse response = page(post("/ui/jobs/reschedule-badly/schedule").param("cron", "30 2 * * *")
                .param("zone", "Europe/Paris").param("gap", "later").param("action", "save").with(csrf()), "admin");

        assertThat(response.getStatus()).isEqualTo(400);
        assertThat(response.getContentAsString()).contains("<select id=\"gap\" name=\"gap\" class=\"invalid\">")
                .contains("<p class=\"field-error\" id=\"gap-error\">&#39;later&#39; is not one of shift, skip</p>");
        assertThat(directory.find("reschedule-badly").orElseThrow().schedule()).isEqualTo("0 12 1 1 *");
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_audit WHERE target = 'reschedule-badly'").query(Long.class)
                .single()).isZero();
    }

    @Test
    void overlapRuleForANewIntervalJobComesBackNextToItsSelect() throws Exception {
        MockHttpServletResponse response = page(post("/ui/jobs").param("name", "dst-interval").param("every", "1h")
                .param("overlap", "both").param("task", "ops.dst").with(csrf()), "admin");

        assertThat(response.getStatus()).isEqualTo(400);
        assertThat(response.getContentAsString()).contains("id=\"overlap-error\"")
                .contains("&#39;both&#39; applies to cron schedules only; an every schedule counts elapsed seconds")
                .contains("<option value=\"both\" selected=\"selected\">both</option>");
        assertThat(directory.find("dst-interval")).isEmpty();
    }

    @Test
    void tasksAreFilteredRetriedAndDiscarded() throws Exception {
        String queue = "console-" + UUID.randomUUID();
        long failed = task(queue, "failed");
        long pending = task(queue, "pending");
        long published = task(queue, "published");

        String list = page(get("/ui/tasks").param("queue", queue).param("status", "failed"), "viewer")
                .getContentAsString();
        assertThat(list).contains("id=\"task-" + failed + "\"").doesNotContain("id=\"task-" + pending + "\"")
                .contains("1 task<").doesNotContain(">Retry<");
        assertThat(page(get("/ui/tasks").param("queue", queue).param("status", "failed"), "operator")
                .getContentAsString()).contains(">Retry<");

        String back = "/ui/tasks?queue=" + queue + "&status=failed";
        MockHttpServletResponse retried = page(post("/ui/tasks/" + failed + "/retry").param("back", back)
                .with(csrf()), "operator");
        assertThat(retried.getRedirectedUrl()).isEqualTo(back);
        assertThat(status(failed)).isEqualTo("pending");

        page(post("/ui/tasks/" + pending + "/discard").with(csrf()), "operator");
        assertThat(status(pending)).isEqualTo("dead");

        MvcResult refused = perform(post("/ui/tasks/" + published + "/discard")
                .param("back", "https://elsewhere.example/").with(csrf()), "operator");
        assertThat(refused.getResponse().getRedirectedUrl()).isEqualTo("/ui/tasks");
        assertThat(String.valueOf(refused.getFlashMap().get("problem"))).contains("is published");
        assertThat(status(published)).isEqualTo("published");
        // a return address with braces is taken as it is, not as a URI template
        MvcResult braces = perform(post("/ui/tasks/" + published + "/retry").param("back", "/ui/tasks?job={x}")
                .with(csrf()), "operator");
        assertThat(braces.getResponse().getRedirectedUrl()).isEqualTo("/ui/tasks?job={x}");

        assertThat(page(get("/ui/tasks").param("status", "lost"), "viewer").getStatus()).isEqualTo(400);
    }

    @Test
    void clusterAndAuditPagesShowWhatIsRecorded() throws Exception {
        page(post("/ui/jobs/monthly-cleanup/pause").with(csrf()), "admin");
        page(post("/ui/jobs/monthly-cleanup/resume").with(csrf()), "admin");

        assertThat(page(get("/ui/cluster"), "viewer").getContentAsString()).contains("(this replica)")
                .contains("id=\"locks\"");
        String audit = page(get("/ui/audit").param("target", "monthly-cleanup"), "viewer").getContentAsString();
        assertThat(audit).contains("<td>job.pause</td>").contains("<td>job.resume</td>").contains("<td>admin</td>")
                .contains("{&quot;paused&quot;:false}");
        assertThat(page(get("/ui/audit").param("actor", "nobody"), "viewer").getContentAsString())
                .contains("No change recorded.");
    }

    @Test
    void adminsSeeWhoMaySignInButNoSecret() throws Exception {
        String usersPage = page(get("/ui/users"), "admin").getContentAsString();

        assertThat(usersPage).contains("<td>operator-token</td>").contains("onebeat.security.users[2]")
                .contains("onebeat.security.tokens[0]").contains("OIDC sign-in is off")
                .doesNotContain("{bcrypt}").doesNotContain("$2a$")
                .doesNotContain(SecurityTestUsers.sha256Hex(SecurityTestUsers.token("admin")));
        assertThat(page(get("/ui/jobs"), "admin").getContentAsString()).contains("href=\"/ui/users\"");
        assertThat(page(get("/ui/jobs"), "operator").getContentAsString()).doesNotContain("href=\"/ui/users\"");

        JsonNode api = JSON.readTree(page(get("/api/users"), "admin").getContentAsString());
        assertThat(api.get("accounts")).hasSize(6);
        assertThat(api.get("accounts").get(0).get("name").asString()).isEqualTo("viewer");
        assertThat(api.get("accounts").get(0).get("kind").asString()).isEqualTo("user");
        assertThat(api.get("accounts").get(5).get("name").asString()).isEqualTo("admin-token");
        assertThat(api.get("accounts").get(5).get("role").asString()).isEqualTo("admin");
        assertThat(api.get("oidc").asBoolean()).isFalse();
        assertThat(page(get("/api/users"), "operator").getStatus()).isEqualTo(403);
    }

    @Test
    void signInPageAndLanding() throws Exception {
        MockHttpServletResponse login = mvc.perform(get("/login")).andReturn().getResponse();
        assertThat(login.getStatus()).isEqualTo(200);
        assertThat(login.getContentAsString()).contains("action=\"/login\"").contains("name=\"_csrf\"")
                .contains("id=\"username\"");

        assertThat(mvc.perform(get("/")).andReturn().getResponse().getRedirectedUrl()).isEqualTo("/ui");

        // signing in with no page asked for before lands on the dashboard, not on a 404
        MockHttpServletResponse signedIn = mvc.perform(post("/login").param("username", "viewer")
                .param("password", SecurityTestUsers.PASSWORD).with(csrf())).andReturn().getResponse();
        assertThat(signedIn.getRedirectedUrl()).isEqualTo("/ui");
        MockHttpServletResponse wrong = mvc.perform(post("/login").param("username", "viewer")
                .param("password", "wrong").with(csrf())).andReturn().getResponse();
        assertThat(wrong.getRedirectedUrl()).isEqualTo("/login?error");
    }

    private MockHttpServletResponse page(MockHttpServletRequestBuilder request, String role) throws Exception {
        return perform(request, role).getResponse();
    }

    private MvcResult perform(MockHttpServletRequestBuilder request, String role) throws Exception {
        return mvc.perform(request.header(HttpHeaders.AUTHORIZATION, SecurityTestUsers.basic(role))).andReturn();
    }

    private long manualFires(String job) {
        return jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ? AND trigger_kind = 'manual'")
                .param(job).query(Long.class).single();
    }

    private long task(String queue, String status) {
        return jdbc.sql("""
                        INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, payload, status)
                        VALUES (?, 'keep-me', ?, 't', ?, '{}'::jsonb, ?) RETURNING id
                        """)
                .params(UUID.randomUUID().toString(), Timestamp.from(Instant.parse("2027-01-01T00:00:00Z")), queue,
                        status)
                .query(Long.class).single();
    }

    private String status(long id) {
        return jdbc.sql("SELECT status FROM onebeat_task WHERE id = ?").param(id).query(String.class).single();
    }
}
