package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.amqp.AmqpJsonTransportProvider;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A stopping relay publishes what is due before it stops, so a replica's last tasks do not wait for
 * the next start, and it stops within {@code drain-timeout} even when its broker is slow.
 */
@ExtendWith(PostgresExtension.class)
class RelayDrainIT {

    /** Longer than any test: only a wake or a stop makes the relay look at the table again. */
    private static final Duration NO_POLL = Duration.ofMinutes(10);

    @Test
    void stoppingRelayPublishesTheRowsThatFellDueWhileItWaited(TestDatabase database) throws Exception {
        try (RabbitTestBroker broker = new RabbitTestBroker(); OutboxTable outbox = OutboxTable.migrated(database)) {
            String queue = broker.newQueueName("drain");
            broker.declare(queue);
            RelayProperties settings = settings(queue, 100, Duration.ofSeconds(10));
            TestRelay relay = TestRelay.start(database, "draining", settings, RelayHook.NONE);
            try {
                // due shortly after the relay's first round, at its start: it finds none of them
                outbox.insertDueIn("drain", queue, 250, Duration.ofSeconds(1));
                await().atMost(Duration.ofSeconds(10)).until(() -> outbox.jdbc().queryForObject(
                        "SELECT bool_and(available_at <= now()) FROM onebeat_task WHERE queue = ?", Boolean.class, queue));
                assertThat(outbox.statuses(queue)).as("waiting for a poll that does not come").isEqualTo(Map.of("pending", 250));
            } finally {
                relay.close();
            }

            assertThat(outbox.statuses(queue)).as("three rounds of 100 at stop").isEqualTo(Map.of("published", 250));
            assertThat(relay.count("onebeat.relay.published", queue)).isEqualTo(250);
            assertThat(broker.drain(queue)).hasSize(250);
        }
    }

    @Test
    void stoppingRelayWhosePublishOutlastsTheDrainTimeoutStopsAtTheTimeout(TestDatabase database) throws Exception {
        try (RabbitTestBroker broker = new RabbitTestBroker(); OutboxTable outbox = OutboxTable.migrated(database)) {
            String queue = broker.newQueueName("drain-slow");
            broker.declare(queue);
            Duration drainTimeout = Duration.ofSeconds(1);
            CountDownLatch confirm = new CountDownLatch(1);
            TestRelay relay = TestRelay.start(database, "draining-slowly", settings(queue, 10, drainTimeout),
                    RelayHook.NONE, List.of(AroundTransport.of(new AmqpJsonTransportProvider(), (transport, tasks) -> {
                        // a broker that does not answer until the test ends
                        confirm.await();
                        throw new IOException("broker gone");
                    })));
            long stopMillis;
            try {
                outbox.insert("drain-slow", queue, 10);
                // the rows may land after the relay's first round, and it does not poll: a fire's wake brings it
                relay.wake();
                await().atMost(Duration.ofSeconds(10)).until(() -> outbox.lockedKeys(queue).size() == 10);

                long start = System.nanoTime();
                relay.close();
                stopMillis = (System.nanoTime() - start) / 1_000_000;
            } finally {
                confirm.countDown();
            }

            assertThat(stopMillis).as("stop waited for the drain timeout, not for the publish")
                    .isBetween(drainTimeout.toMillis() - 100, drainTimeout.toMillis() + 2_000);
            assertThat(outbox.statuses(queue)).as("left to another relay, unchanged").isEqualTo(Map.of("pending", 10));
            // the server ends the aborted connection's session on its own time
            await("the claim ended with the relay's connections").atMost(Duration.ofSeconds(10))
                    .until(() -> outbox.lockedKeys(queue).isEmpty());
        }
    }

    private static RelayProperties settings(String queue, int batchSize, Duration drainTimeout) {
        RelayProperties base = TestRelay.settings("rabbitmq", RabbitTestBroker.URL, Duration.ofSeconds(60), batchSize,
                Map.of(queue, TestRelay.route("amqp", Map.of())));
        return new RelayProperties(true, base.batchSize(), 1, NO_POLL, base.claimLease(), base.retryInitial(),
                base.retryMax(), drainTimeout, base.unrouted(), base.onPublish(),
                base.gaugeInterval(), base.brokers(), base.queues());
    }
}
