package dev.onebeat.transport.dramatiq;

import com.rabbitmq.client.AMQP;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TaskPayload;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.TransportContext;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.internal.amqp.AmqpClient;
import dev.onebeat.transport.internal.amqp.AmqpMessage;
import dev.onebeat.transport.internal.redis.RedisClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * {@code transport: dramatiq}: a Dramatiq message for the actor named by the task, to RabbitMQ (the
 * three queues Dramatiq declares, mandatory, confirmed) or to Redis ({@code HSET} then {@code RPUSH}
 * in one transaction, under {@code options.namespace}, default {@code dramatiq}). The readable key and
 * the scheduled instant are in the message's {@code options}.
 */
public class DramatiqTransportProvider implements TransportProvider {

    /** Route option: the Redis key namespace. */
    static final String NAMESPACE = "namespace";
    /** Route option (RabbitMQ): {@code false} publishes to queues that exist already and declares nothing. */
    static final String DECLARE = "declare";

    @Override
    public String name() {
        return "dramatiq";
    }

    @Override
    public Set<BrokerType> brokerTypes() {
        return Set.of(BrokerType.RABBITMQ, BrokerType.REDIS);
    }

    @Override
    public void validate(QueueRoute route) {
        boolean redis = route.broker().type() == BrokerType.REDIS;
        route.options().keySet().forEach(option -> {
            if (!option.equals(DECLARE) && !option.equals(NAMESPACE)) {
                throw new IllegalArgumentException("options." + option + ": unknown option of the dramatiq transport; "
                        + "known: [" + DECLARE + " (rabbitmq), " + NAMESPACE + " (redis)]");
            }
        });
        if (!redis && route.option(NAMESPACE, null) != null) {
            throw new IllegalArgumentException("options." + NAMESPACE + ": only a redis broker has it; on RabbitMQ the "
                    + "queues are named like the queue");
        }
        String declare = route.option(DECLARE, "true");
        if (!declare.equals("true") && !declare.equals("false")) {
            throw new IllegalArgumentException("options." + DECLARE + ": must be true or false, was '" + declare + "'");
        }
        if (route.broker().type() == BrokerType.REDIS && route.option(DECLARE, null) != null) {
            throw new IllegalArgumentException("options." + DECLARE + ": only a rabbitmq broker has it");
        }
    }

    @Override
    public Transport create(QueueRoute route, TransportContext context) {
        if (route.broker().type() == BrokerType.REDIS) {
            String namespace = route.option(NAMESPACE, DramatiqEncoder.DEFAULT_NAMESPACE);
            RedisClient redis = context.shared(RedisClient.class, () -> RedisClient.open(route.broker()));
            return tasks -> redis.execute(tasks, task -> {
                TaskPayload payload = task.payload();
                // Dramatiq draws the Redis message id afresh per enqueue; so does the relay
                return DramatiqEncoder.redis(namespace, task.task(), task.queue(), task.key(), task.scheduledAt(),
                        payload.argsJson(), payload.kwargsJson(), Instant.now(), UUID.randomUUID(), payload.trace())
                        .commands();
            });
        }
        AmqpClient amqp = context.shared(AmqpClient.class, () -> AmqpClient.open(route.broker()));
        List<DramatiqQueue> queues = DramatiqEncoder.queues(route.queue());
        return tasks -> {
            List<AmqpMessage> messages = new ArrayList<>(tasks.size());
            Instant now = Instant.now();
            for (OutboundTask task : tasks) {
                TaskPayload payload = task.payload();
                DramatiqAmqpMessage message = DramatiqEncoder.amqp(task.task(), task.queue(), task.key(),
                        task.scheduledAt(), payload.argsJson(), payload.kwargsJson(), now, payload.trace());
                messages.add(new AmqpMessage("", message.routingKey(),
                        new AMQP.BasicProperties.Builder().deliveryMode(message.deliveryMode()).build(), message.body()));
            }
            return amqp.publish("dramatiq:" + route.queue(), !Boolean.parseBoolean(route.option(DECLARE, "true")) ? null : channel -> {
                for (DramatiqQueue queue : queues) {
                    channel.queueDeclare(queue.name(), true, false, false, queue.arguments());
                }
            }, messages);
        };
    }
}
