package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code onebeat_outbox_pending} and {@code onebeat_outbox_oldest_pending_age_seconds}, as a
 * Prometheus scrape shows them, count per queue the tasks a relay cannot get out: here those of a
 * queue whose broker is not listening, next to a queue that is relayed and one kept in the database.
 */
@ExtendWith(PostgresExtension.class)
class OutboxGaugesIT {

    @Test
    void gaugesShowTheTasksOfAQueueWhoseBrokerIsDownAndTheirGrowingAge(TestDatabase database) throws Exception {
        try (RabbitTestBroker broker = new RabbitTestBroker(); OutboxTable outbox = OutboxTable.migrated(database)) {
            String live = broker.newQueueName("gauges-live");
            String stuck = "gauges-stuck";
            String inDatabase = "gauges-database";
            RelayProperties settings = new RelayProperties(true, 100, 1, Duration.ofMillis(200), Duration.ofSeconds(60),
                    Duration.ofMillis(200), Duration.ofSeconds(2), Duration.ofSeconds(5), "database", RelayProperties.MARK,
                    Duration.ofMillis(100),
                    Map.of("rabbit", new RelayProperties.Broker("rabbitmq", RabbitTestBroker.URL, Map.of()),
                            "closed", new RelayProperties.Broker("rabbitmq", "amqp://guest:guest@127.0.0.1:" + closedPort() + "/", Map.of())),
                    Map.of(live, new RelayProperties.Route("amqp", "rabbit", Map.of()),
                            stuck, new RelayProperties.Route("amqp", "closed", Map.of()),
                            inDatabase, new RelayProperties.Route("database", null, Map.of())));

            // started on an empty table: the gauges of queues must appear as their first tasks do
            try (TestRelay relay = TestRelay.start(database, "relay-gauges", settings, RelayHook.NONE)) {
                outbox.insert("gauges-live", live, 10);
                outbox.insert("gauges-stuck", stuck, 50);
                outbox.insert("gauges-database", inDatabase, 5);

                await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                    assertThat(gauge(relay, "onebeat_outbox_pending", stuck)).isEqualTo(50);
                    assertThat(gauge(relay, "onebeat_outbox_pending", inDatabase)).isEqualTo(5);
                    assertThat(outbox.statuses(live)).isEqualTo(Map.of("published", 10));
                });
                await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                    assertThat(gauge(relay, "onebeat_outbox_oldest_pending_age_seconds", stuck))
                            .as("seconds the oldest stuck task has waited, retries included").isGreaterThanOrEqualTo(5);
                    assertThat(gauge(relay, "onebeat_outbox_oldest_pending_age_seconds", inDatabase))
                            .isGreaterThanOrEqualTo(5);
                });
                double stuckAge = gauge(relay, "onebeat_outbox_oldest_pending_age_seconds", stuck);
                double databaseAge = gauge(relay, "onebeat_outbox_oldest_pending_age_seconds", inDatabase);
                System.out.printf("gauges: stuck pending=%.0f age=%.1fs retried=%.0f; database pending=%.0f age=%.1fs%n",
                        gauge(relay, "onebeat_outbox_pending", stuck), stuckAge, relay.count("onebeat.relay.retried", stuck),
                        gauge(relay, "onebeat_outbox_pending", inDatabase), databaseAge);
                // the relayed queue's tasks may have gone out before any refresh saw them: no series, or zero
                assertThat(relay.scrape()).doesNotContainPattern("onebeat_outbox_pending\\{[^}]*queue=\"" + live + "\"[^}]*} [1-9]");
                assertThat(relay.count("onebeat.relay.retried", stuck)).isGreaterThanOrEqualTo(50);
                assertThat(relay.count("onebeat.relay.published", live)).isEqualTo(10);
            }
        }
    }

    /** @return the sample of a gauge in a scrape, as Prometheus would read it */
    private static double gauge(TestRelay relay, String name, String queue) {
        Pattern sample = Pattern.compile("^" + Pattern.quote(name) + "\\{[^}]*queue=\"" + Pattern.quote(queue)
                + "\"[^}]*} (\\S+)$", Pattern.MULTILINE);
        Matcher matcher = sample.matcher(relay.scrape());
        assertThat(matcher.find()).as("%s{queue=%s} in the scrape", name, queue).isTrue();
        return Double.parseDouble(matcher.group(1));
    }

    /** @return a port nothing listens on */
    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
