package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.GetResponse;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.amqp.AmqpJsonTransportProvider;
import dev.onebeat.transport.celery.CeleryTransportProvider;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A publish that takes twice the claim lease keeps its claims: the relay keeps the claim's
 * transaction from sitting idle past the lease while it publishes, so a second relay polling the same table meanwhile takes none of them over, and each
 * task reaches the broker once, none of them counted as republished.
 */
@ExtendWith(PostgresExtension.class)
class RelayLeaseRenewalIT {

    private static final int ROWS = 20;
    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration PUBLISH = LEASE.multipliedBy(2);

    @Test
    void publishSlowerThanTheLeaseKeepsItsClaimAndIsNotRepublishedByAnotherRelay(TestDatabase database)
            throws Exception {
        try (RabbitTestBroker broker = new RabbitTestBroker(); OutboxTable outbox = OutboxTable.migrated(database)) {
            String queue = broker.newQueueName("renewal");
            broker.declare(queue);
            List<String> keys = outbox.insert("renewal", queue, ROWS);
            RelayProperties settings = TestRelay.settings("rabbitmq", RabbitTestBroker.URL, LEASE, 100,
                    Map.of(queue, TestRelay.route("amqp", Map.of())));
            // the plain JSON transport, each publish held back for a while first, as a slow broker would
            AtomicInteger publishing = new AtomicInteger();
            TransportProvider slowAmqp = AroundTransport.of(new AmqpJsonTransportProvider(), (transport, tasks) -> {
                publishing.incrementAndGet();
                Thread.sleep(PUBLISH.toMillis());
                return transport.publish(tasks);
            });

            try (TestRelay slow = TestRelay.start(database, "slow", settings, RelayHook.NONE,
                    List.of(slowAmqp, new CeleryTransportProvider()))) {
                await().atMost(Duration.ofSeconds(10)).until(() -> publishing.get() == 1);
                assertThat(outbox.statuses(queue)).isEqualTo(Map.of("pending", ROWS));
                assertThat(outbox.lockedKeys(queue)).as("held by the claim's transaction").hasSize(ROWS);
                try (TestRelay other = TestRelay.start(database, "other", settings, RelayHook.NONE)) {
                    await().atMost(PUBLISH.plus(Duration.ofSeconds(10)))
                            .until(() -> outbox.statuses(queue).equals(Map.of("published", ROWS)));
                    // the other relay polls every 200 ms: give it a few more looks at the table
                    Thread.sleep(1_000);

                    assertThat(other.count("onebeat.relay.published", queue)).as("taken over by the other relay").isZero();
                    assertThat(slow.count("onebeat.relay.published", queue)).isEqualTo(ROWS);
                    assertThat(slow.count("onebeat.relay.republished", queue)).isZero();
                }
            }
            assertThat(outbox.jdbc().queryForList("SELECT DISTINCT attempts FROM onebeat_task WHERE queue = ?",
                    Integer.class, queue)).as("each row claimed once").containsExactly(1);
            List<GetResponse> messages = broker.drain(queue);
            Map<String, Long> copies = messages.stream()
                    .collect(Collectors.groupingBy(message -> message.getProps().getMessageId(), Collectors.counting()));
            assertThat(messages).as("each task published once").hasSize(ROWS);
            assertThat(copies.keySet()).containsExactlyInAnyOrderElementsOf(keys);
        }
    }
}
