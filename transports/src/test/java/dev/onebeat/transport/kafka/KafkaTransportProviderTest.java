package dev.onebeat.transport.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.QueueRoute;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaTransportProviderTest {

    private final KafkaTransportProvider provider = new KafkaTransportProvider();

    @Test
    void idempotentProducerWithAllAcksAndClientPropertiesIsAccepted() {
        assertThatCode(() -> provider.validate(route("k1:9092,k2:9092", Map.of("enable.idempotence", "true",
                "acks", "-1", "compression.type", "zstd", "linger.ms", "20"), Map.of("topic", "billing.v1"))))
                .doesNotThrowAnyException();
    }

    @Test
    void disabledIdempotenceIsRefusedNamingTheProperty() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> provider.validate(route("k1:9092", Map.of("enable.idempotence", "false"), Map.of())))
                .withMessageStartingWith("onebeat.relay.brokers.events.properties.enable.idempotence: ")
                .withMessageContaining("was 'false'");
    }

    @Test
    void acksOtherThanAllIsRefusedNamingTheProperty() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> provider.validate(route("k1:9092", Map.of("acks", "1"), Map.of())))
                .withMessageStartingWith("onebeat.relay.brokers.events.properties.acks: ")
                .withMessageEndingWith("acks must be all, was '1'");
    }

    @Test
    void bootstrapServersAsPropertyIsRefusedInFavourOfTheUrl() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> provider.validate(route("k1:9092", Map.of("bootstrap.servers", "k2:9092"), Map.of())))
                .withMessageStartingWith("onebeat.relay.brokers.events.properties.bootstrap.servers must not be set");
    }

    @Test
    void malformedPropertyValueIsRefusedWithKafkasReasonNamingIt() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> provider.validate(route("k1:9092", Map.of("linger.ms", "soon"), Map.of())))
                .withMessageStartingWith("onebeat.relay.brokers.events.properties: ")
                .withMessageContaining("linger.ms");
    }

    @Test
    void tooManyInFlightRequestsForTheIdempotentProducerAreRefused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> provider.validate(route("k1:9092",
                        Map.of("max.in.flight.requests.per.connection", "6"), Map.of())))
                .withMessage("onebeat.relay.brokers.events.properties.max.in.flight.requests.per.connection: "
                        + "the idempotent producer allows at most 5, was 6");
    }

    @Test
    void deliveryTimeoutShorterThanARequestIsRefused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> provider.validate(route("k1:9092", Map.of("request.timeout.ms", "30000"), Map.of())))
                .withMessage("onebeat.relay.brokers.events.properties.delivery.timeout.ms: "
                        + "must be at least linger.ms + request.timeout.ms (30005), was 15000");
    }

    @Test
    void urlThatIsNotHostAndPortIsRefusedNamingIt() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> provider.validate(route("kafka://k1:9092", Map.of(), Map.of())))
                .withMessageStartingWith("onebeat.relay.brokers.events.url: 'kafka://k1:9092' is not host:port");
    }

    @Test
    void queueNameThatIsNoTopicNameAsksForTheTopicOption() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> provider.validate(new QueueRoute("billing/eu", "kafka",
                        broker("k1:9092", Map.of()), Map.of())))
                .withMessageStartingWith("options.topic: 'billing/eu' is not a Kafka topic name")
                .withMessageEndingWith("set options.topic");
    }

    private static QueueRoute route(String url, Map<String, String> properties, Map<String, String> options) {
        return new QueueRoute("billing", "kafka", broker(url, properties), options);
    }

    private static BrokerSettings broker(String url, Map<String, String> properties) {
        return new BrokerSettings("events", BrokerType.KAFKA, url, properties);
    }
}
