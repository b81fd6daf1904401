package dev.onebeat.scheduler.web.api;

import static dev.onebeat.scheduler.ApiClient.detail;
import static dev.onebeat.scheduler.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.GetResponse;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.WebIT;
import dev.onebeat.scheduler.engine.fire.FirePath;
import dev.onebeat.scheduler.engine.fire.FireRequest;
import dev.onebeat.scheduler.engine.fire.FireTrigger;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.relay.TestRoutes;
import dev.onebeat.transport.celery.CeleryTransportParts;
import dev.onebeat.transport.testing.RabbitTestBroker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /api/jobs/{name}/backfill}: a range in which some instants fired and some did not is listed
 * with each instant's outcome (a dry run), then backfilled: only the missing instants fire, with their own
 * keys, the progress reaches the total; a backfill is cancelled mid-way; bad ranges are refused naming the
 * field. The jobs fire hourly and every minute, so nothing of the schedules' own fires meets the ranges. A
 * backfill and a re-run of a job whose tasks expire a minute after their instant, over instants minutes in the
 * past, reach Celery (RabbitMQ) unexpired: the expiry counts from the operator's fire.
 */
@WebIT(properties = {SchedulerTestDatabase.NO_DEMO,
        "onebeat.backfill.spacing=250ms", "onebeat.backfill.poll=300ms",
        "onebeat.jobs[0].name=hourly-report", "onebeat.jobs[0].every=1h", "onebeat.jobs[0].task=reports.hourly",
        "onebeat.jobs[1].name=minutely-sync", "onebeat.jobs[1].every=1m", "onebeat.jobs[1].task=sync.run",
        "onebeat.jobs[2].name=expiring-sync", "onebeat.jobs[2].every=1m", "onebeat.jobs[2].task=sync.expiring",
        "onebeat.jobs[2].queue=${test.expiring-queue}", "onebeat.jobs[2].options.expires=1m"})
class BackfillIT {

    private static final RabbitTestBroker BROKER = new RabbitTestBroker();
    /** The Celery queue of a job whose tasks expire a minute after their instant (expiring-sync). */
    private static final String EXPIRING = BROKER.newQueueName("backfill-expiring");
    /** The instant whose fire of {@code slow-report} holds on until the test lets it go. */
    static final AtomicReference<Instant> SLOW_INSTANT = new AtomicReference<>();
    static final CountDownLatch SLOW_STARTED = new CountDownLatch(1);
    static final CountDownLatch SLOW_RELEASED = new CountDownLatch(1);

    @TestConfiguration
    static class SlowJob {

        /** Hourly; its fire may hold the job's lock for up to 3 minutes. */
        @Bean
        PeriodicJob slowReport() {
            return Jobs.periodic("slow-report", Schedule.every(Duration.ofHours(1))).lockAtMostFor(Duration.ofMinutes(3))
                    .execute(ctx -> {
                        if (ctx.scheduledAt().equals(SLOW_INSTANT.get())) {
                            SLOW_STARTED.countDown();
                            SLOW_RELEASED.await(60, TimeUnit.SECONDS);
                        }
                    });
        }
    }

