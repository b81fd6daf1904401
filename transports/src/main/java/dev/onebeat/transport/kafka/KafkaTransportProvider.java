package dev.onebeat.transport.kafka;

import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TaskJson;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.TransportContext;
import dev.onebeat.transport.TransportProvider;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * {@code transport: kafka}: each task a record whose value is its {@link TaskJson}, keyed by its
 * business entity ({@code type:id}, so one entity's tasks stay ordered in one partition) or else by
 * its idempotency key, with headers {@code idempotency-key}, {@code onebeat-job},
 * {@code onebeat-scheduled-at} and {@code onebeat-task}. A task is published once every in-sync
 * replica has it; consumers deduplicate on {@code idempotency-key}, since a relay crash between the
 * acknowledgement and its mark republishes the task.
 *
 * <p>Broker ({@code onebeat.relay.brokers.<name>}, {@code type: kafka}):
 * <ul>
 *   <li>{@code url}: the bootstrap servers, {@code host:port[,host:port]}.
 *   <li>{@code properties}: Kafka producer properties, passed as they are (for example
 *       {@code security.protocol}, {@code sasl.jaas.config}, {@code compression.type}). The relay's
 *       defaults, each overridable: {@code max.block.ms=5000}, {@code request.timeout.ms=5000},
 *       {@code delivery.timeout.ms=15000}, {@code linger.ms=5}, {@code client.id=onebeat-<node>}.
 *       Refused: {@code enable.idempotence} other than {@code true}, {@code acks} other than
 *       {@code all}, {@code bootstrap.servers} (use {@code url}), {@code transactional.id}.
 * </ul>
 *
 * <p>Route options ({@code onebeat.relay.queues.<queue>.options}):
 * <ul>
 *   <li>{@code topic}: the topic (default: the queue name). It is not created; a topic the cluster
 *       neither has nor auto-creates leaves the tasks pending, retried, with the metadata timeout
 *       in {@code last_error}.
 * </ul>
 *
 * <p>Outcomes: acknowledged → published; record too large, invalid topic, not authorized → failed;
 * any other error (cluster unreachable, timeouts, leader elections) → retried with backoff.
 */
public class KafkaTransportProvider implements TransportProvider {

    private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

    @Override
    public String name() {
        return "kafka";
    }

    @Override
    public Set<BrokerType> brokerTypes() {
        return Set.of(BrokerType.KAFKA);
    }

    @Override
    public void validate(QueueRoute route) {
        String topic = route.option("topic", route.queue());
        if (!TOPIC.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
            throw new IllegalArgumentException("options.topic: '" + topic + "' is not a Kafka topic name "
                    + "(1 to 249 of a-z A-Z 0-9 . _ -)" + (route.option("topic", null) == null
                    ? "; the queue name is the default, set options.topic" : ""));
        }
        KafkaSettings.producerConfig(route.broker(), "onebeat");
    }

    @Override
    public Transport create(QueueRoute route, TransportContext context) {
        KafkaClient kafka = context.shared(KafkaClient.class,
                () -> KafkaClient.open(route.broker(), "onebeat-" + context.node()));
        String topic = route.option("topic", route.queue());
        return tasks -> kafka.publish(tasks.stream().map(task -> KafkaRecords.record(topic, task)).toList());
    }
}
