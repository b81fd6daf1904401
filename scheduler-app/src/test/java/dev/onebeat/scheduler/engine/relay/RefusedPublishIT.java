package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A broker that refuses a task for good (here: a mandatory publish to an exchange no queue is bound
 * to comes back as {@code basic.return}) fails the row once; it is not retried.
 */
@ExtendWith(PostgresExtension.class)
class RefusedPublishIT {

    @Test
    void unroutablePublishMarksTheRowFailedAndDoesNotRetryIt(TestDatabase database) throws Exception {
        try (RabbitTestBroker broker = new RabbitTestBroker(); OutboxTable outbox = OutboxTable.migrated(database)) {
            String exchange = broker.newQueueName("unbound");
            broker.channel().exchangeDeclare(exchange, "fanout", false);
            outbox.insert("refused", exchange, 1);
            RelayProperties settings = TestRelay.settings("rabbitmq", RabbitTestBroker.URL, Duration.ofSeconds(60), 100,
                    Map.of(exchange, TestRelay.route("amqp", Map.of("exchange", exchange))));

            try (TestRelay relay = TestRelay.start(database, "relay-refused", settings, RelayHook.NONE)) {
                await().atMost(Duration.ofSeconds(20)).until(() -> outbox.statuses(exchange).containsKey("failed"));
                // several poll intervals (200 ms) and retry delays: a retried row would have been claimed again
                Thread.sleep(2_000);

                Map<String, Object> row = outbox.jdbc().queryForMap(
                        "SELECT status, attempts, last_error, locked_by FROM onebeat_task WHERE queue = ?", exchange);
                assertThat(row.get("status")).isEqualTo("failed");
                assertThat(row.get("attempts")).as("claimed once, not retried").isEqualTo(1);
                assertThat(row.get("locked_by")).isNull();
                assertThat((String) row.get("last_error")).contains("unroutable").contains("NO_ROUTE")
                        .contains(exchange);
                assertThat(relay.count("onebeat.relay.failed", exchange)).isEqualTo(1);
                assertThat(relay.count("onebeat.relay.retried", exchange)).isZero();
                assertThat(relay.count("onebeat.relay.published", exchange)).isZero();
            }
        }
    }

    @Test
    void aRowWhosePayloadCannotBeReadIsFailedAtItsClaimNamingTheTaskAndFieldAndTheOthersPublished(TestDatabase database)
            throws Exception {
        try (RabbitTestBroker broker = new RabbitTestBroker(); OutboxTable outbox = OutboxTable.migrated(database)) {
            String exchange = broker.newQueueName("unreadable");
            String queue = broker.newQueueName("unreadable-bound");
            broker.channel().exchangeDeclare(exchange, "fanout", false);
            broker.channel().queueDeclare(queue, false, false, true, null);
            broker.channel().queueBind(queue, exchange, "");
            String bad = outbox.insert("unreadable", exchange, 3).get(1);
            outbox.jdbc().update("UPDATE onebeat_task SET payload = '{\"args\": 5, \"kwargs\": {}}' "
                    + "WHERE idempotency_key = ?", bad);
            RelayProperties settings = TestRelay.settings("rabbitmq", RabbitTestBroker.URL, Duration.ofSeconds(60), 100,
                    Map.of(exchange, TestRelay.route("amqp", Map.of("exchange", exchange))));

            try (TestRelay relay = TestRelay.start(database, "relay-unreadable", settings, RelayHook.NONE)) {
                await().atMost(Duration.ofSeconds(20)).until(() -> Map.of("failed", 1, "published", 2)
                        .equals(outbox.statuses(exchange)));

                Map<String, Object> row = outbox.jdbc().queryForMap(
                        "SELECT attempts, last_error FROM onebeat_task WHERE idempotency_key = ?", bad);
                assertThat(row.get("attempts")).as("claimed once, never handed to the transport").isEqualTo(1);
                assertThat((String) row.get("last_error"))
                        .isEqualTo("payload of task " + bad + ": args: must be a JSON array, was 5");
                assertThat(relay.count("onebeat.relay.failed", exchange)).isEqualTo(1);
                assertThat(broker.channel().messageCount(queue)).isEqualTo(2);
            }
        }
    }
}
