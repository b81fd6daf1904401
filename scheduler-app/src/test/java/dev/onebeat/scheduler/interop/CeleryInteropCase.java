package dev.onebeat.scheduler.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.relay.TestRoutes;
import dev.onebeat.transport.testing.RabbitTestBroker;
import dev.onebeat.transport.testing.RedisTestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A real Celery worker (Debian's Celery 5.2) consumes what a replica relays with the {@code celery} transport to
 * the broker of the subclass, and runs every task once, under the task id onebeat gave it; the bound task reads
 * the key and the scheduled instant as {@code self.request.idempotency_key} and {@code self.request.scheduled_at}.
 *
 * <p>One case, one subclass per broker, rather than a {@code @ParameterizedTest}: the broker is part of the
 * application context (the relay's routes, the fan-out job's queue), which starts once per class before any
 * parameter is known, and {@link WorkerInteropBase} stops the relay after each test, so one context could not
 * serve a second broker. A subclass is its {@link Broker} and the {@code @DynamicPropertySource} that routes to it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Import(CeleryInteropCase.FanOut.class)
abstract class CeleryInteropCase extends WorkerInteropBase {

    private static final String QUEUE_PROPERTY = "test.celery-interop.queue";

    private final Broker broker;
    private final PythonWorker worker;

    /** Starts the worker before the replica (JUnit makes the one instance before Spring starts its context). */
    CeleryInteropCase(Broker broker) throws Exception {
        this.broker = broker;
        try {
            this.worker = PythonWorker.celery(broker.queue, broker.url, broker.queue);
        } catch (RuntimeException e) {
            broker.resource.close();
            throw e;
        }
    }

    @Test
    void celeryWorkerRunsEveryPublishedTaskOnceUnderItsTaskIdWithItsArgumentsKeyAndInstant() {
        WorkerRuns.assertEveryPublishedTaskRanOnce(jdbc, broker.queue, worker, PythonWorker.CELERY_TASK, (record, row) -> {
            assertThat(record.get("idempotency_key").asString()).as("idempotency_key header").isEqualTo(row.key().value());
            assertThat(record.get("scheduled_at").asString()).as("scheduled_at header of %s", row.key())
                    .isEqualTo(scheduledAt(jdbc, row.key()));
            assertThat(record.get("delivery_info").get("routing_key").asString()).isEqualTo(broker.queue);
        });
    }

    /** @return the worker of the class */
    PythonWorker worker() {
        return worker;
    }

    @AfterAll
    void stopWorkerAndRemoveQueue() throws Exception {
        close(worker, broker.resource);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class FanOut {
        @Bean
        PeriodicJob interopFanOut(Environment environment) {
            return InteropJobs.fanOut(PythonWorker.CELERY_TASK, environment.getRequiredProperty(QUEUE_PROPERTY));
        }
    }

    /** A broker of the test's own, the queue the test made on it, and how the relay reaches it. */
    static final class Broker {

        private final String name;
        private final String type;
        private final String url;
        private final AutoCloseable resource;
        private final String queue;

        private Broker(String name, String type, String url, AutoCloseable resource, String queue) {
            this.name = name;
            this.type = type;
            this.url = url;
            this.resource = resource;
            this.queue = queue;
        }

        static Broker rabbitMq() {
            RabbitTestBroker broker = new RabbitTestBroker();
            return new Broker("rabbit", "rabbitmq", RabbitTestBroker.URL, broker, broker.newQueueName("celery-interop"));
        }

        /** kombu's Redis transport: the worker pops the envelopes the relay pushes. */
        static Broker redis() {
            RedisTestDatabase redis = new RedisTestDatabase();
            return new Broker("redis", "redis", RedisTestDatabase.URL, redis, redis.newName("celery-interop"));
        }

        /** Both jobs dispatch to the queue; the relay routes it to this broker with the {@code celery} transport. */
        void register(DynamicPropertyRegistry registry) {
            InteropJobs.registerDeclarative(registry, PythonWorker.CELERY_TASK, queue);
            TestRoutes.route(registry, name, type, url, "celery", queue);
            registry.add(QUEUE_PROPERTY, () -> queue);
        }
    }
}
