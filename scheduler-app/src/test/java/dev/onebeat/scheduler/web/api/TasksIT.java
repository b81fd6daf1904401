package dev.onebeat.scheduler.web.api;

import static dev.onebeat.scheduler.ApiClient.detail;
import static dev.onebeat.scheduler.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.WebIT;
import dev.onebeat.scheduler.operate.admin.TaskAdmin;
import dev.onebeat.scheduler.operate.monitor.MonitorCheck;
import dev.onebeat.transport.testing.WebhookServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Outbox tasks listed by status, queue and job; failed and dead ones retried, pending ones discarded; what a
 * remote endpoint answered never shown. A local webhook server answers a relayed queue and the Healthchecks ping of
 * a runtime job with a 404 and a secret in its body; the ping's loopback address is allowed by
 * {@code onebeat.security.outbound.allowed-networks}.
 */
@WebIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
                "onebeat.monitor.enabled=false", "onebeat.relay.poll-interval=100ms",
                "onebeat.security.outbound.allowed-networks=127.0.0.0/8"})
class TasksIT {

    private static final String SECRET = "INTERNAL-SECRET: db_password=hunter2";
    private static final WebhookServer SERVER = server();

    @Autowired
    ApiClient server;

    private ApiClient api;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    DataSource dataSource;

