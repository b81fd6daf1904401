package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.GetResponse;
import dev.onebeat.scheduler.engine.cluster.DatabaseIncarnation;
import dev.onebeat.scheduler.engine.cluster.DatabaseServerChanged;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.celery.CeleryTransportProvider;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import liquibase.Liquibase;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The relay's claim, round by round on a real database and broker: the oldest due rows of all the
 * broker's queues first, a batch at a time, never a row not yet due.
 */
@ExtendWith(PostgresExtension.class)
class RelayClaimIT {

    private static final RabbitTestBroker BROKER = new RabbitTestBroker();
    private static final String FIRST = BROKER.newQueueName("claim-a");
    private static final String SECOND = BROKER.newQueueName("claim-b");

    private static DataSource dataSource;
    private static JdbcTemplate jdbc;

    @BeforeAll
    @SuppressWarnings("deprecation") // the Liquibase facade is the short way to the project's tables
    static void migrate(TestDatabase database) throws Exception {
        dataSource = database.dataSource();
        jdbc = new JdbcTemplate(dataSource);
        try (Connection connection = dataSource.getConnection()) {
            new Liquibase("db/onebeat/changelog-master.xml", new ClassLoaderResourceAccessor(),
                    DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(connection)))
                    .update("");
        }
    }

    @AfterAll
    static void deleteQueues() throws Exception {
        BROKER.close();
    }

    @Test
    void eachRoundClaimsTheOldestDueRowsOfAllQueuesUpToTheBatch() throws Exception {
        insert(FIRST, "a-10m-1", "-10 minutes");
        insert(FIRST, "a-10m-2", "-10 minutes");
        insert(FIRST, "a-5m", "-5 minutes");
        insert(FIRST, "a-later", "+1 hour");
        insert(SECOND, "b-8m-1", "-8 minutes");
        insert(SECOND, "b-8m-2", "-8 minutes");
        insert(SECOND, "b-1m", "-1 minute");

        try (RelayDriver relay = RelayDriver.loop(routes(), dataSource, "claim-it", properties(), RelayHook.NONE)) {
            assertThat(relay.relayOnce()).isEqualTo(4);
            assertThat(published()).containsExactlyInAnyOrder("a-10m-1", "a-10m-2", "b-8m-1", "b-8m-2");

            assertThat(relay.relayOnce()).isEqualTo(2);
            assertThat(relay.relayOnce()).isZero();
        }
        assertThat(published()).hasSize(6).doesNotContain("a-later");
        assertThat(keys(BROKER.drain(FIRST))).containsExactly("a-10m-1", "a-10m-2", "a-5m");
        assertThat(keys(BROKER.drain(SECOND))).containsExactly("b-8m-1", "b-8m-2", "b-1m");
    }

    @Test
    void afterTheDatabaseServerChangedAReplicasOwnClaimsArePublishedAgainAtOnceNotAfterTheirLease() throws Exception {
        // as a promoted standby holds it when the claim reached it and the publish's mark did not
        insert(FIRST, "claimed-before-failover", "-1 minute");
        jdbc.update("""
                UPDATE onebeat_task SET status = 'claimed', locked_by = 'failover-node', attempts = 1,
                       locked_until = now() + interval '1 hour'
                WHERE idempotency_key = 'claimed-before-failover'
                """);
        insert(SECOND, "due-after-failover", "-1 second");
        Relay relay = RelayDriver.relay(routes(), dataSource, "failover-node", properties());
        relay.start();
        try {
            relay.wake();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> published().contains("due-after-failover"));
            assertThat(published()).doesNotContain("claimed-before-failover");

            DatabaseIncarnation old = new DatabaseIncarnation("127.0.0.1", 5432, Instant.parse("2026-12-01T00:00:00Z"),
                    false);
            relay.databaseServerChanged(new DatabaseServerChanged(old,
                    new DatabaseIncarnation("127.0.0.1", 5433, Instant.parse("2026-12-04T00:00:00Z"), false),
                    Instant.now()));

            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> published().contains("claimed-before-failover"));
            assertThat(jdbc.queryForObject("SELECT attempts FROM onebeat_task WHERE idempotency_key = ?", Integer.class,
                    "claimed-before-failover")).isEqualTo(2);
        } finally {
            relay.stop();
        }
        assertThat(keys(BROKER.drain(FIRST))).contains("claimed-before-failover");
        BROKER.drain(SECOND);
        // the other test counts every published row
        jdbc.update("DELETE FROM onebeat_task WHERE idempotency_key IN ('claimed-before-failover', 'due-after-failover')");
    }

    private static void insert(String queue, String key, String dueIn) {
        jdbc.update("""
                INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, payload, available_at)
                VALUES (?, 'claim-it', now(), 'tasks.add', ?, '{"args": [1, 2], "kwargs": {}}', now() + ?::interval)
                """, key, queue, dueIn);
    }

    private static List<String> published() {
        return jdbc.queryForList("SELECT idempotency_key FROM onebeat_task WHERE status = 'published'", String.class);
    }

    private static List<String> keys(List<GetResponse> messages) {
        return messages.stream().map(m -> m.getProps().getHeaders().get("idempotency_key").toString()).toList();
    }

    private static RelayProperties properties() {
        return RelayProperties.defaults().withBatching(4, 1).withRoutes(
                Map.of("rabbit", new RelayProperties.Broker("rabbitmq", RabbitTestBroker.URL, Map.of())),
                Map.of(FIRST, new RelayProperties.Route("celery", "rabbit", Map.of()),
                        SECOND, new RelayProperties.Route("celery", "rabbit", Map.of())));
    }

    private static QueueRoutes routes() {
        return QueueRoutes.of(properties(), List.of(new CeleryTransportProvider()), Map.of());
    }
}
