package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.GetResponse;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A running replica relays each committed task to RabbitMQ once, right after the fire: the plain JSON
 * transport and Celery's, each row marked published after the confirm.
 */
@ExtendWith(PostgresExtension.class)
@DirtiesContext
@SpringBootTest(properties = SchedulerTestDatabase.NO_DEMO)
class RelayRabbitIT {

    private static final RabbitTestBroker BROKER = new RabbitTestBroker();
    private static final String JSON_QUEUE = BROKER.newQueueName("json");
    private static final String CELERY_QUEUE = BROKER.newQueueName("celery");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        SchedulerTestDatabase.register(registry, RelayRabbitIT.class);
        // the whole list here: a list bound from two property sources takes only the higher one's entries
        Map.of("onebeat.jobs[0].name", "json-every-second", "onebeat.jobs[0].every", "1s",
                "onebeat.jobs[0].task", "billing.close", "onebeat.jobs[0].kwargs.region", "eu",
                "onebeat.jobs[0].queue", JSON_QUEUE,
                "onebeat.jobs[1].name", "celery-every-second", "onebeat.jobs[1].every", "1s",
                "onebeat.jobs[1].task", "tasks.add", "onebeat.jobs[1].args[0]", "2", "onebeat.jobs[1].args[1]", "3")
                .forEach((name, value) -> registry.add(name, () -> value));
        registry.add("onebeat.jobs[1].queue", () -> CELERY_QUEUE);
        TestRoutes.route(registry, "rabbit", "rabbitmq", RabbitTestBroker.URL, "amqp", JSON_QUEUE);
        TestRoutes.route(registry, "rabbit", "rabbitmq", RabbitTestBroker.URL, "celery", CELERY_QUEUE);
    }

    // the relay declares them on its first publish; draining a queue not declared yet would close the channel
    @BeforeAll
    static void declareQueues() throws Exception {
        BROKER.declare(JSON_QUEUE);
        BROKER.declare(CELERY_QUEUE);
    }

    @AfterAll
    static void deleteQueues() throws Exception {
        BROKER.close();
    }

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void everyCommittedTaskReachesItsQueueOnceAndIsMarkedPublished() throws Exception {
        List<GetResponse> json = new ArrayList<>();
        List<GetResponse> celery = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            json.addAll(BROKER.drain(JSON_QUEUE));
            celery.addAll(BROKER.drain(CELERY_QUEUE));
            assertThat(json).hasSizeGreaterThanOrEqualTo(3);
            assertThat(celery).hasSizeGreaterThanOrEqualTo(3);
        });

        GetResponse first = json.get(0);
        String key = first.getProps().getMessageId();
        assertThat(key).startsWith("json-every-second/");
        Map<String, Object> headers = first.getProps().getHeaders();
        assertThat(headers.get("onebeat-job").toString()).isEqualTo("json-every-second");
        assertThat(headers.get("idempotency-key").toString()).isEqualTo(key);
        assertThat(new String(first.getBody(), StandardCharsets.UTF_8))
                .contains("\"task\":\"billing.close\"").contains("\"kwargs\":{\"region\":\"eu\"}");

        GetResponse task = celery.get(0);
        String readable = task.getProps().getHeaders().get("idempotency_key").toString();
        assertThat(task.getProps().getCorrelationId()).isEqualTo(new IdempotencyKey(readable).toUuid().toString());
        assertThat(task.getProps().getContentType()).isEqualTo("application/json");
        assertThat(task.getProps().getHeaders().get("task").toString()).isEqualTo("tasks.add");

        // every message is a distinct row, and the rows it came from are published
        assertThat(json.stream().map(m -> m.getProps().getMessageId()).distinct()).hasSize(json.size());
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(jdbc.queryForObject(
                "SELECT status FROM onebeat_task WHERE idempotency_key = ?", String.class, key)).isEqualTo("published"));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM onebeat_task WHERE status IN ('failed', 'dead')",
                Integer.class)).isZero();
    }
}
