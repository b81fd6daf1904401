package dev.onebeat.scheduler.bench;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.onebeat.transport.celery.CeleryTransportParts;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The benchmark's RabbitMQ queue: a unique name, declared as Celery declares it (a durable direct
 * exchange and queue of that name), emptied between rounds, and deleted at the end, also on Ctrl-C.
 */
final class BenchQueue implements AutoCloseable {

    private final Connection connection;
    private final Channel channel;
    private final String name;
    private final String version;

    private BenchQueue(Connection connection, Channel channel, String name) {
        this.connection = connection;
        this.channel = channel;
        this.name = name;
        this.version = String.valueOf(connection.getServerProperties().get("version"));
    }

    /** @throws IllegalStateException if the broker is not there, saying where it was looked for */
    static BenchQueue create(String url) {
        String name = "onebeat-bench-relay-" + UUID.randomUUID().toString().substring(0, 8);
        try {
            ConnectionFactory factory = new ConnectionFactory();
            factory.setUri(url);
            Connection connection = factory.newConnection("onebeat-bench-queue");
            BenchQueue queue = new BenchQueue(connection, connection.createChannel(), name);
            Runtime.getRuntime().addShutdownHook(new Thread(queue::close, "delete-" + name));
            return queue;
        } catch (Exception e) {
            throw new IllegalStateException("RabbitMQ is not reachable at " + url.replaceAll("(//[^:/@]*:)[^@/]*@", "$1****@")
                    + " (" + RelayOptions.AMQP_URL_VARIABLE + "): " + e, e);
        }
    }

    String name() {
        return name;
    }

    /** @return the broker's version, as it announces it */
    String version() {
        return version;
    }

    /** Declares the exchange, queue and binding Celery declares for {@code queue}, as the relay does on its first publish. */
    void declareAsCelery(String queue) throws Exception {
        CeleryTransportParts.declare(channel, queue);
    }

    void purge() throws Exception {
        channel.queuePurge(name);
    }

    /** @throws IllegalStateException unless exactly {@code expected} messages wait in the queue */
    void requireCount(long expected, String after) throws Exception {
        long count = channel.queueDeclarePassive(name).getMessageCount();
        if (count != expected) {
            throw new IllegalStateException("after " + after + " the queue holds " + count + " messages, expected "
                    + expected);
        }
    }

    /**
     * Consumes the queue on a channel of its own, noting when each message arrives.
     *
     * @return the arrival times ({@link System#nanoTime()}), one per message, in order
     */
    BlockingQueue<Long> arrivals() throws Exception {
        BlockingQueue<Long> arrivals = new LinkedBlockingQueue<>();
        Channel consumer = connection.createChannel();
        consumer.basicConsume(name, true, (tag, delivery) -> arrivals.add(System.nanoTime()), tag -> { });
        return arrivals;
    }

    /** Deletes the queue and its exchange. */
    @Override
    public synchronized void close() {
        if (!connection.isOpen()) {
            return;
        }
        try {
            channel.queueDelete(name);
            channel.exchangeDelete(name);
            connection.close();
        } catch (Exception e) {
            System.err.println("could not delete queue and exchange " + name + ": " + e);
        }
    }
}
