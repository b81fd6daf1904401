package dev.onebeat.scheduler.web.api;

import static dev.onebeat.scheduler.ApiClient.detail;
import static dev.onebeat.scheduler.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.WebIT;
import java.net.http.HttpRequest;
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
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * The operator endpoints of a running replica: pause, resume, trigger now and the audit log (the
 * schedule preview is {@link PreviewIT}'s). Every job fires once a year, so every fire seen here is a
 * manual one.
 */
@WebIT(properties = {
        SchedulerTestDatabase.NO_DEMO,
        "onebeat.jobs[0].name=yearly-report", "onebeat.jobs[0].cron=0 6 1 1 *", "onebeat.jobs[0].task=reports.yearly",
        "onebeat.jobs[1].name=yearly-cleanup", "onebeat.jobs[1].cron=0 7 1 1 *", "onebeat.jobs[1].task=ops.cleanup",
        "onebeat.jobs[2].name=paused-twice", "onebeat.jobs[2].cron=0 8 1 1 *", "onebeat.jobs[2].task=ops.noop",
        "onebeat.jobs[3].name=paused-resumed", "onebeat.jobs[3].cron=0 9 1 1 *", "onebeat.jobs[3].task=ops.noop",
        "onebeat.jobs[4].name=yearly-audit", "onebeat.jobs[4].cron=0 10 1 1 *", "onebeat.jobs[4].task=ops.noop",
        "onebeat.jobs[5].name=paused-triggered", "onebeat.jobs[5].cron=0 11 1 1 *", "onebeat.jobs[5].task=ops.noop"})
class AdminApiIT {

    @Autowired
    ApiClient server;

    private ApiClient api;

    @Autowired
    JdbcClient jdbc;

    @BeforeEach
    void client() {
        api = server.as("admin");
    }

    @Nested
    class PauseAndResume {

        @Test
        void pauseThenResumeAreAuditedWithPausedBeforeAndAfter() throws Exception {
            HttpResponse<String> paused = post("/api/jobs/paused-resumed/pause", null);
            assertThat(paused.statusCode()).isEqualTo(200);
            assertThat(json(paused).get("paused").asBoolean()).isTrue();
            assertThat(job("paused-resumed").get("paused").asBoolean()).isTrue();

            HttpResponse<String> resumed = post("/api/jobs/paused-resumed/resume", null);
            assertThat(json(resumed).get("paused").asBoolean()).isFalse();
            assertThat(job("paused-resumed").get("nextFire").isNull()).isFalse();

            JsonNode audit = json(api.get("/api/audit?target=paused-resumed"));
            assertThat(audit).hasSize(2);
            assertThat(audit.get(0).get("action").asString()).isEqualTo("job.resume");
            assertThat(audit.get(1).get("action").asString()).isEqualTo("job.pause");
            assertThat(audit.get(1).get("before").toString()).isEqualTo("{\"paused\":false}");
            assertThat(audit.get(1).get("after").toString()).isEqualTo("{\"paused\":true}");
            assertThat(audit.get(1).get("actor").asString()).isEqualTo("admin");
            assertThat(audit.get(1).get("targetType").asString()).isEqualTo("job");
        }

        @Test
        void pausingAPausedJobChangesNothingAndWritesOneAuditRow() throws Exception {
            post("/api/jobs/paused-twice/pause", null);
            HttpResponse<String> again = post("/api/jobs/paused-twice/pause", null);

            assertThat(again.statusCode()).isEqualTo(200);
            assertThat(json(again).get("paused").asBoolean()).isTrue();
            assertThat(json(api.get("/api/audit?target=paused-twice"))).hasSize(1);
        }

        @Test
        void pauseOfAnUnknownJobIsNotFoundProblem() throws Exception {
            HttpResponse<String> response = post("/api/jobs/nope/pause", null);

            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(detail(response)).isEqualTo("no job named 'nope'");
        }
    }

    @Nested
    class TriggerNow {

        @Test
        void sameRequestIdSentTwiceAtOnceAndOnceMoreFiresOnce() throws Exception {
            CyclicBarrier start = new CyclicBarrier(2);
            List<CompletableFuture<HttpResponse<String>>> concurrent = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                concurrent.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        start.await();
                        return post("/api/jobs/yearly-report/trigger", "double-click-1");
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            List<JsonNode> receipts = new ArrayList<>();
            for (CompletableFuture<HttpResponse<String>> response : concurrent) {
                assertThat(response.get().statusCode()).isEqualTo(202);
                receipts.add(json(response.get()));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> manualFires("yearly-report") == 1);
            HttpResponse<String> retry = post("/api/jobs/yearly-report/trigger", "double-click-1");

            assertThat(retry.statusCode()).isEqualTo(202);
            receipts.add(json(retry));
            assertThat(receipts).allSatisfy(receipt -> {
                assertThat(receipt.get("job").asString()).isEqualTo("yearly-report");
                assertThat(receipt.get("requestId").asString()).isEqualTo("double-click-1");
                assertThat(receipt.get("scheduledAt").asString())
                        .isEqualTo(receipts.get(0).get("scheduledAt").asString());
            });
            assertThat(json(api.get("/api/jobs/yearly-report/fires")).get(0).get("scheduledAt").asString())
                    .isEqualTo(receipts.get(0).get("scheduledAt").asString());
            // a second fire would have had its chance while the retry was answered
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                    .until(() -> manualFires("yearly-report") == 1);
            assertThat(json(api.get("/api/audit?target=yearly-report")).findValuesAsString("requestId"))
                    .containsExactly("double-click-1");
        }

        @Test
        void pausedJobCanStillBeTriggeredAndStaysPaused() throws Exception {
            post("/api/jobs/paused-triggered/pause", null);

            assertThat(post("/api/jobs/paused-triggered/trigger", "while-paused").statusCode()).isEqualTo(202);

            await().atMost(Duration.ofSeconds(30)).until(() -> manualFires("paused-triggered") == 1);
            assertThat(job("paused-triggered").get("paused").asBoolean()).isTrue();
        }

        @Test
        void requestIdMayComeInTheBody() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs/yearly-cleanup/trigger",
                    "{\"requestId\":\"body-id-1\"}");

            assertThat(response.statusCode()).isEqualTo(202);
            assertThat(json(response).get("requestId").asString()).isEqualTo("body-id-1");
            await().atMost(Duration.ofSeconds(30)).until(() -> manualFires("yearly-cleanup") >= 1);
        }

        @Test
        void requestIdReusedForAnotherJobIsConflict() throws Exception {
            post("/api/jobs/yearly-audit/trigger", "reused-id");

            HttpResponse<String> response = post("/api/jobs/yearly-report/trigger", "reused-id");

            assertThat(response.statusCode()).isEqualTo(409);
            assertThat(detail(response))
                    .isEqualTo("request id 'reused-id' was already used to trigger job 'yearly-audit'; "
                            + "use a new id for job 'yearly-report'");
        }

        @Test
        void missingRequestIdIsBadRequestNamingTheHeader() throws Exception {
            HttpResponse<String> response = post("/api/jobs/yearly-report/trigger", null);

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).startsWith("Idempotency-Key: is missing");
        }

        @Test
        void requestIdLongerThanAHundredCharactersIsBadRequest() throws Exception {
            HttpResponse<String> response = post("/api/jobs/yearly-report/trigger", "x".repeat(101));

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response))
                    .isEqualTo("Idempotency-Key: must be at most 100 characters, was 101");
        }

        @Test
        void triggerOfAnUnknownJobIsNotFoundAndStoresNoRequest() throws Exception {
            HttpResponse<String> response = post("/api/jobs/nope/trigger", "for-nope");

            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(jdbc.sql("SELECT count(*) FROM onebeat_trigger_request WHERE request_id = 'for-nope'")
                    .query(Long.class).single()).isZero();
        }
    }

    private long manualFires(String job) {
        return jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ? AND trigger_kind = 'manual'")
                .param(job).query(Long.class).single();
    }

    private JsonNode job(String name) throws Exception {
        for (JsonNode job : json(api.get("/api/jobs")).get("items")) {
            if (job.get("name").asString().equals(name)) {
                return job;
            }
        }
        throw new AssertionError("no job " + name);
    }

    private HttpResponse<String> post(String path, String idempotencyKey) throws Exception {
        HttpRequest.Builder request = api.request(path).POST(HttpRequest.BodyPublishers.noBody());
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return api.send(request);
    }
}
