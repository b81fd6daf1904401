package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.amqp.AmqpJsonTransportProvider;
import dev.onebeat.transport.celery.CeleryTransportProvider;
import dev.onebeat.transport.rq.RqTransportProvider;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Each routing mistake stops start-up with a message naming the property path and the value. */
class QueueRoutesTest {

    private static final List<TransportProvider> PROVIDERS =
            List.of(new AmqpJsonTransportProvider(), new CeleryTransportProvider(), new RqTransportProvider());
    private static final RelayProperties.Broker RABBIT =
            new RelayProperties.Broker("rabbitmq", "amqp://guest:guest@localhost:5672/", Map.of());
    private static final RelayProperties.Broker REDIS = new RelayProperties.Broker("redis", "redis://localhost:6379/0", Map.of());

    @Nested
    class Routes {

        @Test
        void unknownTransportNamesQueueAndTransportAndTheKnownOnes() {
            assertThat(problems(Map.of("rabbit", RABBIT), Map.of("billing", route("amqpp", "rabbit"))))
                    .containsExactly("onebeat.relay.queues.billing.transport: unknown transport 'amqpp'; "
                            + "known transports: [amqp, celery, database, rq]");
        }

        @Test
        void unknownBrokerNamesQueueAndBrokerAndTheConfiguredOnes() {
            assertThat(problems(Map.of("rabbit", RABBIT), Map.of("billing", route("celery", "rabit"))))
                    .containsExactly("onebeat.relay.queues.billing.broker: unknown broker 'rabit'; configured brokers: [rabbit]");
        }

        @Test
        void transportOnABrokerOfAnotherTypeNamesBothTypes() {
            assertThat(problems(Map.of("cache", REDIS), Map.of("billing", route("amqp", "cache"))))
                    .containsExactly("onebeat.relay.queues.billing: transport amqp cannot publish to broker 'cache' "
                            + "of type redis; it needs rabbitmq");
        }

        @Test
        void badTransportOptionNamesQueueOptionAndValue() {
            RelayProperties.Route route = new RelayProperties.Route("amqp", "rabbit", Map.of("declare-queue", "yes"));
            assertThat(problems(Map.of("rabbit", RABBIT), Map.of("billing", route)))
                    .containsExactly("onebeat.relay.queues.billing: options.declare-queue must be true or false, was 'yes'");
        }
    }

    @Nested
    class Brokers {

        @Test
        void missingUrlNamesBrokerAndType() {
            RelayProperties.Broker noUrl = new RelayProperties.Broker("rabbitmq", " ", Map.of());
            assertThat(problems(Map.of("rabbit", noUrl), Map.of()))
                    .containsExactly("onebeat.relay.brokers.rabbit.url is missing for a rabbitmq broker");
        }

        @Test
        void unknownBrokerTypeNamesBrokerTypeAndTheKnownOnes() {
            RelayProperties.Broker typo = new RelayProperties.Broker("rabitmq", "amqp://localhost/", Map.of());
            assertThat(problems(Map.of("rabbit", typo), Map.of()))
                    .containsExactly("onebeat.relay.brokers.rabbit.type: unknown broker type 'rabitmq'; "
                            + "known types: rabbitmq, redis, kafka, http");
        }
    }

    @Nested
    class Unrouted {

        @Test
        void rejectWithADeclaredJobOnAnUnroutedQueueNamesJobQueueAndRoutedQueues() {
            RelayConfigurationException failure = catchThrowableOfType(RelayConfigurationException.class, () -> QueueRoutes.of(
                    properties("reject", Map.of("rabbit", RABBIT), Map.of("billing", route("celery", "rabbit"))),
                    PROVIDERS, Map.of("nightly-report", "reports")));

            assertThat(failure.problems()).containsExactly(
                    "job 'nightly-report' dispatches to queue 'reports', which onebeat.relay.queues does not route "
                            + "(onebeat.relay.unrouted=reject); routed queues: [billing]");
        }

