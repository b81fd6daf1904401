package dev.onebeat.transport.kafka;

import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

/** The Kafka transport's cases on the official broker image, where Docker runs (skipped without it). */
@Testcontainers(disabledWithoutDocker = true)
class KafkaTransportContainerIT extends KafkaTransportCases {

    @Container
    static final KafkaContainer KAFKA = new KafkaContainer("apache/kafka:4.1.0");

    @Override
    String bootstrapServers() {
        return KAFKA.getBootstrapServers();
    }
}
