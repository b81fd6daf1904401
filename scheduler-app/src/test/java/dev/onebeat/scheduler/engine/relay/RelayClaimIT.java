package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.GetResponse;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.celery.CeleryTransportProvider;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import liquibase.Liquibase;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
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
    void aClaimWhoseSessionTheServerEndsMidPublishFreesItsRowsAtOnceAndTheyGoOutAgainUnderTheSameKeys()
            throws Exception {
        insert(FIRST, "terminated-1", "-1 minute");
        insert(FIRST, "terminated-2", "-1 minute");
        AtomicInteger terminated = new AtomicInteger();
        // between the broker's confirm and the marks, as a failover or an operator ends the session
        RelayHook terminate = published -> terminated.addAndGet(jdbc.queryForObject("""
                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                WHERE datname = current_database() AND state = 'idle in transaction' AND pid <> pg_backend_pid()""",
                Integer.class));
        try (RelayDriver relay = RelayDriver.loop(routes(), dataSource, "terminated-it", properties(), terminate)) {
            assertThatThrownBy(relay::relayOnce).as("the round failed, so the loop backs off")
                    .isInstanceOf(SQLException.class);
            assertThat(terminated).as("the claim's session").hasValue(1);
            assertThat(jdbc.queryForList("SELECT DISTINCT status || '/' || attempts FROM onebeat_task "
                    + "WHERE idempotency_key LIKE 'terminated-%'", String.class))
                    .as("no mark reached the rows, which no longer wait for a lease").containsExactly("pending/0");
        }
        try (RelayDriver relay = RelayDriver.loop(routes(), dataSource, "terminated-next", properties(),
                RelayHook.NONE)) {
            assertThat(relay.relayOnce()).isEqualTo(2);
        }
        assertThat(jdbc.queryForList("SELECT DISTINCT status || '/' || attempts FROM onebeat_task "
                + "WHERE idempotency_key LIKE 'terminated-%'", String.class)).containsExactly("published/1");
        assertThat(keys(BROKER.drain(FIRST))).as("published twice, with the same keys")
                .containsExactly("terminated-1", "terminated-2", "terminated-1", "terminated-2");
        // the other tests count every published row
        jdbc.update("DELETE FROM onebeat_task WHERE idempotency_key LIKE 'terminated-%'");
    }

    @Test
    void aClaimLostWhileOneQueuePublishesSendsNothingOfTheNextQueue() throws Exception {
        insert(FIRST, "lost-first", "-2 minutes");
        insert(SECOND, "lost-second", "-1 minute");
        // a lease of 1.5 s: a keep-alive every 500 ms while the first queue's publish takes 2.5 s, and the session is
        // ended at its start, as the server does to a claim whose relay stalled
        RelayProperties base = properties();
        RelayProperties properties = new RelayProperties(true, base.batchSize(), 1, base.pollInterval(),
                Duration.ofMillis(1_500), base.retryInitial(), base.retryMax(), base.drainTimeout(), base.unrouted(),
                base.onPublish(), base.gaugeInterval(), base.brokers(), base.queues());
        TransportProvider terminating = AroundTransport.of(new CeleryTransportProvider(), (transport, tasks) -> {
            jdbc.queryForObject("""
                    SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                    WHERE datname = current_database() AND state = 'idle in transaction'
                      AND pid <> pg_backend_pid()""", Integer.class);
            Thread.sleep(2_500);
            return transport.publish(tasks);
        });
        QueueRoutes routes = QueueRoutes.of(properties, List.of(terminating), Map.of());
        try (RelayDriver relay = RelayDriver.loop(routes, dataSource, "lost-it", properties, RelayHook.NONE)) {
            assertThatThrownBy(relay::relayOnce).isInstanceOf(SQLException.class);
        }
        assertThat(keys(BROKER.drain(FIRST))).as("published before the claim was known lost").containsExactly("lost-first");
        assertThat(keys(BROKER.drain(SECOND))).as("not sent once the keep-alive failed").isEmpty();
        assertThat(jdbc.queryForList("SELECT DISTINCT status || '/' || attempts FROM onebeat_task "
                + "WHERE idempotency_key LIKE 'lost-%'", String.class)).containsExactly("pending/0");
        jdbc.update("DELETE FROM onebeat_task WHERE idempotency_key LIKE 'lost-%'");
    }

    @Test
    void aClaimAnEarlierReleaseLeftPastItsLeaseIsTakenFirstAndMarkedAsAnyOther() throws Exception {
        // an earlier release claimed by writing status and lease; its relay died before the mark
        insert(FIRST, "leased-expired", "-1 minute");
        insert(FIRST, "leased-live", "-1 minute");
        jdbc.update("""
                UPDATE onebeat_task SET status = 'claimed', locked_by = 'old-release', attempts = 1,
                       locked_until = now() + CASE idempotency_key WHEN 'leased-expired' THEN interval '-1 second'
                                                               ELSE interval '1 hour' END
                WHERE idempotency_key LIKE 'leased-%'
                """);
        insert(SECOND, "due-beside", "-2 minutes");
        try (RelayDriver relay = RelayDriver.loop(routes(), dataSource, "takeover-it", properties(), RelayHook.NONE)) {
            assertThat(relay.relayOnce()).isEqualTo(2);
            assertThat(relay.relayOnce()).isZero();
        }
        assertThat(jdbc.queryForList("SELECT idempotency_key || '/' || status || '/' || attempts || '/' "
                + "|| coalesce(locked_by, '-') FROM onebeat_task WHERE idempotency_key IN "
                + "('leased-expired', 'leased-live', 'due-beside') ORDER BY idempotency_key", String.class))
                .as("the live lease is still the old relay's").containsExactly("due-beside/published/1/-",
                        "leased-expired/published/2/-", "leased-live/claimed/1/old-release");
        assertThat(keys(BROKER.drain(FIRST))).containsExactly("leased-expired");
        assertThat(keys(BROKER.drain(SECOND))).containsExactly("due-beside");
        jdbc.update("DELETE FROM onebeat_task WHERE idempotency_key IN ('leased-expired', 'leased-live', 'due-beside')");
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
