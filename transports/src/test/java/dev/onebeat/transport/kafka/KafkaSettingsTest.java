package dev.onebeat.transport.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.BrokerType;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

class KafkaSettingsTest {

    @Test
    void producerGetsTheRelayDefaultsWhereTheBrokerSetsNothing() {
        Map<String, Object> config = KafkaSettings.producerConfig(broker(Map.of()), "relay-1");

        assertThat(config)
                .containsEntry(ProducerConfig.BATCH_SIZE_CONFIG, "65536")
                .containsEntry(ProducerConfig.LINGER_MS_CONFIG, "5")
                .containsEntry(ProducerConfig.MAX_BLOCK_MS_CONFIG, "5000")
                .containsEntry(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000")
                .containsEntry(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "15000")
                .containsEntry(ProducerConfig.CLIENT_ID_CONFIG, "relay-1")
                .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true")
                .containsEntry(ProducerConfig.ACKS_CONFIG, "all");
    }

    @Test
    void brokerPropertiesOverrideTheDefaultsButNotTheGuarantees() {
        Map<String, Object> config = KafkaSettings.producerConfig(broker(Map.of(
                ProducerConfig.BATCH_SIZE_CONFIG, "16384", ProducerConfig.CLIENT_ID_CONFIG, "billing",
                ProducerConfig.ACKS_CONFIG, "-1")), "relay-1");

        assertThat(config)
                .containsEntry(ProducerConfig.BATCH_SIZE_CONFIG, "16384")
                .containsEntry(ProducerConfig.CLIENT_ID_CONFIG, "billing")
                .containsEntry(ProducerConfig.ACKS_CONFIG, "all")
                .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true")
                .containsEntry(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "k1:9092");
    }

    private static BrokerSettings broker(Map<String, String> properties) {
        return new BrokerSettings("events", BrokerType.KAFKA, "k1:9092", properties);
    }
}
