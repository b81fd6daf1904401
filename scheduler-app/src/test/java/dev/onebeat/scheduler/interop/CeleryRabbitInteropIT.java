package dev.onebeat.scheduler.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.engine.relay.TestRoutes;
import dev.onebeat.transport.testing.RabbitTestBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A real Celery worker (Debian's Celery 5.2) consumes what a replica relays to RabbitMQ with the
 * {@code celery} transport, and runs every task once, under the task id onebeat gave it; the bound
 * task reads the key and the scheduled instant as {@code self.request.idempotency_key} and
 * {@code self.request.scheduled_at}.
 */
@SchedulerIT
class CeleryRabbitInteropIT extends WorkerInteropBase {

    private static final RabbitTestBroker BROKER = new RabbitTestBroker();
    private static final String QUEUE = BROKER.newQueueName("celery-interop");
    private static PythonWorker worker;

    @BeforeAll
    static void startWorker() {
        worker = PythonWorker.celery(QUEUE, RabbitTestBroker.URL, QUEUE);
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        InteropJobs.registerDeclarative(registry, PythonWorker.CELERY_TASK, QUEUE);
        TestRoutes.route(registry, "rabbit", "rabbitmq", RabbitTestBroker.URL, "celery", QUEUE);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class FanOut {
        @Bean
        PeriodicJob interopFanOut() {
            return InteropJobs.fanOut(PythonWorker.CELERY_TASK, QUEUE);
        }
    }

    @Test
    void celeryWorkerRunsEveryPublishedTaskOnceUnderItsTaskIdWithItsArgumentsKeyAndInstant() {
        WorkerRuns.assertEveryPublishedTaskRanOnce(jdbc, QUEUE, worker, PythonWorker.CELERY_TASK, (record, row) -> {
            assertThat(record.get("idempotency_key").asString()).as("idempotency_key header").isEqualTo(row.key().value());
            assertThat(record.get("scheduled_at").asString()).as("scheduled_at header of %s", row.key())
                    .isEqualTo(scheduledAt(jdbc, row.key()));
            assertThat(record.get("delivery_info").get("routing_key").asString()).isEqualTo(QUEUE);
        });
    }

    @AfterAll
    static void stopWorkerAndDeleteQueue() throws Exception {
        close(worker, BROKER);
    }
}
