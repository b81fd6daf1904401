package dev.onebeat.transport.kafka;

import dev.onebeat.transport.testing.SharedBrokers;

/** The Kafka transport's cases on a real KRaft broker in a child JVM, from Maven Central's jars: no Docker. */
class KafkaTransportIT extends KafkaTransportCases {

    @Override
    String bootstrapServers() throws Exception {
        return SharedBrokers.kafka().bootstrapServers();
    }
}
