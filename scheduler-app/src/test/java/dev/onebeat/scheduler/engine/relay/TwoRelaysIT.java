package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.GetResponse;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two replicas relaying the same outbox at the same time publish each row once: the claims keep
 * them apart. Each relay runs in a JVM of its own, as a replica would.
 */
@ExtendWith(PostgresExtension.class)
class TwoRelaysIT {

    private static final int ROWS = 5_000;

    @Test
    void twoRelaysRelayingAtOncePublishEachRowOnce(TestDatabase database) throws Exception {
        try (RabbitTestBroker broker = new RabbitTestBroker(); OutboxTable outbox = OutboxTable.migrated(database)) {
            String queue = broker.newQueueName("two-relays");
            broker.declare(queue);
            List<String> keys;
            try (RelayProcess a = RelayProcess.start("count", "relay-a", database, queue, "amqp", 100, Duration.ofSeconds(60));
                 RelayProcess b = RelayProcess.start("count", "relay-b", database, queue, "amqp", 100, Duration.ofSeconds(60))) {
                // both polling before the rows arrive, so neither has a head start
                await().atMost(Duration.ofSeconds(60)).until(() -> a.printed("relay started") && b.printed("relay started"));
                long started = System.nanoTime();
                keys = outbox.insert("two-relays", queue, ROWS);
                await().atMost(Duration.ofSeconds(90))
                        .until(() -> outbox.statuses(queue).getOrDefault("published", 0) == ROWS);
                long millis = (System.nanoTime() - started) / 1_000_000;
                long byA = a.lastPrinted(RelayMain.TOTAL);
                long byB = b.lastPrinted(RelayMain.TOTAL);
                System.out.printf("two relay JVMs published %d rows in %d ms: relay-a %d, relay-b %d%n",
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
