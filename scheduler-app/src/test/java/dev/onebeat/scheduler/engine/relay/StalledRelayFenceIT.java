package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A relay that stalls between publish and mark past its claim lease, while another takes its rows
 * over and publishes them, marks nothing when it wakes: the server ended the claim's transaction
 * after one lease idle, which freed the rows, and the late marks fail with it. The stalled relay
 * counts what it had published as republished.
 */
@ExtendWith(PostgresExtension.class)
class StalledRelayFenceIT {

    private static final int ROWS = 50;

    @Test
    void relayWakingAfterItsClaimsWereTakenOverMarksNothing(TestDatabase database) throws Exception {
        try (RabbitTestBroker broker = new RabbitTestBroker(); OutboxTable outbox = OutboxTable.migrated(database)) {
            String queue = broker.newQueueName("fence");
            broker.declare(queue);
            outbox.insert("fence", queue, ROWS);
            RelayProperties settings = TestRelay.settings("rabbitmq", RabbitTestBroker.URL, Duration.ofSeconds(1), 100,
                    Map.of(queue, TestRelay.route("amqp", Map.of())));
            CountDownLatch stalled = new CountDownLatch(1);
            CountDownLatch wake = new CountDownLatch(1);

            try (TestRelay slow = TestRelay.start(database, "slow", settings, published -> {
                if (published > 0 && stalled.getCount() > 0) {
                    stalled.countDown();
                    wake.await();
                }
            })) {
                stalled.await();
                try (TestRelay other = TestRelay.start(database, "other", settings, RelayHook.NONE)) {
                    await().atMost(Duration.ofSeconds(20)).until(() -> outbox.statuses(queue).equals(Map.of("published", ROWS)));
                    assertThat(other.count("onebeat.relay.republished", queue)).isZero();
                }
                List<Map<String, Object>> before = rows(outbox, queue);

                wake.countDown();
                // the confirmed publishes are counted after the marks were tried
                await().atMost(Duration.ofSeconds(10)).until(() -> slow.count("onebeat.relay.published", queue) == ROWS);
                assertThat(slow.count("onebeat.relay.republished", queue)).isEqualTo(ROWS);

                assertThat(rows(outbox, queue)).as("the late marks changed no row").isEqualTo(before);
                assertThat(before).allSatisfy(row -> {
                    assertThat(row.get("status")).isEqualTo("published");
                    assertThat(row.get("attempts")).as("marked once, by the other relay").isEqualTo(1);
                });
            }
            assertThat(broker.drain(queue)).as("each row went out twice, once by each relay").hasSize(2 * ROWS);
        }
    }

    private static List<Map<String, Object>> rows(OutboxTable outbox, String queue) {
        return outbox.jdbc().queryForList("""
                SELECT id, status, attempts, published_at, locked_by, last_error FROM onebeat_task
                WHERE queue = ? ORDER BY id""", queue);
    }
}
