package dev.onebeat.transport.kafka;

import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.OutboundTask;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The {@code kafka} transport's record and producer settings, package-private in the transport,
 * for a raw producer loop in the relay benchmark that must send what the transport sends with the
 * producer the transport makes. Test code only; this is their only door from elsewhere.
 */
public final class KafkaTransportParts {

    private KafkaTransportParts() {
    }

    /** @return the record the transport publishes for {@code task} on {@code topic} */
    public static ProducerRecord<byte[], byte[]> record(String topic, OutboundTask task) {
        return KafkaRecords.record(topic, task);
    }

    /**
     * @param broker a {@code kafka} broker
     * @param clientId the {@code client.id}, unless the broker's properties set one
     * @return the producer configuration the transport's client uses: its defaults, the broker's
     *     properties, then idempotence and {@code acks=all}
     */
    public static Map<String, Object> producerConfig(BrokerSettings broker, String clientId) {
        return KafkaSettings.producerConfig(broker, clientId);
    }
}
