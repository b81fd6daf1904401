package dev.onebeat.scheduler.transport.dramatiq;

import com.rabbitmq.client.AMQP;
import dev.onebeat.scheduler.relay.BrokerType;
import dev.onebeat.scheduler.relay.QueueRoute;
import dev.onebeat.scheduler.relay.Transport;
import dev.onebeat.scheduler.relay.TransportContext;
import dev.onebeat.scheduler.relay.TransportProvider;
import dev.onebeat.scheduler.transport.OutboundTask;
import dev.onebeat.scheduler.transport.Payloads;
import dev.onebeat.scheduler.transport.amqp.AmqpClient;
import dev.onebeat.scheduler.transport.amqp.AmqpMessage;
import dev.onebeat.scheduler.transport.redis.RedisClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * {@code transport: dramatiq}: a Dramatiq message for the actor named by the task, to RabbitMQ (the
 * three queues Dramatiq declares, mandatory, confirmed) or to Redis ({@code HSET} then {@code RPUSH}
 * in one transaction, under {@code options.namespace}, default {@code dramatiq}).
 */
@Component
public class DramatiqTransportProvider implements TransportProvider {

    /** Route option: the Redis key namespace. */
    static final String NAMESPACE = "namespace";

    @Override
    public String name() {
        return "dramatiq";
    }

    @Override
    public Set<BrokerType> brokerTypes() {
        return Set.of(BrokerType.RABBITMQ, BrokerType.REDIS);
    }

    @Override
    public Transport create(QueueRoute route, TransportContext context) {
        if (route.broker().type() == BrokerType.REDIS) {
            String namespace = route.option(NAMESPACE, DramatiqEncoder.DEFAULT_NAMESPACE);
            RedisClient redis = context.shared(RedisClient.class, () -> RedisClient.open(route.broker()));
            return tasks -> redis.execute(tasks, task -> {
                String[] payload = Payloads.split(task);
                // Dramatiq draws the Redis message id afresh per enqueue; so does the relay
                return DramatiqEncoder.redis(namespace, task.task(), task.queue(), task.key(), payload[0], payload[1],
                        Instant.now(), UUID.randomUUID()).commands();
            });
        }
        AmqpClient amqp = context.shared(AmqpClient.class, () -> AmqpClient.open(route.broker()));
        List<DramatiqQueue> queues = DramatiqEncoder.queues(route.queue());
        return tasks -> {
            List<AmqpMessage> messages = new ArrayList<>(tasks.size());
            Instant now = Instant.now();
            for (OutboundTask task : tasks) {
                String[] payload = Payloads.split(task);
                DramatiqAmqpMessage message = DramatiqEncoder.amqp(task.task(), task.queue(), task.key(), payload[0],
                        payload[1], now);
                messages.add(new AmqpMessage("", message.routingKey(),
                        new AMQP.BasicProperties.Builder().deliveryMode(message.deliveryMode()).build(), message.body()));
            }
            return amqp.publish("dramatiq:" + route.queue(), channel -> {
                for (DramatiqQueue queue : queues) {
                    channel.queueDeclare(queue.name(), true, false, false, queue.arguments());
                }
            }, messages);
        };
    }
}