    @Autowired
    ApiClient server;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    FirePath firePath;
    @Autowired
    JobRegistry registry;
    @Autowired
    MeterRegistry meters;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("test.expiring-queue", () -> EXPIRING);
        TestRoutes.route(registry, "rabbit", "rabbitmq", RabbitTestBroker.URL, "celery", EXPIRING);
        registry.add("onebeat.relay.poll-interval", () -> "200ms");
    }

    @AfterAll
    static void deleteQueues() throws Exception {
        BROKER.close();
    }

    @Test
    void onlyTheInstantsWithoutACommittedFireFireOnceEachAndTheProgressReachesTheTotal() throws Exception {
        Instant to = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(1));
        Instant from = to.minus(Duration.ofHours(6));
        List<Instant> instants = IntStream.range(0, 6).mapToObj(i -> from.plus(Duration.ofHours(i))).toList();
        for (Instant fired : List.of(instants.get(1), instants.get(4))) {
            firePath.fire(registry.find("hourly-report").orElseThrow().job(),
                    FireRequest.of(fired, FireTrigger.SCHEDULED, "test"));
        }
        ApiClient operator = server.as("operator");

        HttpResponse<String> dryRun = operator.send("POST", "/api/jobs/hourly-report/backfill",
                "{\"from\":\"" + from + "\",\"to\":\"" + to + "\",\"dryRun\":true}");

        assertThat(dryRun.statusCode()).as(dryRun.body()).isEqualTo(200);
        JsonNode plan = json(dryRun);
        assertThat(plan.get("toFire").asInt()).isEqualTo(4);
        assertThat(plan.get("instants").size()).isEqualTo(6);
        assertThat(plan.get("instants").get(1).get("outcome").asString()).isEqualTo("committed (scheduled)");
        assertThat(plan.get("instants").get(0).get("outcome").asString()).isEqualTo("none");
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_backfill").query(Long.class).single()).as("a dry run starts nothing")
                .isZero();

        HttpResponse<String> started = operator.send("POST", "/api/jobs/hourly-report/backfill",
                "{\"from\":\"" + from + "\",\"to\":\"" + to + "\"}");

        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        long id = json(started).get("backfill").get("id").asLong();
        await().atMost(Duration.ofSeconds(30)).until(() -> json(operator.get("/api/jobs/hourly-report/backfills/" + id))
                .get("state").asString().equals("done"));
        JsonNode done = json(operator.get("/api/jobs/hourly-report/backfills/" + id));
        assertThat(done.get("done").asInt()).isEqualTo(6);
        assertThat(done.get("total").asInt()).isEqualTo(6);
        assertThat(done.get("fired").asInt()).isEqualTo(4);
        assertThat(jdbc.sql("""
                        SELECT trigger_kind FROM onebeat_fire WHERE job_name = 'hourly-report' AND scheduled_at >= ?
                        AND scheduled_at < ? ORDER BY scheduled_at""")
                .params(Timestamp.from(from), Timestamp.from(to)).query(String.class).list())
                .containsExactly("backfill", "scheduled", "backfill", "backfill", "scheduled", "backfill");
        assertThat(jdbc.sql("SELECT idempotency_key FROM onebeat_task WHERE job_name = 'hourly-report' ORDER BY scheduled_at")
                .query(String.class).list()).as("each instant's own key, once")
                .containsExactlyElementsOf(instants.stream()
                        .map(at -> IdempotencyKey.of("hourly-report", at, "reports.hourly", null).value()).toList());
        assertThat(json(operator.get("/api/audit?target=hourly-report")).get(0).get("action").asString())
                .isEqualTo("job.backfill");
    }

    @Test
    void theBackfillsLockOutlastsAFireThatHoldsTheJobsLockLongerThanAMinute() throws Exception {
        Instant to = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(2));
        Instant from = to.minus(Duration.ofHours(1));
        SLOW_INSTANT.set(from);
        ApiClient operator = server.as("operator");
        long id = json(operator.send("POST", "/api/jobs/slow-report/backfill",
                "{\"from\":\"" + from + "\",\"to\":\"" + to + "\"}")).get("backfill").get("id").asLong();
        try {
            assertThat(SLOW_STARTED.await(30, TimeUnit.SECONDS)).as("the backfill's fire began").isTrue();

            // the fire may go on for the job's lockAtMostFor (3 minutes): no other replica may take the backfill meanwhile
            assertThat(jdbc.sql("""
                            SELECT extract(epoch FROM lock_until - timezone('utc', now())) FROM shedlock WHERE name = ?""")
                    .param("onebeat-backfill:" + id).query(Double.class).single())
                    .as("seconds the backfill's lock has left").isGreaterThan(180.0);
        } finally {
            SLOW_RELEASED.countDown();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> json(operator.get("/api/jobs/slow-report/backfills/" + id))
                .get("state").asString().equals("done"));
    }

    @Test
    void aCancelledBackfillFiresNoMoreInstants() throws Exception {
        Instant to = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));
        Instant from = to.minus(Duration.ofMinutes(40));
        ApiClient operator = server.as("operator");
        long id = json(operator.send("POST", "/api/jobs/minutely-sync/backfill",
                "{\"from\":\"" + from + "\",\"to\":\"" + to + "\"}")).get("backfill").get("id").asLong();
        await().atMost(Duration.ofSeconds(30)).until(() -> fired("minutely-sync", from, to) >= 3);

        HttpResponse<String> cancelled = operator.send("POST", "/api/jobs/minutely-sync/backfills/" + id + "/cancel", null);

        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        assertThat(json(cancelled).get("state").asString()).isEqualTo("cancelled");
        long firedWhenCancelled = fired("minutely-sync", from, to);
        Thread.sleep(1500); // four spacings: a backfill still running would have fired more meanwhile
        JsonNode after = json(operator.get("/api/jobs/minutely-sync/backfills/" + id));
        assertThat(fired("minutely-sync", from, to)).isLessThanOrEqualTo(firedWhenCancelled + 1).isLessThan(40);
        assertThat(after.get("done").asInt()).isLessThan(40);
        assertThat(operator.send("POST", "/api/jobs/minutely-sync/backfills/" + id + "/cancel", null).statusCode())
                .as("cancelled already").isEqualTo(409);
    }

    @Test
    void badRangesAreRefusedNamingTheField() throws Exception {
        ApiClient operator = server.as("operator");

        HttpResponse<String> future = operator.send("POST", "/api/jobs/hourly-report/backfill",
                "{\"from\":\"2026-01-01T00:00:00Z\",\"to\":\"2099-01-01T00:00:00Z\"}");
        HttpResponse<String> reversed = operator.send("POST", "/api/jobs/hourly-report/backfill",
                "{\"from\":\"2026-01-02T00:00:00Z\",\"to\":\"2026-01-01T00:00:00Z\"}");
        HttpResponse<String> tooLong = operator.send("POST", "/api/jobs/minutely-sync/backfill",
                "{\"from\":\"2020-01-01T00:00:00Z\",\"to\":\"2026-01-01T00:00:00Z\",\"dryRun\":true}");
        HttpResponse<String> unknown = operator.send("POST", "/api/jobs/nope/backfill",
                "{\"from\":\"2026-01-01T00:00:00Z\",\"to\":\"2026-01-02T00:00:00Z\"}");

        assertThat(future.statusCode()).isEqualTo(400);
        assertThat(detail(future)).isEqualTo("to: 2099-01-01T00:00:00Z is in the future; the schedule fires those instants itself");
        assertThat(reversed.statusCode()).isEqualTo(400);
        assertThat(detail(reversed)).isEqualTo("to: 2026-01-01T00:00:00Z is not after from: 2026-01-02T00:00:00Z");
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(detail(tooLong)).startsWith("to: the range from 2020-01-01T00:00:00Z to 2026-01-01T00:00:00Z holds more than 10000");
        assertThat(unknown.statusCode()).isEqualTo(404);
    }

    @Test
    void backfilledTasksOfAJobWithAnExpiryArePublishedUnexpiredTheirExpiryCountedFromTheBackfill() throws Exception {
        // instants minutes in the past, before this context started: expires: 1m counted from them has passed long ago
        Instant to = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(2));
        Instant from = to.minus(Duration.ofMinutes(6));
        List<String> keys = IntStream.range(0, 6).mapToObj(i -> IdempotencyKey.of("expiring-sync",
                from.plus(Duration.ofMinutes(i)), "sync.expiring", null).value()).toList();
        ApiClient operator = server.as("operator");
        Instant started = Instant.now();

        HttpResponse<String> backfill = operator.send("POST", "/api/jobs/expiring-sync/backfill",
                "{\"from\":\"" + from + "\",\"to\":\"" + to + "\"}");

        assertThat(backfill.statusCode()).as(backfill.body()).isEqualTo(202);
        assertPublishedUnexpired(keys, started);
    }

    @Test
    void anInstantReRunByAnOperatorIsPublishedUnexpiredItsExpiryCountedFromTheReRun() throws Exception {
        Instant instant = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(12));
        ApiClient operator = server.as("operator");
        Instant started = Instant.now();

        HttpResponse<String> rerun = operator.send("POST", "/api/jobs/expiring-sync/instants/" + instant + "/run", null);

        assertThat(rerun.statusCode()).as(rerun.body()).isEqualTo(202);
        assertPublishedUnexpired(List.of(IdempotencyKey.of("expiring-sync", instant, "sync.expiring", null).value()),
                started);
    }

    /**
     * The tasks reach the Celery queue with an {@code expires} a minute after the operator's fire, not after their
     * instant, and the relay counts none of them expired.
     */
    private void assertPublishedUnexpired(List<String> keys, Instant askedAt) throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.sql("""
                        SELECT count(*) FROM onebeat_task WHERE idempotency_key IN (:keys) AND status = 'published'
                        """).param("keys", keys).query(Long.class).single() == keys.size());
        Map<String, Instant> expires = new HashMap<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            for (GetResponse message : BROKER.drain(EXPIRING)) {
                Map<String, Object> headers = message.getProps().getHeaders();
                expires.put(String.valueOf(headers.get(CeleryTransportParts.IDEMPOTENCY_KEY_HEADER)),
                        OffsetDateTime.parse(String.valueOf(headers.get("expires"))).toInstant());
            }
            return expires.keySet().containsAll(keys);
        });
        Counter expired = meters.find("onebeat.relay.expired").tag("queue", EXPIRING).counter();
        assertThat(expired == null ? 0 : expired.count()).as("onebeat_relay_expired_total").isZero();
        assertThat(keys).allSatisfy(key -> assertThat(expires.get(key)).as("expires of " + key)
                .isAfterOrEqualTo(askedAt.plus(Duration.ofMinutes(1))));
    }

    private long fired(String job, Instant from, Instant to) {
        return jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ? AND scheduled_at >= ? AND scheduled_at < ?")
                .params(job, Timestamp.from(from), Timestamp.from(to)).query(Long.class).single();
    }
}
