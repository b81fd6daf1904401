package dev.onebeat.scheduler.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.engine.relay.TestRoutes;
import dev.onebeat.transport.testing.RabbitTestBroker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A real Celery worker (Debian's Celery 5.2) whose {@code task_queues} declare a quorum queue and a
 * priority queue, as teams run them, consumes what onebeat relays there with the queues' arguments
 * given as route options (without them every publish would get {@code 406 PRECONDITION_FAILED}); a
 * job's {@code options.priority} reaches the worker; a task whose {@code options.expires} has passed
 * when it is published is revoked by the worker, not run, and onebeat counts it.
 */
@SchedulerIT
class CeleryQueueOptionsInteropIT extends WorkerInteropBase {

    private static final RabbitTestBroker BROKER = new RabbitTestBroker();
    private static final String QUORUM = BROKER.newQueueName("celery-quorum");
    private static final String PRIORITY = BROKER.newQueueName("celery-priority");
    private static final String EXPIRING = BROKER.newQueueName("celery-expiring");
    private static PythonWorker worker;

    @Autowired
    MeterRegistry meters;

    @BeforeAll
    static void startWorker() {
        String queues = "[{\"name\": \"" + QUORUM + "\", \"arguments\": {\"x-queue-type\": \"quorum\"}},"
                + " {\"name\": \"" + PRIORITY + "\", \"arguments\": {\"x-max-priority\": 10}},"
                + " {\"name\": \"" + EXPIRING + "\"}]";
        worker = PythonWorker.celery("celery-queue-options", RabbitTestBroker.URL,
                Map.of("ONEBEAT_INTEROP_QUEUES", queues), QUORUM, PRIORITY, EXPIRING);
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        TestRoutes.route(registry, "rabbit", "rabbitmq", RabbitTestBroker.URL, "celery", QUORUM, PRIORITY, EXPIRING);
        registry.add("onebeat.relay.queues." + QUORUM + ".options.queue-arguments.x-queue-type", () -> "quorum");
        registry.add("onebeat.relay.queues." + PRIORITY + ".options.queue-arguments.x-max-priority", () -> "10");
        job(registry, 0, "quorum-job", QUORUM);
        job(registry, 1, "priority-job", PRIORITY);
        registry.add("onebeat.jobs[1].options.priority", () -> "7");
        job(registry, 2, "expiring-job", EXPIRING);
        // past by the time the fire commits: the worker must revoke every one
        registry.add("onebeat.jobs[2].options.expires", () -> "1ms");
    }

    private static void job(DynamicPropertyRegistry registry, int index, String name, String queue) {
        registry.add("onebeat.jobs[" + index + "].name", () -> name);
        registry.add("onebeat.jobs[" + index + "].every", () -> "1s");
        registry.add("onebeat.jobs[" + index + "].task", () -> PythonWorker.CELERY_TASK);
        registry.add("onebeat.jobs[" + index + "].queue", () -> queue);
    }

    @Test
    void quorumAndPriorityQueuesAreServedAndAnExpiredTaskIsRevokedNotRun() {
        await("tasks run from the quorum and the priority queue").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                    assertThat(ranFrom(QUORUM)).as("runs from the quorum queue").hasSizeGreaterThanOrEqualTo(3);
                    assertThat(ranFrom(PRIORITY)).as("runs from the priority queue").hasSizeGreaterThanOrEqualTo(3);
                });
        assertThat(ranFrom(PRIORITY)).allSatisfy(record ->
                assertThat(record.get("delivery_info").get("priority").asInt()).as("priority the worker saw").isEqualTo(7));

        Set<String> expired = WorkerRuns.rows(jdbc, EXPIRING).entrySet().stream()
                .filter(entry -> "published".equals(entry.getValue().status())).map(Map.Entry::getKey)
                .collect(Collectors.toSet());
        await("the worker discards the expired tasks").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> assertThat(expired).isNotEmpty().allSatisfy(id ->
                        assertThat(worker.log()).contains("Discarding revoked task: " + PythonWorker.CELERY_TASK + "[" + id + "]")));
        assertThat(ranFrom(EXPIRING)).as("expired tasks the worker ran").isEmpty();
        assertThat(meters.get("onebeat.relay.expired").tag("queue", EXPIRING).counter().count())
                .as("expired tasks counted").isGreaterThanOrEqualTo(expired.size());
        assertThat(worker.errorLines()).as("error lines in the worker's output").isEmpty();
        assertThat(WorkerRuns.rows(jdbc, QUORUM).values()).noneMatch(row -> "failed".equals(row.status()));
        assertThat(WorkerRuns.rows(jdbc, PRIORITY).values()).noneMatch(row -> "failed".equals(row.status()));
    }

    private List<JsonNode> ranFrom(String queue) {
        return worker.records().stream()
                .filter(record -> queue.equals(record.get("delivery_info").get("routing_key").asString())).toList();
    }

    @AfterAll
    static void stopWorkerAndDeleteQueues() throws Exception {
        close(worker, BROKER);
    }
}
