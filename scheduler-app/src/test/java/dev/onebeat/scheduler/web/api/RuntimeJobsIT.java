package dev.onebeat.scheduler.web.api;

import static dev.onebeat.scheduler.ApiClient.detail;
import static dev.onebeat.scheduler.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.job.DstPolicy;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.WebIT;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runtime jobs created, changed and deleted through the API, and jobs from configuration rescheduled and
 * put back on their defined schedule.
 */
@WebIT(properties = {
        SchedulerTestDatabase.NO_DEMO,
        "onebeat.jobs[0].name=configured", "onebeat.jobs[0].cron=0 6 1 1 *", "onebeat.jobs[0].task=ops.configured",
        "onebeat.jobs[1].name=kept", "onebeat.jobs[1].cron=0 6 1 1 *", "onebeat.jobs[1].task=ops.kept",
        "onebeat.jobs[2].name=reset", "onebeat.jobs[2].cron=0 6 1 1 *", "onebeat.jobs[2].task=ops.reset",
        "onebeat.jobs[3].name=reset-paused", "onebeat.jobs[3].cron=0 6 1 1 *", "onebeat.jobs[3].task=ops.reset",
        "onebeat.jobs[4].name=reset-at-once", "onebeat.jobs[4].cron=0 6 1 1 *", "onebeat.jobs[4].task=ops.reset",
        "onebeat.jobs[5].name=cron-to-interval", "onebeat.jobs[5].cron=0 6 1 1 *", "onebeat.jobs[5].task=ops.c",
        "onebeat.jobs[6].name=dst-configured", "onebeat.jobs[6].cron=30 2 * * *", "onebeat.jobs[6].zone=Europe/Paris",
        "onebeat.jobs[6].gap=skip", "onebeat.jobs[6].task=ops.dst"})
class RuntimeJobsIT {

    @Autowired
    ApiClient server;

    private ApiClient api;

    @Autowired
    JobRegistry registry;

    @Autowired
    JdbcTemplate jdbc;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @BeforeEach
    void client() {
        api = server.as("admin");
    }

    @Nested
    class Create {

        @Test
        void createdJobFiresIsListedAndAudited() throws Exception {
            HttpResponse<String> created = api.send("POST", "/api/jobs",
                    "{\"name\":\"pulse\",\"every\":\"1s\",\"task\":\"ops.pulse\",\"kwargs\":{\"source\":\"api\"}}");

            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            await().atMost(Duration.ofSeconds(30)).until(() -> json(api.get("/api/jobs/pulse/fires")).size() >= 2);
            JsonNode pulse = job("pulse");
            assertThat(pulse.get("schedule").asString()).isEqualTo("every 1s");
            assertThat(pulse.get("registered").asBoolean()).isTrue();
            JsonNode audit = json(api.get("/api/audit?target=pulse")).get(0);
            assertThat(audit.get("action").asString()).isEqualTo("job.create");
            assertThat(audit.get("before").isNull()).isTrue();
            assertThat(audit.get("after").get("task").asString()).isEqualTo("ops.pulse");
        }

        @Test
        void secondCreationOfTheSameNameIsConflictAndNotAudited() throws Exception {
            String body = "{\"name\":\"twice\",\"cron\":\"0 6 1 1 *\",\"task\":\"t\"}";
            api.send("POST", "/api/jobs", body);

            HttpResponse<String> again = api.send("POST", "/api/jobs", body);

            assertThat(again.statusCode()).isEqualTo(409);
            assertThat(detail(again)).isEqualTo("runtime job 'twice' exists; PUT /api/jobs/twice to change it");
            assertThat(json(api.get("/api/audit?target=twice"))).hasSize(1);
        }

        @Test
        void creationUnderTheNameOfAConfiguredJobIsConflict() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs",
                    "{\"name\":\"configured\",\"cron\":\"0 6 1 1 *\",\"task\":\"t\"}");

