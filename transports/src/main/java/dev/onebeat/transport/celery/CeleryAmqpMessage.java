package dev.onebeat.transport.celery;

import dev.onebeat.job.DeliveryOptions;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A Celery task as published to RabbitMQ: {@code basic.publish} to the default exchange {@code ""}
 * with the queue name as routing key, which is what Celery does for a queue bound to a direct
 * exchange, unless the task's delivery options name an exchange or routing key. Publish it {@code mandatory} with confirms so an unroutable message is an error, not a
 * silent drop.
 *
 * <p>No {@code reply_to} (the worker reads it with {@code properties.get} for the rpc result
 * backend only), no
 * {@code message_id} (Celery sends none), no AMQP {@code expiration}: an expiry travels as Celery's own
 * {@code expires} header, which the worker checks (a broker-side TTL would drop the message unseen).
 *
 * @param exchange {@code ""}, the default exchange, or the one the delivery options name
 * @param routingKey the queue name, or the one the delivery options name
 * @param contentType {@code application/json}
 * @param contentEncoding {@code utf-8}
 * @param deliveryMode {@code 2}, persistent, as {@code task_default_delivery_mode}
 * @param priority the delivery options' priority, else {@code 0}; only matters on a queue with {@code x-max-priority}
 * @param correlationId the task id
 * @param headers for the AMQP headers table; String, Integer, Boolean, null, List and Map only,
 *                never {@code byte[]}, which py-amqp would hand the worker as bytes
 * @param body the UTF-8 JSON body
 * @param declaration what Celery declares for the queue by default; the transport declares what the route's
 *     options say ({@link CeleryQueueDeclaration#of(String, CeleryRouteOptions)})
 */
record CeleryAmqpMessage(String exchange, String routingKey, String contentType, String contentEncoding,
                                int deliveryMode, int priority, String correlationId, Map<String, Object> headers,
                                byte[] body, CeleryQueueDeclaration declaration) {

    static final int PERSISTENT = 2;

    public CeleryAmqpMessage {
        Objects.requireNonNull(exchange, "exchange must not be null");
        Objects.requireNonNull(routingKey, "routingKey must not be null");
        Objects.requireNonNull(correlationId, "correlationId must not be null");
        Objects.requireNonNull(declaration, "declaration must not be null");
        // LinkedHashMap, not Map.copyOf: Celery's headers hold nulls and keep their order
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(headers, "headers must not be null")));
        body = Objects.requireNonNull(body, "body must not be null").clone();
    }

    /**
     * @param message the protocol 2 message
     * @return its AMQP form
     */
    public static CeleryAmqpMessage of(CeleryMessage message) {
        DeliveryOptions delivery = message.delivery();
        // a routing key alone goes to the queue's own exchange, named like the queue, as Celery publishes it
        String exchange = delivery.exchange() != null ? delivery.exchange()
                : delivery.routingKey() != null ? message.queue() : "";
        String routingKey = delivery.routingKey() == null ? message.queue() : delivery.routingKey();
        return new CeleryAmqpMessage(exchange, routingKey, CeleryMessage.CONTENT_TYPE, CeleryMessage.CONTENT_ENCODING,
                PERSISTENT, delivery.priority() == null ? 0 : delivery.priority(), message.taskId(), message.headers(),
                message.body(), CeleryQueueDeclaration.of(message.queue()));
    }

    /** @return the body, a fresh copy */
    @Override
    public byte[] body() {
        return body.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CeleryAmqpMessage that
                && exchange.equals(that.exchange) && routingKey.equals(that.routingKey)
                && Objects.equals(contentType, that.contentType) && Objects.equals(contentEncoding, that.contentEncoding)
                && deliveryMode == that.deliveryMode && priority == that.priority
                && correlationId.equals(that.correlationId) && headers.equals(that.headers)
                && Arrays.equals(body, that.body) && declaration.equals(that.declaration);
    }

    @Override
    public int hashCode() {
        return Objects.hash(routingKey, correlationId, headers, Arrays.hashCode(body));
    }

    @Override
    public String toString() {
        return "CeleryAmqpMessage[routingKey=" + routingKey + ", correlationId=" + correlationId
                + ", body=" + body.length + " bytes]";
    }
}
