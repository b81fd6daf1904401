package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.TransportContext;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.http.HttpTransportProvider;
import dev.onebeat.transport.testing.StallingServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A webhook that sends its status and headers, the start of its body, and then nothing while keeping the
 * connection open: the relay's publish ends at the route's timeout and the task is retried; and a publish
 * that hangs past its deadline anyway stops keeping its claim, shows in health, and once the server has
 * ended the claim's idle transaction another relay takes the task over.
 */
@ExtendWith(PostgresExtension.class)
class StalledWebhookIT {

    private static final Duration TIMEOUT = Duration.ofMillis(500);

    @Test
    void publishStalledMidBodyEndsAtTheRouteTimeoutAndIsRetriedUntilPublished(TestDatabase database) throws Exception {
        try (StallingServer server = new StallingServer(); OutboxTable outbox = OutboxTable.migrated(database)) {
            String key = outbox.insert("stalled", "stalled", 1).get(0);
            // a lease far longer than the test: only the publish's own end can give the task back
            RelayProperties settings = TestRelay.settings("http", server.baseUrl(), Duration.ofMinutes(5), 10,
                    Map.of("stalled", TestRelay.route("http", Map.of("timeout", "500ms"))));

            try (TestRelay relay = TestRelay.start(database, "relay-stalled", settings, RelayHook.NONE,
                    List.of(new HttpTransportProvider()))) {
                await().atMost(Duration.ofSeconds(5)).until(() -> server.keys().size() == 1);
                await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(row(outbox, key))
                        .containsEntry("status", "pending").containsEntry("attempts", 1)
                        .containsEntry("last_error", "HttpTimeoutException: no complete response within 500 ms "
                                + "(status, headers and body)"));
                assertThat(server.closedByClient()).as("the stalled connection was closed").isEqualTo(1);

                server.answerNormally();

                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(row(outbox, key))
                        .containsEntry("status", "published"));
                assertThat(server.keys()).containsOnly(key);
                assertThat(relay.count("onebeat.relay.retried", "stalled")).isGreaterThanOrEqualTo(1);
            }
        }
    }

    @Test
    void publishHungPastItsDeadlineStopsKeepingItsClaimShowsOverdueAndIsTakenOverByAnotherRelay(TestDatabase database)
            throws Exception {
        try (StallingServer server = new StallingServer(); OutboxTable outbox = OutboxTable.migrated(database)) {
            String key = outbox.insert("hung", "hung", 1).get(0);
            Duration lease = Duration.ofSeconds(1);
            RelayProperties settings = TestRelay.settings("http", server.baseUrl(), lease, 10,
                    Map.of("hung", TestRelay.route("http", Map.of("timeout", "500ms"))));

            try (TestRelay hung = TestRelay.start(database, "relay-hung", settings, RelayHook.NONE,
                    List.of(new UnboundedHttp()))) {
                await().atMost(Duration.ofSeconds(5)).until(() -> server.keys().size() == 1);

                await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> broker = (Map<String, Object>) ((Map<String, Object>) hung.health()
                            .get("brokers")).get("broker");
                    assertThat(broker).containsEntry("state", "stalled").containsEntry("overdueTasks", 1);
                });
                // keep-alives stopped at the deadline: the server ends the claim's transaction one lease later,
                // although the publish still waits
                await().atMost(Duration.ofSeconds(5)).until(() -> outbox.lockedKeys("hung").isEmpty());
                Map<String, Object> freed = row(outbox, key);
                assertThat(freed).containsEntry("status", "pending");
                assertThat(hung.health().get("brokers")).as("still publishing, still shown")
                        .asString().contains("stalled");

                server.answerNormally();
                // the relay that takes over waits as long as the transport's default lets a request take: its
                // first request, on a loaded machine, may take longer than the hung route's 500 ms, and a retry
                // there would be counted as one more attempt than the takeover itself
                RelayProperties patient = TestRelay.settings("http", server.baseUrl(), lease, 10,
                        Map.of("hung", TestRelay.route("http", Map.of())));
                try (TestRelay other = TestRelay.start(database, "relay-other", patient, RelayHook.NONE,
                        List.of(new HttpTransportProvider()))) {
                    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(row(outbox, key))
                            .containsEntry("status", "published")
                            .containsEntry("attempts", (Integer) freed.get("attempts") + 1));
                    assertThat(server.keys()).as("sent again, with the same key").containsOnly(key).hasSizeGreaterThan(1);
                }
                // ends the hung exchange, so that the relay stops without waiting out its drain
                server.close();
            }
        }
    }

    private static Map<String, Object> row(OutboxTable outbox, String key) {
        return outbox.jdbc().queryForMap(
                "SELECT status, attempts, last_error, locked_by FROM onebeat_task WHERE idempotency_key = ?", key);
    }

    /**
     * An {@code http} transport that states the route's timeout as its deadline but does not hold to it: it
     * waits for the whole body as the JDK client's own timeout lets it, which is forever once the headers came.
     */
    private static final class UnboundedHttp implements TransportProvider {

        @Override
        public String name() {
            return "http";
        }

        @Override
        public Set<BrokerType> brokerTypes() {
            return Set.of(BrokerType.HTTP);
        }

        @Override
        public Transport create(QueueRoute route, TransportContext context) {
            HttpClient client = HttpClient.newHttpClient();
            URI target = URI.create(route.broker().url());
            return new Transport() {
                @Override
                public List<Delivery> publish(List<OutboundTask> tasks) throws Exception {
                    List<Delivery> outcomes = new ArrayList<>();
                    for (OutboundTask task : tasks) {
                        HttpResponse<String> response = client.send(HttpRequest.newBuilder(target).timeout(TIMEOUT)
                                .header("Idempotency-Key", task.key().value())
                                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
                        outcomes.add(response.statusCode() == 200 ? Delivery.published() : Delivery.retry("HTTP"));
                    }
                    return outcomes;
                }

                @Override
                public Optional<Duration> deadline(int tasks) {
                    return Optional.of(TIMEOUT);
                }
            };
        }
    }
}
