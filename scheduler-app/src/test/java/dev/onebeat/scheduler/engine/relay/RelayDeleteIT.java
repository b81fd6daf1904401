package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.GetResponse;
import dev.onebeat.scheduler.FaultInjection;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.amqp.AmqpJsonTransportProvider;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code onebeat.relay.on-publish=delete}: a row the broker confirmed is deleted in the claim's transaction instead of
 * marked, against a real broker. A row to retry or refused stays, as with {@code mark}; a relay killed while its
 * delete is not yet committed deletes nothing, and the rows go out again under the same id from another relay.
 */
@ExtendWith(PostgresExtension.class)
class RelayDeleteIT {

    private static final RabbitTestBroker BROKER = new RabbitTestBroker();

    @AfterAll
    static void closeBroker() throws Exception {
        BROKER.close();
    }

    private static RelayProperties deleting(String queue, String transport) {
        return TestRelay.settings("rabbitmq", RabbitTestBroker.URL, Duration.ofMinutes(5), 100,
                Map.of(queue, TestRelay.route(transport, Map.of()))).withOnPublish(RelayProperties.DELETE);
    }

    private static int rows(OutboxTable outbox, String queue) {
        return outbox.statuses(queue).values().stream().mapToInt(Integer::intValue).sum();
    }

    @Test
    void aPublishedRowIsDeletedAndARowToRetryStaysUntilItIsPublished(TestDatabase database) throws Exception {
        String queue = BROKER.newQueueName("delete");
        BROKER.declare(queue);
        AtomicBoolean brokerBack = new AtomicBoolean();
        // rows of entities 1 to 10 to retry until the broker is back, the others published
        TransportProvider someRetried = AroundTransport.of(new AmqpJsonTransportProvider(), (transport, tasks) -> {
            Map<Boolean, List<OutboundTask>> held = tasks.stream().collect(Collectors.partitioningBy(
                    task -> !brokerBack.get() && Integer.parseInt(task.entityId()) <= 10));
            Map<OutboundTask, Delivery> outcomes = new HashMap<>();
            List<OutboundTask> sent = held.get(false);
            if (!sent.isEmpty()) {
                List<Delivery> deliveries = transport.publish(sent);
                for (int i = 0; i < sent.size(); i++) {
                    outcomes.put(sent.get(i), deliveries.get(i));
                }
            }
            held.get(true).forEach(task -> outcomes.put(task, Delivery.retry("the broker is away")));
            return tasks.stream().map(outcomes::get).toList();
        });
        try (OutboxTable outbox = OutboxTable.migrated(database);
             TestRelay relay = TestRelay.start(database, "deleting", deleting(queue, "amqp"), RelayHook.NONE,
                     List.of(someRetried))) {
            List<String> keys = outbox.insert("delete", queue, 250);
            relay.wake();
            await().atMost(Duration.ofSeconds(30)).until(() -> rows(outbox, queue) == 10);
            assertThat(outbox.jdbc().queryForObject("""
                    SELECT count(*) FROM onebeat_task
                    WHERE queue = ? AND status = 'pending' AND attempts >= 1 AND entity_id::int <= 10""", Integer.class,
                    queue)).as("the rows to retry stay, their attempts counted").isEqualTo(10);

            brokerBack.set(true);
            await().atMost(Duration.ofSeconds(30)).until(() -> rows(outbox, queue) == 0);
            // counted once the round's transaction has committed
            await().atMost(Duration.ofSeconds(10)).until(() -> relay.count("onebeat.relay.published", queue) == 250);
            assertThat(BROKER.drain(queue)).extracting(message -> message.getProps().getMessageId())
                    .containsExactlyInAnyOrderElementsOf(keys);
        }
    }

