package dev.onebeat.scheduler.cluster;

import dev.onebeat.transport.testing.RabbitTestBroker;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A uniquely named queue on the local RabbitMQ and a consumer counting, per idempotency key ({@code message_id}),
 * how many times the broker delivered it: a key seen twice is a task published twice. The queue is deleted on
 * {@link #close()}.
 */
final class BrokerKeys implements AutoCloseable {

    private final RabbitTestBroker broker = new RabbitTestBroker();
    private final Map<String, Integer> deliveries = new ConcurrentHashMap<>();
    private final String queue;

    BrokerKeys(String purpose) throws Exception {
        queue = broker.newQueueName(purpose);
        broker.declare(queue);
        broker.channel().basicConsume(queue, true,
                (tag, delivery) -> deliveries.merge(delivery.getProperties().getMessageId(), 1, Integer::sum),
                tag -> { });
    }

    /** @return the broker's queue name, the {@code routing-key} of the relayed route */
    String queue() {
        return queue;
    }

    /** @return distinct keys delivered */
    long keys() {
        return deliveries.size();
    }

    /** @return keys delivered more than once */
    long duplicateKeys() {
        return deliveries.values().stream().filter(count -> count > 1).count();
    }

    /** @return deliveries in all, duplicates included */
    long deliveries() {
        return deliveries.values().stream().mapToLong(Integer::longValue).sum();
    }

    @Override
    public void close() throws Exception {
        broker.close();
    }
}
