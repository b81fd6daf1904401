package dev.onebeat.transport.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.TaskPayload;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** The client against a cluster that is not there; the real cluster is {@link KafkaTransportIT}'s. */
class KafkaClientTest {

    private static final Instant SCHEDULED_AT = Instant.parse("2026-11-29T08:00:00Z");

    /**
     * Nothing listens on port 1. With Kafka's default {@code max.block.ms} the first send would hold the
     * relay thread for a minute; here each of the batch's tasks comes back to retry after one wait of
     * {@code max.block.ms}. The bound only tells a hang from an answer.
     */
    @Test
    void publishToAnUnreachableClusterRetriesTheWholeBatchAfterOneMetadataWait() {
        BrokerSettings broker = new BrokerSettings("nowhere", BrokerType.KAFKA, "127.0.0.1:1",
                Map.of("max.block.ms", "1000", "reconnect.backoff.max.ms", "200"));
        List<ProducerRecord<byte[], byte[]>> records = IntStream.range(0, 5)
                .mapToObj(i -> KafkaRecords.record("relay-test", task(i)))
                .toList();

        try (KafkaClient client = KafkaClient.open(broker, "onebeat-test")) {
            List<Delivery> outcomes = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> client.publish(records));

            assertThat(outcomes).hasSize(5).allSatisfy(outcome -> {
                assertThat(outcome.status()).isEqualTo(Delivery.Status.RETRY);
                assertThat(outcome.error()).startsWith("TimeoutException: ").contains("1000 ms");
            });
        }
    }

    private static OutboundTask task(int i) {
        IdempotencyKey key = IdempotencyKey.of("job", SCHEDULED_AT, "task" + i, null);
        return new OutboundTask(key, "job", SCHEDULED_AT, "task" + i, "relay-test", null, null,
                TaskPayload.fromJson("{}"), null);
    }
}
