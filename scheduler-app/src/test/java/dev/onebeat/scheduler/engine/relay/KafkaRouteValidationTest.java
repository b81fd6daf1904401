package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.onebeat.transport.kafka.KafkaTransportProvider;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The relay's start-up validation passes a Kafka route's problems on, prefixed with the queue's property path. */
class KafkaRouteValidationTest {

    private final KafkaTransportProvider provider = new KafkaTransportProvider();

    @Test
    void badProducerPropertyStopsStartUpNamingTheQueueAndTheProperty() {
        RelayProperties properties = RelayProperties.defaults().withRoutes(
                Map.of("events", new RelayProperties.Broker("kafka", "k1:9092", Map.of("acks", "0"))),
                Map.of("billing", new RelayProperties.Route("kafka", "events", Map.of())));

        assertThatExceptionOfType(RelayConfigurationException.class)
                .isThrownBy(() -> QueueRoutes.of(properties, List.of(provider), Map.of()))
                .satisfies(e -> assertThat(e.problems()).singleElement().asString()
                        .startsWith("onebeat.relay.queues.billing: onebeat.relay.brokers.events.properties.acks: "));
    }
}
