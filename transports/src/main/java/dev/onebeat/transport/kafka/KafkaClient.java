package dev.onebeat.transport.kafka;

import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.Delivery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay's producer for one Kafka cluster, shared by the queues routed to it. A batch is sent
 * whole, flushed, and each record's outcome read: acknowledged by every in-sync replica → published;
 * a record Kafka will never take (too large, invalid topic, not authorized) → refused; anything else
 * (timeouts, leader changes, not enough replicas) → retried. The producer is idempotent, so its own
 * retries inside {@code delivery.timeout.ms} never duplicate a record.
 *
 * <p>When the cluster cannot be reached, the first send waits {@code max.block.ms} for the topic's
 * metadata and fails; the rest of the batch is then retried without waiting again. A producer that
 * threw, or whose record failed with a non-retriable error that is not the record's own (such as
 * a cluster authorization error, fatal to an idempotent producer), is replaced on the next batch.
 */
final class KafkaClient implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaClient.class);

    private final Map<String, Object> config;
    private final String servers;
    private Producer<byte[], byte[]> producer;

    private KafkaClient(Map<String, Object> config, String servers) {
        this.config = config;
        this.servers = servers;
    }

    /**
     * @param broker a {@code kafka} broker
     * @param clientId the default {@code client.id}
     * @return a client; the producer is made on the first publish
     * @throws IllegalArgumentException naming the broker property that is wrong
     */
    public static KafkaClient open(BrokerSettings broker, String clientId) {
        return new KafkaClient(KafkaSettings.producerConfig(broker, clientId), broker.url());
    }

    /**
     * @param records the batch
     * @return one outcome per record, in order
     * @throws KafkaException if the producer failed as a whole; it is closed and replaced next time
     * @throws InterruptedException if interrupted while waiting for acknowledgements
     */
    public List<Delivery> publish(List<ProducerRecord<byte[], byte[]>> records) throws InterruptedException {
        Producer<byte[], byte[]> current = producer();
        List<Future<RecordMetadata>> futures = new ArrayList<>(records.size());
        try {
            String unreachable = null;
            for (ProducerRecord<byte[], byte[]> record : records) {
                if (unreachable != null) {
                    futures.add(null);
                    continue;
                }
                Future<RecordMetadata> future = current.send(record);
                futures.add(future);
                unreachable = metadataTimeout(future);
            }
            current.flush();
            List<Delivery> outcomes = new ArrayList<>(records.size());
            boolean producerBroken = false;
            for (Future<RecordMetadata> future : futures) {
                if (future == null) {
                    outcomes.add(Delivery.retry(unreachable));
                    continue;
                }
                Throwable failure = failure(future);
                if (failure == null) {
                    outcomes.add(Delivery.published());
                } else {
                    String error = describe(failure);
                    outcomes.add(refusedForGood(failure) ? Delivery.refused(error) : Delivery.retry(error));
                    // an idempotent producer that met a fatal error fails every later send
                    producerBroken |= !(failure instanceof RetriableException) && !recordLevel(failure);
                }
            }
            if (producerBroken) {
                log.warn("relay replaces its Kafka producer for {} after a non-retriable error", servers);
                discard(current);
            }
            return outcomes;
        } catch (KafkaException | IllegalStateException e) {
            discard(current);
            throw e;
        }
    }

    /** @return why the cluster is unreachable when this send already failed waiting for metadata, else {@code null} */
    private static String metadataTimeout(Future<RecordMetadata> future) throws InterruptedException {
        if (!future.isDone()) {
            return null;
        }
        try {
            future.get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause() instanceof TimeoutException ? describe(e.getCause()) : null;
        }
    }

    /** @return why the record was not acknowledged, or {@code null} when it was */
    private static Throwable failure(Future<RecordMetadata> future) throws InterruptedException {
        try {
            future.get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private static String describe(Throwable error) {
        return error.getClass().getSimpleName() + ": " + error.getMessage();
    }

    /** The errors the same record meets again on every try; everything else may pass. */
    private static boolean refusedForGood(Throwable cause) {
        return recordLevel(cause) || cause instanceof AuthorizationException;
    }

    /** Errors of one record or topic, which leave the producer usable. */
    private static boolean recordLevel(Throwable cause) {
        return cause instanceof RecordTooLargeException || cause instanceof RecordBatchTooLargeException
                || cause instanceof InvalidTopicException || cause instanceof InvalidRecordException
                || cause instanceof TopicAuthorizationException;
    }

    private synchronized Producer<byte[], byte[]> producer() {
        if (producer == null) {
            producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
            log.info("relay producer ready for Kafka {}", servers);
        }
        return producer;
    }

    private synchronized void discard(Producer<byte[], byte[]> failed) {
        if (producer == failed) {
            producer = null;
        }
        failed.close(Duration.ZERO);
    }

    @Override
    public synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
        }
    }
}
