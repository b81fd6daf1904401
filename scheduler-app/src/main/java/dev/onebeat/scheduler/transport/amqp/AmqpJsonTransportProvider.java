package dev.onebeat.scheduler.transport.amqp;

import com.rabbitmq.client.AMQP;
import dev.onebeat.scheduler.relay.BrokerType;
import dev.onebeat.scheduler.relay.QueueRoute;
import dev.onebeat.scheduler.relay.Transport;
import dev.onebeat.scheduler.relay.TransportContext;
import dev.onebeat.scheduler.relay.TransportProvider;
import dev.onebeat.scheduler.transport.OutboundTask;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code transport: amqp}: a plain JSON message for consumers of your own, such as Spring AMQP
 * listeners. {@code message_id} is the idempotency key; headers {@code onebeat-job},
 * {@code onebeat-scheduled-at} and {@code idempotency-key} carry the fire; {@code type} is the task
 * name. Published mandatory with confirms.
 *
 * <p>Options: {@code exchange} (default {@code ""}, the default exchange), {@code routing-key}
 * (default: the queue name) and {@code declare-queue} (default {@code true}: with the default
 * exchange, a durable queue named like the routing key is declared first).
 */
@Component
public class AmqpJsonTransportProvider implements TransportProvider {

    /** Header with the job name. */
    public static final String JOB_HEADER = "onebeat-job";
    /** Header with the fire's logical scheduled time, ISO-8601 UTC. */
    public static final String SCHEDULED_AT_HEADER = "onebeat-scheduled-at";
    /** Header with the readable idempotency key. */
    public static final String KEY_HEADER = "idempotency-key";

    private static final JsonMapper JSON = JsonMapper.builder().build();

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
                messages.add(new AmqpMessage(exchange, routingKey, properties(task, now), body(task)));
            }
            return amqp.publish("amqp:" + routingKey, declare ? channel ->
                    channel.queueDeclare(routingKey, true, false, false, null) : null, messages);
        };
    }

    static AMQP.BasicProperties properties(OutboundTask task, Date now) {
        Map<String, Object> headers = new LinkedHashMap<>();
        headers.put(JOB_HEADER, task.jobName());
        headers.put(SCHEDULED_AT_HEADER, task.scheduledAt().toString());
        headers.put(KEY_HEADER, task.key().value());
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

    /** {@code {"task", "args", "kwargs", "job", "scheduled_at", "idempotency_key", "entity"}}. */
    static byte[] body(OutboundTask task) {
        Map<String, Object> payload = JSON.readValue(task.payloadJson(), LinkedHashMap.class);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("task", task.task());
        body.put("args", payload.getOrDefault("args", List.of()));
        body.put("kwargs", payload.getOrDefault("kwargs", Map.of()));
        body.put("job", task.jobName());
        body.put("scheduled_at", task.scheduledAt().toString());
        body.put("idempotency_key", task.key().value());
        if (task.entityType() != null) {
            Map<String, Object> entity = new LinkedHashMap<>();
            entity.put("type", task.entityType());
            entity.put("id", task.entityId());
            body.put("entity", entity);
        } else {
            body.put("entity", null);
        }
        return JSON.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
    }
}