    @Autowired
    MonitorCheck check;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("onebeat.relay.brokers.hooks.type", () -> "http");
        registry.add("onebeat.relay.brokers.hooks.url", () -> SERVER.baseUrl());
        registry.add("onebeat.relay.queues.hook-secret.transport", () -> "http");
        registry.add("onebeat.relay.queues.hook-secret.broker", () -> "hooks");
        registry.add("onebeat.relay.queues.hook-secret.options.path", () -> "secret");
    }

    @AfterAll
    static void stopServer() {
        SERVER.close();
    }

    @BeforeEach
    void client() {
        api = server.as("admin");
    }

    @Test
    void tasksAreFilteredByStatusQueueAndJobAndPaged() throws Exception {
        long older = task("listed", "mail", "failed", 3);
        long newer = task("listed", "mail", "failed", 1);
        task("listed", "sms", "failed", 1);
        task("other-job", "mail", "failed", 1);

        JsonNode page = json(api.get("/api/tasks?status=failed&queue=mail&job=listed&limit=1"));
        JsonNode next = json(api.get("/api/tasks?status=failed&queue=mail&job=listed&limit=1&offset=1"));

        assertThat(page.get("total").asLong()).isEqualTo(2);
        assertThat(page.get("totalCapped").asBoolean()).isFalse();
        assertThat(page.get("hasMore").asBoolean()).isTrue();
        assertThat(next.get("hasMore").asBoolean()).isFalse();
        assertThat(page.get("items").get(0).get("id").asLong()).isEqualTo(newer);
        assertThat(next.get("items").get(0).get("id").asLong()).isEqualTo(older);
        assertThat(next.get("items").get(0).get("attempts").asInt()).isEqualTo(3);
    }

    @Test
    void countOfAPageStopsAtTheCapAndSaysItDid() throws Exception {
        jdbc.sql("""
                        INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, payload, status)
                        SELECT 'capped/' || i, 'capped', now(), 't', 'capped', '{}'::jsonb, 'failed'
                        FROM generate_series(1, ?) AS i""")
                .param(TaskAdmin.COUNT_CAP + 5).update();

        JsonNode page = json(api.get("/api/tasks?queue=capped&limit=3"));

        assertThat(page.get("total").asLong()).isEqualTo(TaskAdmin.COUNT_CAP);
        assertThat(page.get("totalCapped").asBoolean()).isTrue();
        assertThat(page.get("hasMore").asBoolean()).isTrue();
        assertThat(page.get("items")).hasSize(3);
        assertThat(page.get("items").get(0).get("idempotencyKey").asString()).isEqualTo("capped/" + (TaskAdmin.COUNT_CAP + 5));
    }

    @Test
    void whatARemoteEndpointAnsweredIsNotShownToAViewer() throws Exception {
        long relayed = jdbc.sql("""
                        INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, payload)
                        VALUES ('secret/1', 'secret', now(), 't', 'hook-secret', '{"args": [], "kwargs": {}}'::jsonb)
                        RETURNING id""").query(Long.class).single();
        HttpResponse<String> created = api.send("POST", "/api/jobs", "{\"name\":\"pinged-secret\",\"every\":\"60s\","
                + "\"task\":\"t\",\"alerts\":{\"healthchecksUrl\":\"" + SERVER.baseUrl() + "/hc/secret\"}}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        Instant now = Instant.now();
        check.run(now, "n1");
        check.run(now.plus(Duration.ofMinutes(10)), "n1");

        await().atMost(Duration.ofSeconds(30)).until(() -> status(relayed).equals("failed") && jdbc.sql("""
                        SELECT count(*) FROM onebeat_task WHERE job_name = 'pinged-secret' AND status = 'failed'""")
                .query(Long.class).single() > 0);
        ApiClient viewer = server.as("viewer");
        HttpResponse<String> listed = viewer.get("/api/tasks?status=failed");
        HttpResponse<String> page = viewer.get("/ui/tasks?status=failed");

        assertThat(SERVER.requests("/secret")).isNotEmpty();
        assertThat(SERVER.requests("/hc/secret/fail")).isNotEmpty();
        assertThat(listed.statusCode()).isEqualTo(200);
        assertThat(listed.body()).doesNotContain("hunter2");
        assertThat(json(listed).get("items").valueStream()
                .filter(item -> item.get("job").asString().matches("secret|pinged-secret")).toList())
                .hasSizeGreaterThanOrEqualTo(2).allSatisfy(item -> assertThat(item.get("lastError").asString())
                        .isEqualTo("HTTP 404"));
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("HTTP 404").doesNotContain("hunter2");
    }

    @Test
    void unknownStatusFilterIsBadRequestNamingTheParameter() throws Exception {
        HttpResponse<String> response = api.get("/api/tasks?status=lost");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response))
                .isEqualTo("status: 'lost' is not one of [claimed, dead, done, failed, pending, published]");
    }

    @Test
    void deadTaskIsRetriedAsPendingWithItsAttemptsResetAndAudited() throws Exception {
        long id = task("retried", "mail", "dead", 7);

        HttpResponse<String> response = api.send("POST", "/api/tasks/" + id + "/retry", null);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(json(response).get("status").asString()).isEqualTo("pending");
        assertThat(json(response).get("attempts").asInt()).isZero();
        JsonNode audit = json(api.get("/api/audit?target=" + id)).get(0);
        assertThat(audit.get("action").asString()).isEqualTo("task.retry");
        assertThat(audit.get("before").get("status").asString()).isEqualTo("dead");
        assertThat(audit.get("before").get("attempts").asInt()).isEqualTo(7);
        assertThat(audit.get("after").get("status").asString()).isEqualTo("pending");
        assertThat(audit.get("after").get("attempts").asInt()).isZero();
    }

    @Test
    void pendingTaskIsDiscardedAsDeadNamingWhoDiscardedIt() throws Exception {
        long id = task("discarded", "mail", "pending", 0);

        HttpResponse<String> response = api.send("POST", "/api/tasks/" + id + "/discard", null);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).get("status").asString()).isEqualTo("dead");
        assertThat(json(response).get("lastError").asString()).isEqualTo("discarded by admin");
    }

    @Test
    void pendingTaskARelayIsPublishingIsAConflictAtOnceAndCanBeDiscardedOnceItIsFree() throws Exception {
        long id = task("publishing", "mail", "pending", 0);
        try (Connection relay = dataSource.getConnection()) {
            // as a relay's claim holds the rows of its batch while it publishes
            relay.setAutoCommit(false);
            try (Statement claim = relay.createStatement()) {
                claim.execute("SELECT id FROM onebeat_task WHERE id = " + id + " FOR UPDATE SKIP LOCKED");
            }
            long start = System.nanoTime();
            HttpResponse<String> response = api.send("POST", "/api/tasks/" + id + "/discard", null);

            assertThat(response.statusCode()).isEqualTo(409);
            assertThat(detail(response)).isEqualTo("task " + id + " is being published by a relay or changed by "
                    + "another operator now; try again in a moment");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("answered without waiting for the lock")
                    .isLessThan(Duration.ofSeconds(2));
            relay.rollback();
        }
        assertThat(json(api.get("/api/audit?target=" + id))).isEmpty();
        assertThat(api.send("POST", "/api/tasks/" + id + "/discard", null).statusCode()).isEqualTo(200);
    }

    @Test
    void publishedTaskCannotBeRetriedAndNothingIsAudited() throws Exception {
        long id = task("sent", "mail", "published", 1);

        HttpResponse<String> response = api.send("POST", "/api/tasks/" + id + "/retry", null);

        assertThat(response.statusCode()).isEqualTo(409);
        assertThat(detail(response))
                .isEqualTo("task " + id + " is published; only dead or failed tasks can be retried");
        assertThat(json(api.get("/api/audit?target=" + id))).isEmpty();
    }

    @Test
    void deadTaskCannotBeDiscarded() throws Exception {
        long id = task("gone", "mail", "dead", 1);

        assertThat(api.send("POST", "/api/tasks/" + id + "/discard", null).statusCode()).isEqualTo(409);
    }

    @Test
    void unknownTaskIsNotFound() throws Exception {
        HttpResponse<String> response = api.send("POST", "/api/tasks/999999/retry", null);

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(detail(response)).isEqualTo("no task with id 999999");
    }

    private String status(long id) {
        return jdbc.sql("SELECT status FROM onebeat_task WHERE id = ?").param(id).query(String.class).single();
    }

    private static WebhookServer server() {
        try {
            return new WebhookServer()
                    .on("/secret", (request, attempt) -> new WebhookServer.Answer(404, SECRET, Duration.ZERO))
                    .on("/hc/secret/fail", (request, attempt) -> new WebhookServer.Answer(404, SECRET, Duration.ZERO))
                    .on("/hc/secret", (request, attempt) -> new WebhookServer.Answer(404, SECRET, Duration.ZERO));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private long task(String job, String queue, String status, int attempts) {
        return jdbc.sql("""
                        INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, payload, status,
                                                  attempts)
                        VALUES (?, ?, ?, 't', ?, '{}'::jsonb, ?, ?) RETURNING id
                        """)
                .params(UUID.randomUUID().toString(), job, Timestamp.from(Instant.parse("2027-01-01T00:00:00Z")), queue,
                        status, attempts)
                .query(Long.class).single();
    }
}