        @Test
        void unknownValueNamesPropertyAndValue() {
            assertThat(problems("drop", Map.of(), Map.of()))
                    .containsExactly("onebeat.relay.unrouted: unknown value 'drop'; use database or reject");
        }

        @Test
        void rejectRefusesADispatchToAnUnroutedQueueAtRunTime() {
            QueueRoutes routes = QueueRoutes.of(properties("reject", Map.of("rabbit", RABBIT),
                    Map.of("billing", route("celery", "rabbit"))), PROVIDERS, Map.of());

            assertThatNoException().isThrownBy(() -> routes.requireRouted("billing"));
            assertThatThrownBy(() -> routes.requireRouted("reports")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("queue 'reports' is not routed in onebeat.relay.queues (onebeat.relay.unrouted=reject); "
                            + "routed queues: [billing]");
        }

        @Test
        void databaseKeepsUnroutedQueuesInTheTable() {
            QueueRoutes routes = QueueRoutes.of(properties("database", Map.of(), Map.of()), PROVIDERS,
                    Map.of("nightly-report", "reports"));

            assertThatNoException().isThrownBy(() -> routes.requireRouted("reports"));
            assertThat(routes.relayed()).isEmpty();
        }
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        Map<String, RelayProperties.Route> queues = new LinkedHashMap<>();
        queues.put("billing", route("amqpp", "rabbit"));
        queues.put("mail", route("celery", "nowhere"));

        assertThat(problems(Map.of("rabbit", RABBIT), queues)).hasSize(2);
    }

    @Test
    void claimLeaseBelowOneSecondIsRefusedNamingThePropertyAndValue() {
        RelayProperties base = RelayProperties.defaults();
        RelayProperties shortLease = new RelayProperties(true, base.batchSize(), base.concurrency(), base.pollInterval(),
                Duration.ofMillis(200), base.retryInitial(), base.retryMax(), base.drainTimeout(), base.unrouted(),
                base.onPublish(), base.gaugeInterval(), base.brokers(), base.queues());

        assertThat(catchThrowableOfType(RelayConfigurationException.class,
                () -> QueueRoutes.of(shortLease, PROVIDERS, Map.of())).problems())
                .containsExactly("onebeat.relay.claim-lease: must be at least 1s (the database ends a claim's "
                        + "transaction idle longer than this, a publish's included), was PT0.2S");
    }

    @Test
    void anUnknownOnPublishIsRefusedNamingThePropertyAndValue() {
        RelayProperties archive = RelayProperties.defaults().withOnPublish("archive");

        assertThat(catchThrowableOfType(RelayConfigurationException.class,
                () -> QueueRoutes.of(archive, PROVIDERS, Map.of())).problems())
                .containsExactly("onebeat.relay.on-publish: unknown value 'archive'; use mark or delete");
    }

    @Test
    void publishedRowsAreMarkedByDefault() {
        assertThat(RelayProperties.defaults().onPublish()).isEqualTo(RelayProperties.MARK);
    }

    private static List<String> problems(Map<String, RelayProperties.Broker> brokers,
                                         Map<String, RelayProperties.Route> queues) {
        return problems("database", brokers, queues);
    }

    private static List<String> problems(String unrouted, Map<String, RelayProperties.Broker> brokers,
                                         Map<String, RelayProperties.Route> queues) {
        RelayConfigurationException failure = catchThrowableOfType(RelayConfigurationException.class,
                () -> QueueRoutes.of(properties(unrouted, brokers, queues), PROVIDERS, Map.of()));
        assertThat(failure).as("routing should have been refused").isNotNull();
        assertThat(failure).hasMessage("invalid relay configuration: " + String.join("; ", failure.problems()));
        return failure.problems();
    }

    private static RelayProperties properties(String unrouted, Map<String, RelayProperties.Broker> brokers,
                                              Map<String, RelayProperties.Route> queues) {
        return RelayProperties.defaults().withUnrouted(unrouted).withRoutes(brokers, queues);
    }

    private static RelayProperties.Route route(String transport, String broker) {
        return new RelayProperties.Route(transport, broker, Map.of());
    }
}
