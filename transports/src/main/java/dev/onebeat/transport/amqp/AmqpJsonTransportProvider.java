package dev.onebeat.transport.amqp;

import com.rabbitmq.client.AMQP;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TaskJson;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.TransportContext;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.internal.amqp.AmqpClient;
import dev.onebeat.transport.internal.amqp.AmqpMessage;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code transport: amqp}: a plain JSON message ({@link TaskJson}) for consumers of your own, such
 * as Spring AMQP listeners. {@code message_id} is the idempotency key; headers {@code onebeat-job},
 * {@code onebeat-scheduled-at} and {@code idempotency-key} carry the fire; {@code type} is the task
 * name. Published mandatory with confirms.
 *
 * <p>Options: {@code exchange} (default {@code ""}, the default exchange), {@code routing-key}
 * (default: the queue name) and {@code declare-queue} (default {@code true}: with the default
 * exchange, a durable queue named like the routing key is declared first).
 */
public class AmqpJsonTransportProvider implements TransportProvider {

    @Override
    public String name() {
        return "amqp";
    }

    @Override
    public Set<BrokerType> brokerTypes() {
        return Set.of(BrokerType.RABBITMQ);
    }

    @Override
    public void validate(QueueRoute route) {
        String declare = route.option("declare-queue", "true");
        if (!declare.equals("true") && !declare.equals("false")) {
            throw new IllegalArgumentException("options.declare-queue must be true or false, was '" + declare + "'");
        }
    }

    @Override
    public Transport create(QueueRoute route, TransportContext context) {
        AmqpClient amqp = context.shared(AmqpClient.class, () -> AmqpClient.open(route.broker()));
        String exchange = route.option("exchange", "");
        String routingKey = route.option("routing-key", route.queue());
        boolean declare = exchange.isEmpty() && Boolean.parseBoolean(route.option("declare-queue", "true"));
        return tasks -> {
            List<AmqpMessage> messages = new ArrayList<>(tasks.size());
            Date now = new Date();
            for (OutboundTask task : tasks) {
                messages.add(new AmqpMessage(exchange, routingKey, properties(task, now), TaskJson.body(task)));
            }
            return amqp.publish("amqp:" + routingKey, declare ? channel ->
                    channel.queueDeclare(routingKey, true, false, false, null) : null, messages);
        };
    }

    static AMQP.BasicProperties properties(OutboundTask task, Date now) {
        Map<String, Object> headers = new LinkedHashMap<>();
        headers.put(TaskJson.JOB_HEADER, task.jobName());
        headers.put(TaskJson.SCHEDULED_AT_HEADER, task.scheduledAt().toString());
        headers.put(TaskJson.KEY_HEADER, task.key().value());
        headers.putAll(task.payload().trace().fields());
        return new AMQP.BasicProperties.Builder()
                .messageId(task.key().value())
                .contentType("application/json")
                .contentEncoding("utf-8")
                .deliveryMode(2)
                .type(task.task())
                .appId("onebeat")
                .timestamp(now)
                .headers(headers)
                .build();
    }
}
