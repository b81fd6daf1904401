package dev.onebeat.transport.celery;

import com.rabbitmq.client.AMQP;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.TransportContext;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.internal.amqp.AmqpClient;
import dev.onebeat.transport.internal.amqp.AmqpMessage;
import dev.onebeat.transport.internal.redis.RedisClient;
import dev.onebeat.transport.internal.redis.RedisCommand;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
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
            return tasks -> {
                List<CeleryMessage> built = messages(tasks, origin, options);
                List<Delivery> outcomes = redis.execute(built, message -> {
                    CeleryRedisEnvelope envelope = CeleryRedisEnvelope.of(message);
                    return List.of(RedisCommand.of("LPUSH", envelope.listKey(), envelope.json()));
                });
                reportExpired(tasks, built, outcomes, context);
                return outcomes;
            };
        }
        AmqpClient amqp = context.shared(AmqpClient.class, () -> AmqpClient.open(route.broker()));
        CeleryQueueDeclaration declaration = CeleryQueueDeclaration.of(route.queue(), options);
        AmqpClient.Declaration declare = !options.declare() ? null : channel -> {
            channel.exchangeDeclare(declaration.exchange(), declaration.exchangeType(), declaration.exchangeDurable(),
                    false, null);
            channel.queueDeclare(declaration.queue(), declaration.queueDurable(), declaration.queueExclusive(),
                    declaration.queueAutoDelete(), declaration.queueArguments().isEmpty() ? null : declaration.queueArguments());
            channel.queueBind(declaration.queue(), declaration.exchange(), declaration.bindingKey());
        };
        return tasks -> {
            List<CeleryMessage> built = messages(tasks, origin, options);
            List<Delivery> outcomes = new ArrayList<>(Collections.nCopies(tasks.size(), null));
            List<AmqpMessage> sent = new ArrayList<>(tasks.size());
            List<Integer> sentAt = new ArrayList<>(tasks.size());
            for (int i = 0; i < built.size(); i++) {
                AmqpMessage message = amqpMessage(CeleryAmqpMessage.of(built.get(i)));
                // a job's own exchange is not declared here: one missing would close the channel for the whole batch
                boolean declared = options.declare() && message.exchange().equals(declaration.exchange());
                if (!declared && !amqp.exchangeExists(message.exchange())) {
                    outcomes.set(i, Delivery.refused("exchange '" + message.exchange() + "' does not exist on the broker"
                            + " (options.exchange of the job or route); nothing was published"));
                } else {
                    sent.add(message);
                    sentAt.add(i);
                }
            }
            if (!sent.isEmpty()) {
                List<Delivery> published = amqp.publish("celery:" + route.queue(), declare, sent);
                for (int i = 0; i < sentAt.size(); i++) {
                    outcomes.set(sentAt.get(i), published.get(i));
                }
            }
            reportExpired(tasks, built, outcomes, context);
            return outcomes;
        };
    }

    /** Each task's message, with its job's delivery options over the route's. */
    private static List<CeleryMessage> messages(List<OutboundTask> tasks, String origin, CeleryRouteOptions options) {
        List<CeleryMessage> messages = new ArrayList<>(tasks.size());
        for (OutboundTask task : tasks) {
            messages.add(CeleryMessage.forRoute(task, origin, options.delivery()));
        }
        return messages;
    }

    /** Tells the relay of each task the broker took although it had expired: the worker will revoke it. */
    private static void reportExpired(List<OutboundTask> tasks, List<CeleryMessage> messages, List<Delivery> outcomes,
                                      TransportContext context) {
        Instant now = Instant.now();
        for (int i = 0; i < tasks.size(); i++) {
            Instant expiresAt = messages.get(i).expiresAt();
            if (expiresAt != null && !expiresAt.isAfter(now) && outcomes.get(i).status() == Delivery.Status.PUBLISHED) {
                context.expired(tasks.get(i), expiresAt);
            }
        }
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
