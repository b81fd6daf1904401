package dev.onebeat.transport.celery;

import java.util.Map;

/**
 * What kombu declares before Celery publishes to a queue: a durable direct exchange named like the
 * queue, the durable queue with no arguments, and a binding keyed by the queue name. Declaring the
 * same from Java keeps messages published before any worker started from being dropped as
 * unroutable; any difference in arguments ({@code x-max-priority}, {@code x-queue-type}) makes
 * RabbitMQ refuse the declaration with 406 and close the channel.
 *
 * @param exchange exchange name, the queue name
 * @param exchangeType {@code direct}
 * @param exchangeDurable {@code true}
 * @param queue queue name
 * @param queueDurable {@code true}
 * @param queueExclusive {@code false}
 * @param queueAutoDelete {@code false}
 * @param queueArguments empty, as Celery's default queue has none
 * @param bindingKey the queue name
 */
public record CeleryQueueDeclaration(String exchange, String exchangeType, boolean exchangeDurable, String queue,
                                     boolean queueDurable, boolean queueExclusive, boolean queueAutoDelete,
                                     Map<String, Object> queueArguments, String bindingKey) {

    public CeleryQueueDeclaration {
        queueArguments = Map.copyOf(queueArguments);
    }

    static CeleryQueueDeclaration of(String queue) {
        return new CeleryQueueDeclaration(queue, "direct", true, queue, true, false, false, Map.of(), queue);
    }
}