    @Test
    void aRefusedRowStaysFailedBesideThePublishedOnesDeleted(TestDatabase database) throws Exception {
        String queue = BROKER.newQueueName("delete-refused");
        BROKER.declare(queue);
        // entities 1 to 5 refused for good, 6 to 10 published, in one batch
        TransportProvider someRefused = AroundTransport.of(new AmqpJsonTransportProvider(), (transport, tasks) -> {
            List<OutboundTask> sent = tasks.stream().filter(task -> Integer.parseInt(task.entityId()) > 5).toList();
            List<Delivery> deliveries = sent.isEmpty() ? List.of() : transport.publish(sent);
            Map<OutboundTask, Delivery> outcomes = new HashMap<>();
            for (int i = 0; i < sent.size(); i++) {
                outcomes.put(sent.get(i), deliveries.get(i));
            }
            return tasks.stream().map(task -> outcomes.getOrDefault(task, Delivery.refused("no such exchange"))).toList();
        });
        try (OutboxTable outbox = OutboxTable.migrated(database);
             TestRelay relay = TestRelay.start(database, "deleting-refused", deleting(queue, "amqp"), RelayHook.NONE,
                     List.of(someRefused))) {
            outbox.insert("refused", queue, 10);
            relay.wake();
            await().atMost(Duration.ofSeconds(30)).until(() -> outbox.statuses(queue).equals(Map.of("failed", 5)));
            assertThat(outbox.jdbc().queryForList("SELECT entity_id FROM onebeat_task WHERE queue = ? ORDER BY id",
                    String.class, queue)).containsExactly("1", "2", "3", "4", "5");
        }
        assertThat(BROKER.count(queue)).isEqualTo(5);
    }

    @Test
    @Tag(FaultInjection.TAG)
    void aRelayKilledWhileItsDeleteIsUncommittedDeletesNothingAndTheRowsGoOutAgainUnderTheSameId(
            TestDatabase database) throws Exception {
        String queue = BROKER.newQueueName("delete-killed");
        int rows = 300;
        int batch = 100;
        try (OutboxTable outbox = OutboxTable.migrated(database)) {
            outbox.insert("killed", queue, rows);
            // each delete of the outbox's rows waits in the server for a lock the test holds, so that the relay running
            // it is killed with its delete not committed
            outbox.jdbc().execute("""
                    CREATE FUNCTION held_delete() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN PERFORM pg_advisory_xact_lock_shared(29029); RETURN NULL; END $$;
                    CREATE TRIGGER held_delete BEFORE DELETE ON onebeat_task
                    FOR EACH STATEMENT EXECUTE FUNCTION held_delete()""");
            try {
                try (Connection holder = outbox.jdbc().getDataSource().getConnection()) {
                    try (Statement lock = holder.createStatement()) {
                        lock.execute("SELECT pg_advisory_lock(29029)");
                    }
                    try (RelayProcess relay = RelayProcess.start("count", "killed-deleting", database, queue,
                            "celery", batch, Duration.ofMinutes(5), RelayProperties.DELETE)) {
                        await().atMost(Duration.ofSeconds(60)).until(() -> deletesUnderWay(outbox) == 1);
                        await().atMost(Duration.ofSeconds(10)).until(() -> BROKER.count(queue) == batch);
                        assertThat(relay.kill()).as("exit status 128 + SIGKILL").isEqualTo(128 + 9);
                    } finally {
                        // the connection goes back to the pool, its session with it: the lock is released here
                        try (Statement unlock = holder.createStatement()) {
                            unlock.execute("SELECT pg_advisory_unlock(29029)");
                        }
                    }
                }
                // its session ends once the statement is over and finds the client gone: its transaction rolls back
                await().atMost(Duration.ofSeconds(30)).until(() -> deletesUnderWay(outbox) == 0);
            } finally {
                // the lock is released whatever failed, so no delete waits on it any more
                outbox.jdbc().execute("DROP TRIGGER IF EXISTS held_delete ON onebeat_task;"
                        + " DROP FUNCTION IF EXISTS held_delete()");
            }
            assertThat(outbox.statuses(queue)).as("the delete never committed").isEqualTo(Map.of("pending", rows));

            try (TestRelay survivor = TestRelay.start(database, "deleting-survivor", deleting(queue, "celery"),
                    RelayHook.NONE)) {
                await().atMost(Duration.ofSeconds(30)).until(() -> rows(outbox, queue) == 0);
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> survivor.count("onebeat.relay.published", queue) == rows);
            }
        }
        List<GetResponse> messages = BROKER.drain(queue);
        Map<String, Long> copies = messages.stream().collect(Collectors.groupingBy(
                message -> message.getProps().getHeaders().get("id").toString(), Collectors.counting()));
        assertThat(copies).as("every row out").hasSize(rows);
        assertThat(Set.copyOf(copies.values())).isEqualTo(Set.of(1L, 2L));
        assertThat(messages).as("the killed relay's batch twice, the rest once").hasSize(rows + batch);
    }

    /** @return the test database's sessions running a relay's delete of published rows, or idle in its transaction */
    private static int deletesUnderWay(OutboxTable outbox) {
        return outbox.jdbc().queryForObject("""
                SELECT count(*) FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'
                  AND query LIKE 'DELETE FROM onebeat_task WHERE id = ANY%'""", Integer.class);
    }
}
