package dev.onebeat.transport.internal.amqp;

import com.rabbitmq.client.AMQP;
import java.util.Objects;

/**
 * One {@code basic.publish}: always {@code mandatory}, so a message no queue takes comes back as an
 * error instead of vanishing.
 *
 * @param exchange the exchange, {@code ""} for the default one
 * @param routingKey the routing key
 * @param properties the message properties
 * @param body the body
 */
public record AmqpMessage(String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body) {

    public AmqpMessage {
        Objects.requireNonNull(exchange, "exchange must not be null");
        Objects.requireNonNull(routingKey, "routingKey must not be null");
        Objects.requireNonNull(properties, "properties must not be null");
        Objects.requireNonNull(body, "body must not be null");
    }
}
