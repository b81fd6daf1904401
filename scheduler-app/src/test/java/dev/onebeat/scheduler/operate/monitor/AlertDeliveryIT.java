package dev.onebeat.scheduler.operate.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.transport.testing.WebhookServer.Answer;
import dev.onebeat.transport.testing.WebhookServer.Request;
import dev.onebeat.transport.testing.WebhookServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Alerts from the detector's findings, delivered by the relay. One check of the missed-fire detector finds a failed, a missed and a recovered instant of a job that names a
 * Healthchecks ping URL and a Sentry monitor; the relay delivers the alerts and check-ins to a real local HTTP server,
 * which answers each webhook alert 503 once before 200.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.monitor.enabled=false", "onebeat.relay.retry-initial=100ms", "onebeat.relay.poll-interval=100ms",
        "onebeat.alerts.console-url=https://onebeat.example.com/",
        "onebeat.alerts.webhook.headers.Authorization=Bearer s3cret", "onebeat.alerts.sentry.environment=prod"})
class AlertDeliveryIT {

    private static final Instant BASE = Instant.parse("2027-07-01T00:00:00Z");
    private static final WebhookServer SERVER = server();
    private static final String SENTRY_PATH = "/api/42/cron/pinged-monitor/pubkey/";

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("onebeat.alerts.webhook.url", () -> SERVER.baseUrl() + "/hooks");
        registry.add("onebeat.alerts.sentry.dsn", () -> SERVER.baseUrl().replace("//", "//pubkey@") + "/42");
        // a list binds from one property source whole: every field of the jobs is set here, beside the server's port
        Map.of("onebeat.jobs[0].name", "pinged", "onebeat.jobs[0].every", "60s", "onebeat.jobs[0].task", "t",
                "onebeat.jobs[0].alerts.grace", "10s", "onebeat.jobs[0].alerts.sentry-monitor", "pinged-monitor",
                "onebeat.jobs[1].name", "unalerted", "onebeat.jobs[1].every", "60s", "onebeat.jobs[1].task", "t",
                "onebeat.jobs[1].alerts.enabled", "false").forEach((name, value) -> registry.add(name, () -> value));
        registry.add("onebeat.jobs[0].alerts.healthchecks-url", () -> SERVER.baseUrl() + "/hc/5f2e");
    }

    @Autowired
    MonitorCheck check;
    @Autowired
    JdbcClient jdbc;

    private final JsonMapper json = JsonMapper.builder().build();

    @BeforeAll
    void oneCheckFindsAFailureAMissAndARecovery() {
        check.run(BASE.plusSeconds(1), "n1");
        jdbc.sql("""
                        INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, attempt, outcome, error_class,
                                                          error_message, node, trigger_kind, attempted_at)
                        SELECT j, ?, 3, 'failed', 'java.lang.IllegalStateException', 'boom', 'n1', 'retry', ?
                        FROM unnest(ARRAY['pinged', 'unalerted']) AS j""")
                .params(ts(BASE.plusSeconds(60)), ts(BASE.plusSeconds(61))).update();
        jdbc.sql("""
                        INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome)
                        SELECT j, ?, ?, 'n1', 'scheduled', 'committed' FROM unnest(ARRAY['pinged', 'unalerted']) AS j""")
                .params(ts(BASE.plusSeconds(180)), ts(BASE.plusSeconds(180))).update();
        check.run(BASE.plusSeconds(200), "n1");
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.sql("""
                        SELECT count(*) FROM onebeat_task WHERE queue = 'onebeat.alerts' AND status <> 'published'""")
                .query(Long.class).single() == 0L);
    }

    @AfterAll
    void stopServer() {
        SERVER.close();
    }

    @Test
    void eachAlertedEventIsPostedOnceAcceptedRetriedAfterA503UnderTheSameKey() {
        List<Request> posts = SERVER.requests("/hooks");
        Map<String, List<Request>> byKey = posts.stream().collect(Collectors.groupingBy(Request::key));

        assertThat(byKey).hasSize(3).allSatisfy((key, requests) -> assertThat(requests).hasSize(2));
        assertThat(posts).allSatisfy(post -> {
            assertThat(post.method()).isEqualTo("POST");
            assertThat(post.header("Authorization")).isEqualTo("Bearer s3cret");
            assertThat(post.header("Content-Type")).isEqualTo("application/json");
            assertThat(post.header("Onebeat-Job")).isEqualTo("pinged");
        });
        List<JsonNode> bodies = byKey.values().stream().map(requests -> json.readTree(requests.get(1).body()))
                .sorted(java.util.Comparator.comparing(body -> body.path("instant").asString())).toList();
        assertThat(bodies).extracting(body -> body.path("kind").asString()).containsExactly("failed", "missed", "recovered");
        JsonNode failed = bodies.get(0);
        assertThat(failed.path("job").asString()).isEqualTo("pinged");
        assertThat(failed.path("instant").asString()).isEqualTo(BASE.plusSeconds(60).toString());
        assertThat(failed.path("reason").asString()).isEqualTo("attempt 3 failed: java.lang.IllegalStateException: boom");
        assertThat(failed.path("link").asString()).isEqualTo("https://onebeat.example.com/ui/jobs/pinged");
        assertThat(failed.path("idempotencyKey").asString()).isEqualTo(byKey.entrySet().stream()
                .filter(entry -> entry.getValue().get(1).body().contains("\"failed\"")).findFirst().orElseThrow().getKey());
        assertThat(bodies.get(1).path("reason").asString()).startsWith("no fire began by " + BASE.plusSeconds(130));
    }

    @Test
    void healthchecksIsPingedForEachInstantWithFailForTheFailedAndTheMissedOne() {
        List<Request> pings = SERVER.requests().stream().filter(request -> request.path().startsWith("/hc/")).toList();

        assertThat(pings).extracting(Request::path)
                .containsExactlyInAnyOrder("/hc/5f2e/fail", "/hc/5f2e/fail", "/hc/5f2e");
        assertThat(pings).allSatisfy(ping -> {
            assertThat(ping.method()).isEqualTo("POST");
            assertThat(ping.header("Authorization")).as("the webhook's headers stay with the webhook").isNull();
        });
        assertThat(SERVER.requests("/hc/5f2e").get(0).body()).isEqualTo("pinged " + BASE.plusSeconds(180) + ": success");
        assertThat(SERVER.requests("/hc/5f2e/fail")).extracting(Request::body).anySatisfy(body ->
                assertThat(body).startsWith("pinged " + BASE.plusSeconds(120) + ": missed (no fire began by"));
    }

    @Test
    void sentryGetsACheckInPerInstantWithItsStatus() {
        List<Request> checkIns = SERVER.requests(SENTRY_PATH);

        assertThat(checkIns).extracting(Request::method).containsOnly("GET");
        assertThat(checkIns).extracting(Request::query).containsExactlyInAnyOrder(
                "status=error&environment=prod", "status=missed&environment=prod", "status=ok&environment=prod");
    }

    @Test
    void aJobWithAlertsOffSendsNoWebhookAlert() {
        assertThat(SERVER.requests("/hooks")).noneMatch(post -> "unalerted".equals(post.header("Onebeat-Job")));
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_job_event WHERE job_name = 'unalerted' AND NOT alerted")
                .query(Long.class).single()).isEqualTo(3L);
    }

    private static WebhookServer server() {
        try {
            return new WebhookServer().on("/hooks", (request, attempt) -> Answer.of(attempt == 1 ? 503 : 200));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Timestamp ts(Instant instant) {
        return Timestamp.from(instant);
    }
}
