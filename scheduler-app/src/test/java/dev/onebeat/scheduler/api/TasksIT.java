package dev.onebeat.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SecurityTestUsers;
import dev.onebeat.testsupport.PostgresExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Outbox tasks listed by status, queue and job; failed and dead ones retried, pending ones discarded. */
@ExtendWith(PostgresExtension.class)
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED})
class TasksIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    JdbcClient jdbc;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        SchedulerTestDatabase.register(registry, TasksIT.class);
        SecurityTestUsers.register(registry);
    }

    @Test
    void tasksAreFilteredByStatusQueueAndJobAndPaged() throws Exception {
        long older = task("listed", "mail", "failed", 3);
        long newer = task("listed", "mail", "failed", 1);
        task("listed", "sms", "failed", 1);
        task("other-job", "mail", "failed", 1);

        JsonNode page = json(send("GET", "/api/tasks?status=failed&queue=mail&job=listed&limit=1"));
        JsonNode next = json(send("GET", "/api/tasks?status=failed&queue=mail&job=listed&limit=1&offset=1"));

        assertThat(page.get("total").asLong()).isEqualTo(2);
        assertThat(page.get("items").get(0).get("id").asLong()).isEqualTo(newer);
        assertThat(next.get("items").get(0).get("id").asLong()).isEqualTo(older);
        assertThat(next.get("items").get(0).get("attempts").asInt()).isEqualTo(3);
    }

    @Test
    void unknownStatusFilterIsBadRequestNamingTheParameter() throws Exception {
        HttpResponse<String> response = send("GET", "/api/tasks?status=lost");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("detail").asString())
                .isEqualTo("status: 'lost' is not one of [claimed, dead, done, failed, pending, published]");
    }

    @Test
    void deadTaskIsRetriedAsPendingKeepingItsAttemptsAndAudited() throws Exception {
        long id = task("retried", "mail", "dead", 7);

        HttpResponse<String> response = send("POST", "/api/tasks/" + id + "/retry");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(json(response).get("status").asString()).isEqualTo("pending");
        assertThat(json(response).get("attempts").asInt()).isEqualTo(7);
        JsonNode audit = json(send("GET", "/api/audit?target=" + id)).get(0);
        assertThat(audit.get("action").asString()).isEqualTo("task.retry");
        assertThat(audit.get("before").get("status").asString()).isEqualTo("dead");
        assertThat(audit.get("after").get("status").asString()).isEqualTo("pending");
    }

    @Test
    void pendingTaskIsDiscardedAsDeadNamingWhoDiscardedIt() throws Exception {
        long id = task("discarded", "mail", "pending", 0);

        HttpResponse<String> response = send("POST", "/api/tasks/" + id + "/discard");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).get("status").asString()).isEqualTo("dead");
        assertThat(json(response).get("lastError").asString()).isEqualTo("discarded by admin");
    }

    @Test
    void publishedTaskCannotBeRetriedAndNothingIsAudited() throws Exception {
        long id = task("sent", "mail", "published", 1);

        HttpResponse<String> response = send("POST", "/api/tasks/" + id + "/retry");

        assertThat(response.statusCode()).isEqualTo(409);
        assertThat(json(response).get("detail").asString())
                .isEqualTo("task " + id + " is published; only dead or failed tasks can be retried");
        assertThat(json(send("GET", "/api/audit?target=" + id))).isEmpty();
    }

    @Test
    void deadTaskCannotBeDiscarded() throws Exception {
        long id = task("gone", "mail", "dead", 1);

        assertThat(send("POST", "/api/tasks/" + id + "/discard").statusCode()).isEqualTo(409);
    }

    @Test
    void unknownTaskIsNotFound() throws Exception {
        HttpResponse<String> response = send("POST", "/api/tasks/999999/retry");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(json(response).get("detail").asString()).isEqualTo("no task with id 999999");
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

    private HttpResponse<String> send(String method, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .header("Authorization", SecurityTestUsers.basic("admin")).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }
}
