package dev.onebeat.transport.celery;

import dev.onebeat.job.DeliveryOptions;
import java.util.Map;

/**
 * What kombu declares before Celery publishes to a queue: by default a durable direct exchange named
 * like the queue, the durable queue with no arguments, and a binding keyed by the queue name; a route's
 * options may name another exchange, type, routing key and the queue's arguments. Declaring the
 * same from Java keeps messages published before any worker started from being dropped as
 * unroutable; any difference in arguments ({@code x-max-priority}, {@code x-queue-type}) makes
 * RabbitMQ refuse the declaration with 406 and close the channel.
 *
 * @param exchange exchange name: the queue name, or the route's {@code exchange}
 * @param exchangeType {@code direct}, or the route's {@code exchange-type}
 * @param exchangeDurable {@code true}
 * @param queue queue name
 * @param queueDurable {@code true}
 * @param queueExclusive {@code false}
 * @param queueAutoDelete {@code false}
 * @param queueArguments empty, as Celery's default queue has none, or the route's {@code queue-arguments}
 * @param bindingKey the queue name, or the route's {@code routing-key}
 */
record CeleryQueueDeclaration(String exchange, String exchangeType, boolean exchangeDurable, String queue,
                                     boolean queueDurable, boolean queueExclusive, boolean queueAutoDelete,
                                     Map<String, Object> queueArguments, String bindingKey) {

    public CeleryQueueDeclaration {
        queueArguments = Map.copyOf(queueArguments);
    }

    static CeleryQueueDeclaration of(String queue) {
        return new CeleryQueueDeclaration(queue, "direct", true, queue, true, false, false, Map.of(), queue);
    }

    /**
     * What a worker whose {@code task_queues} hold {@code Queue(queue, Exchange(exchange, type), routing_key,
     * queue_arguments=...)} declares: the route's {@code exchange} (default: the queue name), {@code exchange-type},
     * {@code routing-key} (default: the queue name) and {@code queue-arguments}.
     */
    static CeleryQueueDeclaration of(String queue, CeleryRouteOptions options) {
        DeliveryOptions delivery = options.delivery();
        return new CeleryQueueDeclaration(delivery.exchange() == null ? queue : delivery.exchange(),
                options.exchangeType(), true, queue, true, false, false, options.queueArguments(),
                delivery.routingKey() == null ? queue : delivery.routingKey());
    }
}
