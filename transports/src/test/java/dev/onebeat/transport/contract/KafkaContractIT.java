package dev.onebeat.transport.contract;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.kafka.KafkaTransportProvider;
import dev.onebeat.transport.testing.KafkaTestBroker;
import dev.onebeat.transport.testing.SharedBrokers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import tools.jackson.databind.json.JsonMapper;

/**
 * Kafka on a real KRaft broker in a child JVM, which the restart test kills ({@code kill -9}) and starts again: the
 * record's value is the plain JSON, its {@code idempotency-key} header the key. A record larger than
 * the producer may send is refused.
 */
class KafkaContractIT extends TransportContract {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private KafkaTestBroker kafka;
    private final Map<String, KafkaConsumer<byte[], byte[]>> consumers = new HashMap<>();

    @BeforeEach
    void connect() throws Exception {
        kafka = SharedBrokers.kafka();
    }

    @AfterEach
    void closeConsumers() {
        consumers.values().forEach(KafkaConsumer::close);
        consumers.clear();
    }

    @Override
    protected TransportProvider provider() {
        return new KafkaTransportProvider();
    }

    @Override
    protected BrokerSettings broker() {
        return new BrokerSettings("contract-kafka", BrokerType.KAFKA, kafka.bootstrapServers(), Map.of());
    }

    @Override
    protected String newQueue(String purpose) {
        String topic = "contract-" + purpose + "-" + UUID.randomUUID().toString().substring(0, 8);
        kafka.createTopic(topic, 1);
        return topic;
    }

    @Override
    protected List<WorkerView> take(QueueRoute route) {
        KafkaConsumer<byte[], byte[]> consumer = consumers.computeIfAbsent(route.queue(), topic -> {
            Map<String, Object> config = new HashMap<>();
            config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            config.put(ConsumerConfig.GROUP_ID_CONFIG, "contract-" + UUID.randomUUID());
            config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            KafkaConsumer<byte[], byte[]> created =
                    new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            created.subscribe(List.of(topic));
            return created;
        });
        List<WorkerView> views = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
            Header key = record.headers().lastHeader("idempotency-key");
            views.add(AmqpRabbitContractIT.jsonView(new String(key.value(), UTF_8), JSON.readTree(record.value())));
        }
        return views;
    }

    @Override
    protected Refusal refusal() {
        QueueRoute route = route(newQueue("too-large"));
        // past the producer's max.request.size (1 MiB): refused before it is sent, and every time
        String payload = "{\"args\": [\"" + "x".repeat(1_100_000) + "\"], \"kwargs\": {}}";
        return new Refusal(route, task(route, "customer", "0", payload), "RecordTooLargeException");
    }

    @Override
    protected void stopBroker() {
        kafka.kill();
    }

    @Override
    protected void startBroker() {
        kafka.restart();
    }

    @Override
    protected boolean publishFailsWhileDown() {
        // the idempotent producer holds the records and sends them once the broker is back, within
        // delivery.timeout.ms (15 s, the transport's default), without duplicating them
        return false;
    }
}