            assertThat(response.statusCode()).isEqualTo(409);
        }

        @Test
        void badCronIsBadRequestNamingTheFieldAndStoresNothing() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs",
                    "{\"name\":\"bad-cron\",\"cron\":\"61 * * * *\",\"task\":\"t\"}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).startsWith("cron: ");
            assertThat(api.get("/api/jobs/bad-cron/fires").statusCode()).isEqualTo(404);
        }

        @Test
        void unknownZoneIsBadRequestNamingTheField() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs",
                    "{\"name\":\"bad-zone\",\"cron\":\"0 6 * * *\",\"zone\":\"Mars/Olympus\",\"task\":\"t\"}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response))
                    .isEqualTo("zone: 'Mars/Olympus' is not a known IANA time zone (e.g. Europe/Paris, UTC)");
        }

        @Test
        void unknownMisfirePolicyIsBadRequestListingTheKnownOnes() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs",
                    "{\"name\":\"bad-misfire\",\"every\":\"10s\",\"misfire\":\"sometimes\",\"task\":\"t\"}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response))
                    .isEqualTo("misfire: 'sometimes' is not one of [FIRE_ONCE_NOW, FIRE_ALL_MISSED, SKIP_MISSED]");
        }

        @Test
        void createdJobKeepsItsCatchUpAndOverlapPolicy() throws Exception {
            HttpResponse<String> created = api.send("POST", "/api/jobs", "{\"name\":\"tuned\",\"cron\":\"0 6 1 1 *\","
                    + "\"task\":\"t\",\"misfire\":\"fire-all-missed\",\"maxCatchUp\":4,\"overlapPolicy\":\"allow\"}");

            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            JsonNode tuned = job("tuned");
            assertThat(tuned.get("maxCatchUp").asInt()).isEqualTo(4);
            assertThat(tuned.get("overlapPolicy").asString()).isEqualTo("ALLOW");
            assertThat(job("kept").get("overlapPolicy").asString()).as("the default").isEqualTo("BUFFER_ONE");
            assertThat(job("kept").get("maxCatchUp").asInt()).isEqualTo(10);
        }

        @Test
        void badOverlapPolicyOrMaxCatchUpIsBadRequestNamingTheField() throws Exception {
            HttpResponse<String> policy = api.send("POST", "/api/jobs",
                    "{\"name\":\"bad-policy\",\"every\":\"10s\",\"task\":\"t\",\"overlapPolicy\":\"sometimes\"}");
            HttpResponse<String> none = api.send("POST", "/api/jobs",
                    "{\"name\":\"bad-catch-up\",\"every\":\"10s\",\"task\":\"t\",\"maxCatchUp\":0}");

            assertThat(policy.statusCode()).isEqualTo(400);
            assertThat(detail(policy)).isEqualTo("overlap-policy: 'sometimes' is not one of [skip, buffer-one, allow]");
            assertThat(none.statusCode()).isEqualTo(400);
            assertThat(detail(none)).isEqualTo("max-catch-up: maxCatchUp must be at least 1, was 0");
        }

        @Test
        void createdJobKeepsItsAlertPolicyAndABadOneIsBadRequestNamingTheField() throws Exception {
            HttpResponse<String> created = api.send("POST", "/api/jobs", "{\"name\":\"watched\",\"every\":\"10s\","
                    + "\"task\":\"t\",\"alerts\":{\"grace\":\"2m\",\"afterFailures\":3,"
                    + "\"healthchecksUrl\":\"https://hc-ping.com/5f2e\",\"sentryMonitor\":\"watched\"}}");
            HttpResponse<String> bad = api.send("POST", "/api/jobs", "{\"name\":\"badly-watched\",\"every\":\"10s\","
                    + "\"task\":\"t\",\"alerts\":{\"resolveAfter\":0}}");
            HttpResponse<String> unknown = api.send("POST", "/api/jobs", "{\"name\":\"typo\",\"every\":\"10s\","
                    + "\"task\":\"t\",\"alerts\":{\"graec\":\"2m\"}}");

            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            JsonNode alerts = job("watched").get("alerts");
            assertThat(alerts.get("enabled").asBoolean()).isTrue();
            assertThat(alerts.get("afterFailures").asInt()).isEqualTo(3);
            assertThat(alerts.get("resolveAfter").asInt()).isEqualTo(1);
            assertThat(alerts.get("healthchecksUrl").asString()).isEqualTo("https://hc-ping.com/5f2e");
            assertThat(alerts.get("sentryMonitor").asString()).isEqualTo("watched");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(detail(bad)).isEqualTo("alerts.resolve-after: resolveAfter must be 1 to 1000, was 0");
            assertThat(unknown.statusCode()).isEqualTo(400);
            assertThat(detail(unknown)).contains("graec");
        }

        @Test
        void healthchecksUrlReachingALoopbackLinkLocalOrPrivateAddressIsBadRequestNamingTheFieldAndValue()
                throws Exception {
            // no onebeat.security.outbound.* here: only public addresses may be reached
            List<String> refused = List.of("http://127.0.0.1:9/ping", "http://localhost:9/ping",
                    "http://169.254.169.254/latest/meta-data/", "http://10.0.0.5/ping", "http://[::1]/ping");
            for (String url : refused) {
                HttpResponse<String> response = api.send("POST", "/api/jobs", "{\"name\":\"ssrf\",\"every\":\"10s\","
                        + "\"task\":\"t\",\"alerts\":{\"healthchecksUrl\":\"" + url + "\"}}");

                assertThat(response.statusCode()).as(url).isEqualTo(400);
                assertThat(detail(response)).startsWith("alerts.healthchecksUrl: '" + url + "' is refused: ");
            }
            assertThat(api.get("/api/jobs/ssrf").statusCode()).isEqualTo(404);

            assertThat(api.send("POST", "/api/jobs", "{\"name\":\"ssrf-later\",\"every\":\"10s\",\"task\":\"t\"}")
                    .statusCode()).isEqualTo(201);
            HttpResponse<String> changed = api.send("PUT", "/api/jobs/ssrf-later", "{\"every\":\"10s\",\"task\":\"t\","
                    + "\"alerts\":{\"healthchecksUrl\":\"http://127.0.0.1:9/ping\"}}");
            assertThat(changed.statusCode()).isEqualTo(400);
            assertThat(detail(changed)).isEqualTo("alerts.healthchecksUrl: 'http://127.0.0.1:9/ping' is refused: "
                    + "127.0.0.1 is a loopback address; only public addresses may be reached, or those of "
                    + "onebeat.security.outbound.allowed-hosts and allowed-networks");
        }

        @Test
        void createdJobKeepsItsDeliveryOptionsAndABadOneIsBadRequestNamingTheField() throws Exception {
            HttpResponse<String> created = api.send("POST", "/api/jobs", "{\"name\":\"urgent\",\"every\":\"10s\","
                    + "\"task\":\"t\",\"options\":{\"expires\":\"30m\",\"priority\":9,\"routingKey\":\"t.urgent\","
                    + "\"headers\":{\"tenant\":\"acme\"}}}");
            HttpResponse<String> bad = api.send("POST", "/api/jobs", "{\"name\":\"too-urgent\",\"every\":\"10s\","
                    + "\"task\":\"t\",\"options\":{\"priority\":300}}");

            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            JsonNode stored = JSON.readTree(jdbc.queryForObject(
                    "SELECT definition::text FROM onebeat_runtime_job WHERE name = 'urgent'", String.class)).get("options");
            assertThat(stored.get("priority").asInt()).isEqualTo(9);
            assertThat(stored.get("expires").asString()).isEqualTo("30m");
            assertThat(stored.get("headers").get("tenant").asString()).isEqualTo("acme");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(detail(bad)).isEqualTo("options.priority: must be 0 to 255, was 300");
        }

        @Test
        void aNulCharacterIsBadRequestNamingTheFieldAndStoresNothing() throws Exception {
            HttpResponse<String> task = api.send("POST", "/api/jobs", "{\"name\":\"nul-task\",\"every\":\"10s\","
                    + "\"task\":\"t\\u0000\"}");
            HttpResponse<String> arg = api.send("POST", "/api/jobs", "{\"name\":\"nul-arg\",\"every\":\"10s\","
                    + "\"task\":\"t\",\"kwargs\":{\"note\":\"a\\u0000b\"}}");

            assertThat(task.statusCode()).as(task.body()).isEqualTo(400);
            assertThat(detail(task)).startsWith("task: holds a NUL character");
            assertThat(arg.statusCode()).as(arg.body()).isEqualTo(400);
            assertThat(detail(arg)).startsWith("args: kwargs.note: holds a NUL character");
            assertThat(api.get("/api/jobs/nul-task").statusCode()).isEqualTo(404);
            assertThat(api.get("/api/jobs/nul-arg").statusCode()).isEqualTo(404);
        }

        @Test
        void missingTaskIsBadRequestNamingTheField() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs", "{\"name\":\"no-task\",\"every\":\"10s\"}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).startsWith("task: is missing");
        }

        @Test
        void nameThatCannotBeAPathIsBadRequest() throws Exception {
            for (String name : new String[] {"a/b", "..", ".hidden", "-x"}) {
                HttpResponse<String> response = api.send("POST", "/api/jobs", "{\"name\":\"" + name
                        + "\",\"every\":\"10s\",\"task\":\"t\"}");

                assertThat(response.statusCode()).as(name).isEqualTo(400);
                assertThat(detail(response)).as(name).startsWith("name: must be 1 to 150 letters")
                        .endsWith("was '" + name + "'");
            }
        }
    }

    @Nested
    class Change {

        @Test
        void runtimeJobIsRedefinedWithBeforeAndAfterAudited() throws Exception {
            api.send("POST", "/api/jobs", "{\"name\":\"changing\",\"cron\":\"0 6 1 1 *\",\"task\":\"t\"}");

            HttpResponse<String> changed = api.send("PUT", "/api/jobs/changing",
                    "{\"cron\":\"30 8 * * MON-FRI\",\"zone\":\"Europe/Paris\",\"task\":\"t2\"}");

            assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
            assertThat(job("changing").get("quartzSchedule").asString()).isEqualTo("cron 0 30 8 ? * MON-FRI Europe/Paris");
            JsonNode audit = json(api.get("/api/audit?target=changing")).get(0);
            assertThat(audit.get("action").asString()).isEqualTo("job.update");
            assertThat(audit.get("before").get("task").asString()).isEqualTo("t");
            assertThat(audit.get("after").get("task").asString()).isEqualTo("t2");
        }

        @Test
        void configuredJobIsRescheduledKeepingItsTask() throws Exception {
            HttpResponse<String> changed = api.send("PUT", "/api/jobs/configured",
                    "{\"cron\":\"0 9 * * *\",\"zone\":\"Europe/Paris\",\"misfire\":\"skip-missed\"}");

            assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
            JsonNode configured = job("configured");
            assertThat(configured.get("schedule").asString()).isEqualTo("0 9 * * *");
            assertThat(configured.get("misfirePolicy").asString()).isEqualTo("SKIP_MISSED");
            JsonNode audit = json(api.get("/api/audit?target=configured")).get(0);
            assertThat(audit.get("action").asString()).isEqualTo("job.reschedule");
            assertThat(audit.get("before").get("misfire").asString()).isEqualTo("FIRE_ONCE_NOW");
            assertThat(audit.get("after").get("schedule").asString()).isEqualTo("cron 0 0 9 * * ? Europe/Paris");
        }

        @Test
        void cronJobIsRescheduledToAnIntervalAndBack() throws Exception {
            HttpResponse<String> toInterval = api.send("PUT", "/api/jobs/cron-to-interval", "{\"every\":\"1h\"}");

            assertThat(toInterval.statusCode()).as(toInterval.body()).isEqualTo(200);
            assertThat(job("cron-to-interval").get("schedule").asString()).isEqualTo("every 3600s");
            assertThat(job("cron-to-interval").get("nextFire").isNull()).isFalse();
            HttpResponse<String> toCron = api.send("PUT", "/api/jobs/cron-to-interval", "{\"cron\":\"0 7 1 1 *\"}");
            assertThat(toCron.statusCode()).as(toCron.body()).isEqualTo(200);
            assertThat(job("cron-to-interval").get("quartzSchedule").asString()).startsWith("cron 0 0 7 1 1 ?");
        }

        @Test
        void changingTheTaskOfAConfiguredJobIsBadRequest() throws Exception {
            HttpResponse<String> response = api.send("PUT", "/api/jobs/kept", "{\"every\":\"10s\",\"task\":\"other\"}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).startsWith("task: job 'kept' is defined in code or configuration");
            assertThat(job("kept").get("schedule").asString()).isEqualTo("0 6 1 1 *");
        }

        @Test
        void changingTheOverlapPolicyOfAConfiguredJobIsBadRequest() throws Exception {
            HttpResponse<String> response = api.send("PUT", "/api/jobs/kept",
                    "{\"every\":\"10s\",\"overlapPolicy\":\"skip\"}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).startsWith("overlapPolicy: job 'kept' is defined in code or configuration");
            assertThat(job("kept").get("schedule").asString()).isEqualTo("0 6 1 1 *");
        }

        @Test
        void changingAnUnknownJobIsNotFound() throws Exception {
            HttpResponse<String> response = api.send("PUT", "/api/jobs/ghost", "{\"every\":\"10s\",\"task\":\"t\"}");

            assertThat(response.statusCode()).isEqualTo(404);
        }
    }

    @Nested
    class DaylightSaving {

        @Test
        void createdJobRunsOnItsGapAndOverlapRulesAndTheAuditShowsThem() throws Exception {
            HttpResponse<String> created = api.send("POST", "/api/jobs", "{\"name\":\"dst-created\","
                    + "\"cron\":\"30 2 * * *\",\"zone\":\"Europe/Paris\",\"gap\":\"skip\",\"overlap\":\"both\","
                    + "\"task\":\"t\"}");

            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            assertThat(json(created).get("gap").asString()).isEqualTo("skip");
            assertThat(json(created).get("overlap").asString()).isEqualTo("both");
            assertThat(dst("dst-created")).isEqualTo(new DstPolicy(DstPolicy.Gap.SKIP, DstPolicy.Overlap.BOTH));
            JsonNode view = json(api.get("/api/jobs/dst-created"));
            assertThat(view.get("gap").asString()).as("the job's view").isEqualTo("skip");
            assertThat(view.get("overlap").asString()).isEqualTo("both");
            JsonNode audit = json(api.get("/api/audit?target=dst-created")).get(0);
            assertThat(audit.get("action").asString()).isEqualTo("job.create");
            assertThat(audit.get("after").get("gap").asString()).isEqualTo("skip");
            assertThat(audit.get("after").get("overlap").asString()).isEqualTo("both");
        }

        @Test
        void runtimeJobRedefinedWithoutRulesGoesBackToTheDefaultPolicy() throws Exception {
            api.send("POST", "/api/jobs", "{\"name\":\"dst-redefined\",\"cron\":\"30 2 * * *\","
                    + "\"zone\":\"Europe/Paris\",\"overlap\":\"last\",\"task\":\"t\"}");

            HttpResponse<String> changed = api.send("PUT", "/api/jobs/dst-redefined",
                    "{\"cron\":\"30 2 * * *\",\"zone\":\"Europe/Paris\",\"task\":\"t\"}");

            assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
            assertThat(dst("dst-redefined")).isEqualTo(DstPolicy.DEFAULT);
            JsonNode audit = json(api.get("/api/audit?target=dst-redefined")).get(0);
            assertThat(audit.get("action").asString()).isEqualTo("job.update");
            assertThat(audit.get("before").get("overlap").asString()).isEqualTo("last");
            assertThat(audit.get("after").get("overlap").isNull()).isTrue();
        }

        @Test
        void configuredJobIsRescheduledWithNewRulesAndTheAuditDescribesBothPolicies() throws Exception {
            HttpResponse<String> changed = api.send("PUT", "/api/jobs/dst-configured",
                    "{\"cron\":\"30 2 * * *\",\"zone\":\"Europe/Paris\",\"overlap\":\"both\"}");

            assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
            // the schedule is replaced whole: the configured gap=skip is not carried over
            assertThat(dst("dst-configured")).isEqualTo(new DstPolicy(DstPolicy.Gap.SHIFT, DstPolicy.Overlap.BOTH));
            JsonNode audit = json(api.get("/api/audit?target=dst-configured")).get(0);
            assertThat(audit.get("action").asString()).isEqualTo("job.reschedule");
            assertThat(audit.get("before").get("schedule").asString())
                    .isEqualTo("cron 0 30 2 * * ? Europe/Paris gap=skip overlap=first");
            assertThat(audit.get("after").get("schedule").asString())
                    .isEqualTo("cron 0 30 2 * * ? Europe/Paris gap=shift overlap=both");
        }

        @Test
        void unknownGapIsBadRequestNamingTheFieldAndStoresNothing() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs", "{\"name\":\"dst-bad-gap\","
                    + "\"cron\":\"30 2 * * *\",\"gap\":\"later\",\"task\":\"t\"}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).isEqualTo("gap: 'later' is not one of shift, skip");
            assertThat(api.get("/api/jobs/dst-bad-gap").statusCode()).isEqualTo(404);
        }

        @Test
        void unknownOverlapInARescheduleIsBadRequestAndKeepsTheSchedule() throws Exception {
            HttpResponse<String> response = api.send("PUT", "/api/jobs/kept",
                    "{\"cron\":\"30 2 * * *\",\"overlap\":\"twice\"}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).isEqualTo("overlap: 'twice' is not one of first, last, both");
            assertThat(job("kept").get("schedule").asString()).isEqualTo("0 6 1 1 *");
        }

        @Test
        void ruleOnAnIntervalIsBadRequestSayingIntervalsHaveNoDaylightSaving() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs", "{\"name\":\"dst-interval\","
                    + "\"every\":\"1h\",\"overlap\":\"both\",\"task\":\"t\"}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).isEqualTo("overlap: 'both' applies to cron schedules only; an every "
                    + "schedule counts elapsed seconds and never meets a daylight-saving overlap (remove overlap, "
                    + "or use cron)");
        }

        private DstPolicy dst(String name) {
            return ((Schedule.Cron) registry.find(name).orElseThrow().job().schedule()).dst();
        }
    }

    @Nested
    class Delete {

        @Test
        void runtimeJobIsDeletedWithItsDefinitionAudited() throws Exception {
            api.send("POST", "/api/jobs", "{\"name\":\"doomed\",\"cron\":\"0 6 1 1 *\",\"task\":\"t\"}");

            HttpResponse<String> deleted = api.send("DELETE", "/api/jobs/doomed", null);

            assertThat(deleted.statusCode()).isEqualTo(204);
            assertThat(json(api.get("/api/jobs")).get("items").findValuesAsString("name")).doesNotContain("doomed");
            JsonNode audit = json(api.get("/api/audit?target=doomed")).get(0);
            assertThat(audit.get("action").asString()).isEqualTo("job.delete");
            assertThat(audit.get("before").get("cron").asString()).isEqualTo("0 6 1 1 *");
            assertThat(audit.get("after").isNull()).isTrue();
        }

        @Test
        void configuredJobCannotBeDeleted() throws Exception {
            HttpResponse<String> response = api.send("DELETE", "/api/jobs/kept", null);

            assertThat(response.statusCode()).isEqualTo(409);
            assertThat(detail(response)).isEqualTo(
                    "job 'kept' is defined in code/configuration; it can be paused or rescheduled, not deleted");
        }

        @Test
        void deletingAnUnknownJobIsNotFound() throws Exception {
            assertThat(api.send("DELETE", "/api/jobs/ghost", null).statusCode()).isEqualTo(404);
        }
    }

    @Nested
    class ResetSchedule {

        @Test
        void removedOverrideLetsTheDefinedScheduleApplyAgainWithBeforeAndAfterAudited() throws Exception {
            String defined = job("reset").get("quartzSchedule").asString();
            reschedule("/api/jobs/reset", "{\"cron\":\"0 9 * * *\",\"zone\":\"Europe/Paris\"}");

            HttpResponse<String> reset = api.send("DELETE", "/api/jobs/reset/schedule", null);

            assertThat(reset.statusCode()).as(reset.body()).isEqualTo(204);
            JsonNode job = job("reset");
            assertThat(job.get("schedule").asString()).isEqualTo("0 6 1 1 *");
            assertThat(job.get("quartzSchedule").asString()).isEqualTo(defined);
            JsonNode audit = json(api.get("/api/audit?target=reset")).get(0);
            assertThat(audit.get("action").asString()).isEqualTo("job.schedule-reset");
            assertThat(audit.get("before").get("schedule").asString()).isEqualTo("cron 0 0 9 * * ? Europe/Paris");
            assertThat(audit.get("after").get("schedule").asString()).isEqualTo(defined);
        }

        @Test
        void secondRemovalIsNotFoundAndNotAudited() throws Exception {
            reschedule("/api/jobs/reset", "{\"every\":\"1h\"}");
            assertThat(api.send("DELETE", "/api/jobs/reset/schedule", null).statusCode()).isEqualTo(204);
            int audited = json(api.get("/api/audit?target=reset")).size();

            HttpResponse<String> again = api.send("DELETE", "/api/jobs/reset/schedule", null);

            assertThat(again.statusCode()).isEqualTo(404);
            assertThat(detail(again)).isEqualTo("job 'reset' has no stored schedule; it already runs on the schedule "
                    + "defined in code or configuration");
            assertThat(json(api.get("/api/audit?target=reset"))).hasSize(audited);
        }

        @Test
        void pausedJobStaysPaused() throws Exception {
            assertThat(api.send("POST", "/api/jobs/reset-paused/pause", null).statusCode()).isEqualTo(200);
            reschedule("/api/jobs/reset-paused", "{\"every\":\"1h\"}");

            HttpResponse<String> reset = api.send("DELETE", "/api/jobs/reset-paused/schedule", null);

            assertThat(reset.statusCode()).as(reset.body()).isEqualTo(204);
            JsonNode job = job("reset-paused");
            assertThat(job.get("schedule").asString()).isEqualTo("0 6 1 1 *");
            assertThat(job.get("paused").asBoolean()).isTrue();
        }

        @Test
        void resetsSentAtOnceRemoveTheOverrideOnceWithOneAuditRow() throws Exception {
            reschedule("/api/jobs/reset-at-once", "{\"every\":\"1h\"}");
            int clients = 4;
            CyclicBarrier start = new CyclicBarrier(clients);
            List<CompletableFuture<Integer>> statuses = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                statuses.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        start.await();
                        return api.send("DELETE", "/api/jobs/reset-at-once/schedule", null).statusCode();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }

            assertThat(statuses.stream().map(CompletableFuture::join).toList())
                    .containsOnlyOnce(204).containsOnly(204, 404);
            assertThat(json(api.get("/api/audit?target=reset-at-once")).findValuesAsString("action"))
                    .containsOnlyOnce("job.schedule-reset");
        }

        @Test
        void runtimeJobIsConflict() throws Exception {
            api.send("POST", "/api/jobs", "{\"name\":\"own-schedule\",\"cron\":\"0 6 1 1 *\",\"task\":\"t\"}");

            HttpResponse<String> response = api.send("DELETE", "/api/jobs/own-schedule/schedule", null);

            assertThat(response.statusCode()).isEqualTo(409);
            assertThat(detail(response)).isEqualTo("job 'own-schedule' is a runtime job; its schedule is part of its "
                    + "definition: PUT /api/jobs/own-schedule to change it");
            assertThat(job("own-schedule").get("schedule").asString()).isEqualTo("0 6 1 1 *");
        }

        @Test
        void unknownJobIsNotFound() throws Exception {
            HttpResponse<String> response = api.send("DELETE", "/api/jobs/ghost/schedule", null);

            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(detail(response)).isEqualTo("no job named 'ghost'");
        }

        private void reschedule(String path, String body) throws Exception {
            HttpResponse<String> response = api.send("PUT", path, body);
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        }
    }

    private JsonNode job(String name) throws Exception {
        for (JsonNode job : json(api.get("/api/jobs")).get("items")) {
            if (job.get("name").asString().equals(name)) {
                return job;
            }
        }
        throw new AssertionError("no job " + name);
    }
}
