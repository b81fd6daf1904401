package dev.onebeat.scheduler.engine.cluster;

import dev.onebeat.transport.testing.RabbitTestBroker;
import java.util.List;
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

    /** What the consumer has seen so far, counted on one copy so that the three numbers agree. */
    record Seen(long keys, long deliveries, long duplicateKeys) {
    }

    Seen seen() {
        List<Integer> counts = List.copyOf(deliveries.values());
        return new Seen(counts.size(), counts.stream().mapToLong(Integer::longValue).sum(),
                counts.stream().filter(count -> count > 1).count());
    }

    @Override
    public void close() throws Exception {
        broker.close();
    }
}
