package dev.onebeat.transport.dramatiq;

import java.util.List;
import java.util.Objects;

/**
 * A Dramatiq message ready for RabbitMQ: published to the default exchange ({@code ""}) with the
 * queue as routing key, persistent, {@code mandatory} and confirmed, and with no other property:
 * no headers, content type or correlation id.
 *
 * @param routingKey the queue name
 * @param body the message JSON, UTF-8
 * @param deliveryMode always 2, persistent
 * @param queues the queue, its delay queue and its dead-letter queue, to declare before publishing
 */
record DramatiqAmqpMessage(String routingKey, byte[] body, int deliveryMode, List<DramatiqQueue> queues) {

    /** Copies the body and the queues. */
    public DramatiqAmqpMessage {
        Objects.requireNonNull(routingKey, "routingKey must not be null");
        body = Objects.requireNonNull(body, "body must not be null").clone();
        queues = List.copyOf(Objects.requireNonNull(queues, "queues must not be null"));
    }

    /** @return a copy of the body */
    @Override
    public byte[] body() {
        return body.clone();
    }
}
