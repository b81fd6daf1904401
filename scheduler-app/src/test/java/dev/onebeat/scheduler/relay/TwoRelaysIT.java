package dev.onebeat.scheduler.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.GetResponse;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two replicas relaying the same outbox at the same time publish each row once: the claims keep
 * them apart. Each relay has its own pool, broker connection and thread, as a replica would.
 */
@ExtendWith(PostgresExtension.class)
class TwoRelaysIT {

    private static final int ROWS = 5_000;

    @Test
    void twoRelaysRelayingAtOncePublishEachRowOnce(TestDatabase database) throws Exception {
        try (RabbitTestBroker broker = new RabbitTestBroker(); OutboxTable outbox = OutboxTable.migrated(database)) {
            String queue = broker.newQueueName("two-relays");
            broker.declare(queue);
            List<String> keys = outbox.insert("two-relays", queue, ROWS);
            RelayProperties settings = TestRelay.settings("rabbitmq", RabbitTestBroker.URL, Duration.ofSeconds(60), 100,
                    Map.of(queue, TestRelay.route("amqp", Map.of())));

            long started = System.nanoTime();
            try (TestRelay a = TestRelay.start(database, "relay-a", settings, RelayHook.NONE);
                 TestRelay b = TestRelay.start(database, "relay-b", settings, RelayHook.NONE)) {
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> outbox.statuses(queue).getOrDefault("published", 0) == ROWS);
                long millis = (System.nanoTime() - started) / 1_000_000;
                double byA = a.count("onebeat.relay.published", queue);
                double byB = b.count("onebeat.relay.published", queue);
                System.out.printf("two relays published %d rows in %d ms: relay-a %.0f, relay-b %.0f%n",
                        ROWS, millis, byA, byB);

                assertThat(byA).as("relay-a published some").isPositive();
                assertThat(byB).as("relay-b published some").isPositive();
                assertThat(byA + byB).isEqualTo(ROWS);
            }

            List<GetResponse> messages = broker.drain(queue);
            Set<String> ids = new HashSet<>();
            messages.forEach(message -> ids.add(message.getProps().getMessageId()));
            assertThat(messages).hasSize(ROWS);
            assertThat(ids).hasSize(ROWS).containsExactlyInAnyOrderElementsOf(keys);
            assertThat(outbox.statuses(queue)).isEqualTo(Map.of("published", ROWS));
        }
    }
}
