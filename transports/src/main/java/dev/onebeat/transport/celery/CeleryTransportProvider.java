package dev.onebeat.transport.celery;

import com.rabbitmq.client.AMQP;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.Payloads;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.TransportContext;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.amqp.AmqpClient;
import dev.onebeat.transport.amqp.AmqpMessage;
import dev.onebeat.transport.redis.RedisClient;
import dev.onebeat.transport.redis.RedisCommand;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code transport: celery}: Celery protocol 2, what {@code send_task} publishes, to RabbitMQ
 * (declared like kombu declares it, mandatory, confirmed) or to Redis (kombu's envelope, pushed when
 * due: never a broker-side ETA). The task id is the UUIDv5 of the idempotency key, which also travels
 * readable in the {@code idempotency_key} header, beside the scheduled instant in {@code scheduled_at}.
 * The route's queue is the Celery queue name.
 */
public class CeleryTransportProvider implements TransportProvider {

    @Override
    public String name() {
        return "celery";
    }

    @Override
    public Set<BrokerType> brokerTypes() {
        return Set.of(BrokerType.RABBITMQ, BrokerType.REDIS);
    }

    @Override
    public void validate(QueueRoute route) {
        CeleryRouteOptions.of(route);
    }

    @Override
    public Transport create(QueueRoute route, TransportContext context) {
        String origin = "onebeat@" + context.node();
        CeleryRouteOptions options = CeleryRouteOptions.of(route);
        if (route.broker().type() == BrokerType.REDIS) {
            RedisClient redis = context.shared(RedisClient.class, () -> RedisClient.open(route.broker()));
            return tasks -> redis.execute(tasks, task -> {
                CeleryRedisEnvelope envelope = CeleryRedisEnvelope.of(message(task, origin, options, context));
                return List.of(RedisCommand.of("LPUSH", envelope.listKey(), envelope.json()));
            });
        }
        AmqpClient amqp = context.shared(AmqpClient.class, () -> AmqpClient.open(route.broker()));
        CeleryQueueDeclaration declaration = CeleryQueueDeclaration.of(route.queue(), options);
        return tasks -> {
            List<AmqpMessage> messages = new ArrayList<>(tasks.size());
            for (OutboundTask task : tasks) {
                messages.add(amqpMessage(CeleryAmqpMessage.of(message(task, origin, options, context))));
            }
            return amqp.publish("celery:" + route.queue(), !options.declare() ? null : channel -> {
                channel.exchangeDeclare(declaration.exchange(), declaration.exchangeType(), declaration.exchangeDurable(),
                        false, null);
                channel.queueDeclare(declaration.queue(), declaration.queueDurable(), declaration.queueExclusive(),
                        declaration.queueAutoDelete(), declaration.queueArguments().isEmpty() ? null : declaration.queueArguments());
                channel.queueBind(declaration.queue(), declaration.exchange(), declaration.bindingKey());
            }, messages);
        };
    }

    /** The task's message with its own delivery options over the route's; one already past its expiry is reported. */
    private static CeleryMessage message(OutboundTask task, String origin, CeleryRouteOptions options,
                                         TransportContext context) {
        CeleryMessage message = CeleryMessage.of(task, origin, Payloads.delivery(task).over(options.delivery()));
        if (message.expiresAt() != null && !message.expiresAt().isAfter(Instant.now())) {
            context.expired(task, message.expiresAt());
        }
        return message;
    }

    static AmqpMessage amqpMessage(CeleryAmqpMessage message) {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder()
                .contentType(message.contentType())
                .contentEncoding(message.contentEncoding())
                .deliveryMode(message.deliveryMode())
                .priority(message.priority())
                .correlationId(message.correlationId())
                .headers(message.headers())
                .build();
        return new AmqpMessage(message.exchange(), message.routingKey(), properties, message.body());
    }
}
