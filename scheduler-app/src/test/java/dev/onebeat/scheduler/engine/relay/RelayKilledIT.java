package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.GetResponse;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.scheduler.FaultInjection;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A relay SIGKILLed after the broker confirmed a batch but before it marked the rows loses nothing:
 * its claim ends with its connection, at once rather than after its lease, and another relay
 * publishes the rows again under the same Celery task id; rows the dead relay had not claimed go out
 * once.
 */
@FaultInjection
@ExtendWith(PostgresExtension.class)
class RelayKilledIT {

    private static final int ROWS = 300;
    private static final int STALLED_BATCH = 100;
    /** Longer than the test: only the death of the relay can free its claim. */
    private static final Duration LEASE = Duration.ofMinutes(5);

    @Test
    void rowsPublishedByAKilledRelayAreRepublishedOnceWithTheSameTaskId(TestDatabase database) throws Exception {
        try (RabbitTestBroker broker = new RabbitTestBroker(); OutboxTable outbox = OutboxTable.migrated(database)) {
            String queue = broker.newQueueName("killed");
            List<String> stalledKeys;
            outbox.insert("killed", queue, ROWS);
            try (RelayProcess stalled = RelayProcess.start("stall", "stalled-relay", database, queue, "celery",
                    STALLED_BATCH, LEASE)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> stalled.lastPrinted(RelayMain.STALLED) == STALLED_BATCH);
                await().atMost(Duration.ofSeconds(10)).until(() -> broker.count(queue) == STALLED_BATCH);
                stalledKeys = outbox.lockedKeys(queue);
                assertThat(stalled.kill()).as("exit status 128 + SIGKILL").isEqualTo(128 + 9);
            }
            assertThat(stalledKeys).as("the stalled relay's claim").hasSize(STALLED_BATCH);
            assertThat(outbox.statuses(queue)).isEqualTo(Map.of("pending", ROWS));
            await().atMost(Duration.ofSeconds(10)).until(() -> outbox.lockedKeys(queue).isEmpty());

            RelayProperties settings = TestRelay.settings("rabbitmq", RabbitTestBroker.URL, LEASE, 500,
                    Map.of(queue, TestRelay.route("celery", Map.of())));
            try (TestRelay survivor = TestRelay.start(database, "survivor", settings, RelayHook.NONE)) {
                await().atMost(Duration.ofSeconds(30)).until(() -> outbox.statuses(queue).equals(Map.of("published", ROWS)));
                // counted once the marks are done
                await().atMost(Duration.ofSeconds(10)).until(() -> survivor.count("onebeat.relay.published", queue) == ROWS);
            }
            assertThat(outbox.jdbc().queryForObject(
                    "SELECT count(*) FROM onebeat_task WHERE queue = ? AND attempts = 1", Integer.class, queue))
                    .as("each row marked once: the dead relay's marks never happened").isEqualTo(ROWS);

            List<GetResponse> messages = broker.drain(queue);
            Map<String, List<GetResponse>> byTaskId = messages.stream()
                    .collect(Collectors.groupingBy(message -> message.getProps().getHeaders().get("id").toString()));
            System.out.printf("killed relay: %d messages for %d rows, %d task ids twice%n", messages.size(), ROWS,
                    byTaskId.values().stream().filter(copies -> copies.size() == 2).count());
            assertThat(messages).hasSize(ROWS + STALLED_BATCH);
            assertThat(byTaskId).hasSize(ROWS);
            Set<String> stalledTaskIds = stalledKeys.stream()
                    .map(key -> new IdempotencyKey(key).toUuid().toString()).collect(Collectors.toSet());
            Set<String> twice = new HashSet<>();
            byTaskId.forEach((taskId, copies) -> {
                if (copies.size() == 2) {
                    twice.add(taskId);
                    assertThat(copies).extracting(RelayKilledIT::key).containsOnly(key(copies.get(0)));
                    assertThat(copies).extracting(message -> message.getProps().getCorrelationId()).containsOnly(taskId);
                } else {
                    assertThat(copies).as("task %s was not stalled: published once", taskId).hasSize(1);
                }
            });
            assertThat(twice).isEqualTo(stalledTaskIds);
        }
    }

    /** @return the readable idempotency key a Celery message carries in its headers */
    private static String key(GetResponse message) {
        return message.getProps().getHeaders().get("idempotency_key").toString();
    }
}
