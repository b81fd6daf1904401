package dev.onebeat.scheduler.bench;

import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.kafka.KafkaTransportParts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The raw baseline for Kafka: hand-written {@link KafkaProducer} loops sending records built
 * beforehand, with the producer settings of the {@code kafka} transport (its defaults, idempotence,
 * {@code acks=all}). Each producer sends a batch, flushes, and reads every record's
 * acknowledgement before the next batch, as the transport does for a relay round; several producers
 * share the records in equal slices, on threads of their own.
 */
final class RawKafkaProducer implements AutoCloseable {

    private final List<Producer<byte[], byte[]>> producers = new ArrayList<>();
    private final ExecutorService threads;

    private RawKafkaProducer(int producers) {
        this.threads = Executors.newFixedThreadPool(producers, runnable -> {
            Thread thread = new Thread(runnable, "raw-producer");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Makes one producer per publisher, configured as the transport configures its own for {@code servers} with the
     * broker {@code properties}.
     */
    static RawKafkaProducer open(String servers, Map<String, String> properties, int producers) {
        RawKafkaProducer raw = new RawKafkaProducer(producers);
        for (int i = 0; i < producers; i++) {
            raw.producers.add(new KafkaProducer<>(config(servers, properties, "onebeat-bench-raw-" + i),
                    new ByteArraySerializer(), new ByteArraySerializer()));
        }
        return raw;
    }

    /** @return the transport's producer configuration for a {@code kafka} broker at {@code servers} */
    static Map<String, Object> config(String servers, Map<String, String> properties, String clientId) {
        return KafkaTransportParts.producerConfig(new BrokerSettings(RelayKafkaBenchmark.BROKER, BrokerType.KAFKA,
                servers, properties), clientId);
    }

    /** @return the records the {@code kafka} transport publishes for {@code tasks} on {@code topic} */
    static List<ProducerRecord<byte[], byte[]>> encode(List<OutboundTask> tasks, String topic) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(tasks.size());
        for (OutboundTask task : tasks) {
            records.add(KafkaTransportParts.record(topic, task));
        }
        return records;
    }

    /**
     * Sends every record once, each producer its slice, {@code batchSize} per flush.
     *
     * @return records acknowledged
     * @throws IllegalStateException if any record was not acknowledged, which voids the round
     */
    int publish(List<ProducerRecord<byte[], byte[]>> records, int batchSize) throws Exception {
        int count = producers.size();
        List<Future<?>> done = new ArrayList<>();
        for (int p = 0; p < count; p++) {
            Producer<byte[], byte[]> producer = producers.get(p);
            List<ProducerRecord<byte[], byte[]>> slice = records.subList(records.size() * p / count,
                    records.size() * (p + 1) / count);
            done.add(threads.submit(() -> {
                publish(producer, slice, batchSize);
                return null;
            }));
        }
        for (Future<?> future : done) {
            future.get();
        }
        return records.size();
    }

    private static void publish(Producer<byte[], byte[]> producer, List<ProducerRecord<byte[], byte[]>> records,
                                int batchSize) throws InterruptedException {
        List<Future<RecordMetadata>> acks = new ArrayList<>(batchSize);
        for (int from = 0; from < records.size(); from += batchSize) {
            acks.clear();
            for (ProducerRecord<byte[], byte[]> record : records.subList(from, Math.min(from + batchSize, records.size()))) {
                acks.add(producer.send(record));
            }
            producer.flush();
            for (Future<RecordMetadata> ack : acks) {
                try {
                    ack.get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException("a raw record was not acknowledged: " + e.getCause(), e.getCause());
                }
            }
        }
    }

    @Override
    public void close() {
        threads.shutdownNow();
        producers.forEach(producer -> producer.close(Duration.ofSeconds(5)));
    }
}
