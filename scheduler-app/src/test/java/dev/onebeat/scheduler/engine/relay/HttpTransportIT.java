package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.transport.testing.WebhookServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A running replica relays declarative jobs' tasks to a real local webhook server through the
 * {@code http} transport: each job posts to its own path, which answers 200, 503 once, 422, or too
 * slowly once.
 */
@ExtendWith({PostgresExtension.class, OutputCaptureExtension.class})
@DirtiesContext
@SpringBootTest(properties = SchedulerTestDatabase.NO_DEMO)
class HttpTransportIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String UNPROCESSABLE = "{\"error\":\"no such account\"}";
    private static final WebhookServer SERVER = start();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        SERVER.on("/flaky", (request, attempt) -> WebhookServer.Answer.of(attempt == 1 ? 503 : 200))
                .on("/reject", (request, attempt) -> new WebhookServer.Answer(422, UNPROCESSABLE, Duration.ZERO))
                .on("/slow", (request, attempt) ->
                        new WebhookServer.Answer(200, "", attempt == 1 ? Duration.ofSeconds(2) : Duration.ZERO));
        SchedulerTestDatabase.register(registry, HttpTransportIT.class);
        registry.add("onebeat.relay.brokers.hooks.type", () -> "http");
        registry.add("onebeat.relay.brokers.hooks.url", () -> SERVER.baseUrl() + "/");
        registry.add("onebeat.relay.brokers.hooks.properties[header.Authorization]", () -> "Bearer test-token");
        // the whole list here: a list bound from two property sources takes only the higher one's entries
        List<String> paths = List.of("ok", "flaky", "reject", "slow");
        for (int i = 0; i < paths.size(); i++) {
            String path = paths.get(i);
            String queue = "hook-" + path;
            String job = "onebeat.jobs[" + i + "].";
            Map.of("name", queue, "every", "1s", "task", "billing." + path, "queue", queue, "kwargs.region", "eu")
                    .forEach((field, value) -> registry.add(job + field, () -> value));
            registry.add("onebeat.relay.queues." + queue + ".transport", () -> "http");
            registry.add("onebeat.relay.queues." + queue + ".broker", () -> "hooks");
            registry.add("onebeat.relay.queues." + queue + ".options.path", () -> path);
        }
        registry.add("onebeat.relay.queues.hook-slow.options.timeout", () -> "300ms");
    }

    @AfterAll
    static void stopServer() {
        SERVER.close();
    }

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void eachTaskArrivesOnceWithItsIdempotencyKeyAndBodyAndIsMarkedPublished() {
        await().atMost(Duration.ofSeconds(30)).until(() -> published("hook-ok").size() >= 3);

        for (String key : published("hook-ok")) {
            assertThat(SERVER.count("/ok", key)).isEqualTo(1);
        }
        WebhookServer.Request request = SERVER.requests("/ok").get(0);
        JsonNode body = JSON.readTree(request.body());
        assertThat(request.header("Content-Type")).isEqualTo("application/json");
        assertThat(request.header("Authorization")).isEqualTo("Bearer test-token");
        assertThat(request.header("Onebeat-Job")).isEqualTo("hook-ok");
        assertThat(body.get("idempotency_key").asString()).isEqualTo(request.key()).startsWith("hook-ok/");
        assertThat(body.get("task").asString()).isEqualTo("billing.ok");
        assertThat(body.get("kwargs").get("region").asString()).isEqualTo("eu");
        assertThat(body.get("scheduled_at").asString()).isEqualTo(request.header("Onebeat-Scheduled-At"));
    }

    @Test
    void serviceUnavailableIsRetriedUnderTheSameIdempotencyKeyUntilPublished() {
        await().atMost(Duration.ofSeconds(30)).until(() -> !published("hook-flaky").isEmpty());

        String key = published("hook-flaky").get(0);
        assertThat(SERVER.count("/flaky", key)).isEqualTo(2);
        assertThat(attempts(key)).isEqualTo(2);
    }

    @Test
    void unprocessableEntityFailsTheRowWithTheStatusAndIsNeverRetried(CapturedOutput output) {
        await().atMost(Duration.ofSeconds(30)).until(() -> !failed("hook-reject").isEmpty());

        String key = failed("hook-reject").get(0);
        // what the endpoint answered is its own: logged for operators, not stored where viewers read
        assertThat(jdbc.queryForObject("SELECT last_error FROM onebeat_task WHERE idempotency_key = ?", String.class, key))
                .isEqualTo("HTTP 422");
        await().atMost(Duration.ofSeconds(10)).until(() -> output.getAll().lines().anyMatch(line ->
                line.contains("webhook answered 422 key=hook-reject/") && line.endsWith("body=" + UNPROCESSABLE)));
        assertThat(attempts(key)).isEqualTo(1);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                .until(() -> SERVER.count("/reject", key) == 1 && attempts(key) == 1);
    }

    @Test
    void responseSlowerThanTheRouteTimeoutIsRetriedUntilPublished() {
        await().atMost(Duration.ofSeconds(30)).until(() -> !published("hook-slow").isEmpty());

        String key = published("hook-slow").get(0);
        assertThat(SERVER.count("/slow", key)).isEqualTo(2);
        assertThat(attempts(key)).isEqualTo(2);
    }

    private List<String> published(String job) {
        return keys(job, "published");
    }

    private List<String> failed(String job) {
        return keys(job, "failed");
    }

    private List<String> keys(String job, String status) {
        return jdbc.queryForList("SELECT idempotency_key FROM onebeat_task WHERE job_name = ? AND status = ? ORDER BY id",
                String.class, job, status);
    }

    private int attempts(String key) {
        return jdbc.queryForObject("SELECT attempts FROM onebeat_task WHERE idempotency_key = ?", Integer.class, key);
    }

    private static WebhookServer start() {
        try {
            return new WebhookServer();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot start the local webhook server", e);
        }
    }
}
