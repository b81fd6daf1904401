package dev.onebeat.transport.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.Entity;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.testing.TestTransportContext;
import dev.onebeat.transport.TaskPayload;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

/**
 * The {@code kafka} transport against a real Kafka broker: every task lands once, with its headers,
 * and one entity's tasks stay in order in one partition; a record the topic cannot take is refused.
 * Run on the broker of a child JVM ({@link KafkaTransportIT}, always) and, where Docker is, on the
 * official image ({@link KafkaTransportContainerIT}).
 */
abstract class KafkaTransportCases {

    private static final Instant SCHEDULED_AT = Instant.parse("2026-11-29T08:00:00Z");

    private final KafkaTransportProvider provider = new KafkaTransportProvider();

    /** @return the broker's bootstrap servers */
    abstract String bootstrapServers() throws Exception;

    @Test
    void everyTaskIsPublishedOnceWithItsHeadersAndAnEntitysTasksStayInOrder() throws Exception {
        String topic = newTopic(3, Map.of());
        List<OutboundTask> tasks = new ArrayList<>();
        IntStream.range(0, 30).forEach(i -> tasks.add(task("per-order", "step" + i, new Entity("order", "7"), "{}")));
        IntStream.range(0, 30).forEach(i -> tasks.add(task("plain", "task" + i, null, "{\"args\": [" + i + "]}")));

        List<Delivery> outcomes = publish(topic, tasks);

        assertThat(outcomes).hasSize(60).allMatch(outcome -> outcome.status() == Delivery.Status.PUBLISHED);
        List<ConsumerRecord<byte[], byte[]>> records = consume(topic, 60);
        assertThat(records).hasSize(60);
        assertThat(records.stream().map(r -> header(r, "idempotency-key")))
                .containsExactlyInAnyOrderElementsOf(tasks.stream().map(t -> t.key().value()).toList());
        List<ConsumerRecord<byte[], byte[]>> order = records.stream()
                .filter(r -> new String(r.key(), StandardCharsets.UTF_8).equals("order:7")).toList();
        assertThat(order.stream().map(ConsumerRecord::partition).distinct()).hasSize(1);
        assertThat(order.stream().map(r -> header(r, "onebeat-task")))
                .containsExactlyElementsOf(IntStream.range(0, 30).mapToObj(i -> "step" + i).toList());
        ConsumerRecord<byte[], byte[]> plain = records.stream()
                .filter(r -> "task3".equals(header(r, "onebeat-task"))).findFirst().orElseThrow();
        assertThat(new String(plain.key(), StandardCharsets.UTF_8)).isEqualTo(header(plain, "idempotency-key"));
        assertThat(header(plain, "onebeat-job")).isEqualTo("plain");
        assertThat(header(plain, "onebeat-scheduled-at")).isEqualTo("2026-11-29T08:00:00Z");
        assertThat(new String(plain.value(), StandardCharsets.UTF_8))
                .startsWith("{\"task\":\"task3\",\"args\":[3],\"kwargs\":{},\"job\":\"plain\"");
    }

    @Test
    void recordLargerThanTheTopicTakesIsRefusedAndTheRestPublished() throws Exception {
        String topic = newTopic(1, Map.of("max.message.bytes", "2048"));
        String large = "{\"args\": [\"" + "x".repeat(8_000) + "\"]}";
        List<OutboundTask> tasks = List.of(task("sizes", "small", null, "{}"), task("sizes", "large", null, large));

        List<Delivery> outcomes = publish(topic, tasks);

        assertThat(outcomes.get(0)).isEqualTo(Delivery.published());
        assertThat(outcomes.get(1).status()).isEqualTo(Delivery.Status.REFUSED);
        assertThat(outcomes.get(1).error()).startsWith("RecordTooLargeException");
    }

    private List<Delivery> publish(String topic, List<OutboundTask> tasks) throws Exception {
        QueueRoute route = new QueueRoute(topic, "kafka",
                new BrokerSettings("kafka", BrokerType.KAFKA, bootstrapServers(), Map.of()), Map.of());
        provider.validate(route);
        try (TestTransportContext context = new TestTransportContext();
             Transport transport = provider.create(route, context)) {
            return transport.publish(tasks);
        }
    }

    private String newTopic(int partitions, Map<String, String> config) throws Exception {
        String topic = "onebeat-relay-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(config))).all().get();
        }
        return topic;
    }

    private List<ConsumerRecord<byte[], byte[]>> consume(String topic, int expected) throws Exception {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                     new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            // past the expected count, one more poll shows that nothing was published twice
            while (System.nanoTime() < deadline) {
                int before = records.size();
                consumer.poll(Duration.ofMillis(500)).forEach(records::add);
                if (records.size() >= expected && records.size() == before) {
                    break;
                }
            }
        }
        return records;
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static OutboundTask task(String job, String task, Entity entity, String payload) {
        IdempotencyKey key = IdempotencyKey.of(job, SCHEDULED_AT, task, entity);
        return new OutboundTask(key, job, SCHEDULED_AT, task, "events", entity == null ? null : entity.type(),
                entity == null ? null : entity.id(), TaskPayload.fromJson(payload), null);
    }
}
