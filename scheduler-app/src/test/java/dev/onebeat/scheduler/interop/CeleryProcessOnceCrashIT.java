package dev.onebeat.scheduler.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.engine.relay.TestRoutes;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A real Celery worker ({@code acks_late}, prefetch 1, solo pool) processes onebeat's tasks from
 * RabbitMQ with {@code onebeat.process_once} on PostgreSQL, and dies by SIGKILL right after its first
 * task committed, before the ack. RabbitMQ gives the unacked message to a second worker, flagged
 * redelivered; that worker's {@code process_once} finds the key journalled and skips it. Every task
 * takes effect exactly once.
 */
@SchedulerIT
class CeleryProcessOnceCrashIT extends WorkerInteropBase {

    private static final String TASK = "interop.once";
    private static final String APP = "onebeat_interop_celery_once";

    private static final RabbitTestBroker BROKER = new RabbitTestBroker();
    private static final String QUEUE = BROKER.newQueueName("celery-once");
    private static PythonWorker crashing;
    private static PythonWorker successor;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        TestRoutes.route(registry, "rabbit", "rabbitmq", RabbitTestBroker.URL, "celery", QUEUE);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class ProcessOnceJob {
        @Bean
        PeriodicJob interopProcessOnce() {
            return ProcessOnceRuns.job(TASK, QUEUE);
        }
    }

    @Test
    void aWorkerKilledAfterItsCommitLeavesTheMessageToTheNextWhoseProcessOnceSkipsIt() {
        PythonWorker.requireOnebeatPackage();
        ProcessOnceRuns.createEffectTable(jdbc);
        Map<String, String> environment = ProcessOnceRuns.workerEnvironment(PostgresExtension.database(getClass()));
        Path marker = Path.of("target", "interop", QUEUE + ".crashed");

        crashing = PythonWorker.celery(QUEUE + "-1", APP, RabbitTestBroker.URL,
                ProcessOnceRuns.crashing(environment, marker), QUEUE);
        String crashedKey = ProcessOnceRuns.awaitCrash(crashing, marker, () -> !crashing.isAlive());
        assertThat(crashing.exitValue()).as("exit status of %s: killed by SIGKILL", crashing).isEqualTo(137);
        assertThat(crashing.records()).as("runs of the worker that crashed")
                .singleElement().satisfies(run -> {
                    assertThat(run.get("key").asString()).isEqualTo(crashedKey);
                    assertThat(run.get("first").asBoolean()).isTrue();
                    assertThat(run.get("redelivered").asBoolean()).isFalse();
                });

        successor = PythonWorker.celery(QUEUE + "-2", APP, RabbitTestBroker.URL, environment, QUEUE);
        List<JsonNode> crashed = ProcessOnceRuns.assertEachTaskTookEffectOnce(jdbc, QUEUE,
                () -> ProcessOnceRuns.concat(crashing, successor), crashedKey);

        assertThat(crashed.get(1).get("redelivered").asBoolean()).as("RabbitMQ's redelivered flag on the rerun").isTrue();
        assertThat(crashed.get(1).get("pid").asInt()).as("the rerun's process").isNotEqualTo(crashed.get(0).get("pid").asInt());
        assertThat(successor.records()).as("runs of the second worker").allSatisfy(run ->
                assertThat(run.get("routing_key").asString()).isEqualTo(QUEUE));
        assertThat(successor.errorLines()).as("error lines of %s", successor).isEmpty();
        assertThat(successor.isAlive()).as("second worker still running").isTrue();
    }

    @AfterAll
    static void stopWorkersAndDeleteQueue() throws Exception {
        try {
            if (crashing != null) {
                crashing.close();
            }
        } finally {
            close(successor, BROKER);
        }
    }
}
