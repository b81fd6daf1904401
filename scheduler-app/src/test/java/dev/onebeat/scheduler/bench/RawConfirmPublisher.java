package dev.onebeat.scheduler.bench;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.celery.CeleryTransportParts;
import dev.onebeat.transport.internal.amqp.AmqpMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The raw baseline: a hand-written amqp-client publisher of messages encoded beforehand, the best
 * such a loop can do with the relay's guarantees. Each publisher has its own connection and one
 * channel in confirm mode, publishes {@code mandatory} a batch at a time and waits for the batch's
 * confirms ({@code waitForConfirmsOrDie}) before the next; several publishers share the messages
 * in equal slices, on threads of their own.
 */
final class RawConfirmPublisher implements AutoCloseable {

    private static final long CONFIRM_TIMEOUT_MILLIS = 30_000;

    private final List<Connection> connections = new ArrayList<>();
    private final List<Channel> channels = new ArrayList<>();
    private final AtomicInteger returned = new AtomicInteger();
    private final ExecutorService threads;

    private RawConfirmPublisher(int publishers) {
        this.threads = Executors.newFixedThreadPool(publishers, runnable -> {
            Thread thread = new Thread(runnable, "raw-publisher");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Opens one connection and confirm channel per publisher. */
    static RawConfirmPublisher open(String url, int publishers) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(url);
        RawConfirmPublisher raw = new RawConfirmPublisher(publishers);
        for (int i = 0; i < publishers; i++) {
            Connection connection = factory.newConnection("onebeat-bench-raw");
            raw.connections.add(connection);
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            channel.addReturnListener(message -> raw.returned.incrementAndGet());
            raw.channels.add(channel);
        }
        return raw;
    }

    /**
     * The messages the relay's {@code celery} transport publishes for {@code tasks}, with the same
     * headers, properties and body bytes.
     */
    static List<AmqpMessage> encode(List<OutboundTask> tasks, String origin) {
        List<AmqpMessage> messages = new ArrayList<>(tasks.size());
        for (OutboundTask task : tasks) {
            messages.add(CeleryTransportParts.amqpMessage(task, origin));
        }
        return messages;
    }

    /**
     * Publishes every message once, each publisher its slice, {@code batchSize} per confirm wait.
     *
     * @return messages published
     * @throws IllegalStateException if the broker returned any as unroutable, which voids the round
     */
    int publish(List<AmqpMessage> messages, int batchSize) throws Exception {
        returned.set(0);
        int publishers = channels.size();
        List<Future<?>> done = new ArrayList<>();
        for (int p = 0; p < publishers; p++) {
            Channel channel = channels.get(p);
            List<AmqpMessage> slice = messages.subList(messages.size() * p / publishers,
                    messages.size() * (p + 1) / publishers);
            done.add(threads.submit(() -> {
                publish(channel, slice, batchSize);
                return null;
            }));
        }
        for (Future<?> future : done) {
            future.get();
        }
        if (returned.get() > 0) {
            throw new IllegalStateException("the broker returned " + returned.get() + " messages as unroutable");
        }
        return messages.size();
    }

    private static void publish(Channel channel, List<AmqpMessage> messages, int batchSize) throws Exception {
        for (int from = 0; from < messages.size(); from += batchSize) {
            for (AmqpMessage message : messages.subList(from, Math.min(from + batchSize, messages.size()))) {
                channel.basicPublish(message.exchange(), message.routingKey(), true, message.properties(),
                        message.body());
            }
            channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MILLIS);
        }
    }

    @Override
    public void close() throws Exception {
        threads.shutdownNow();
        for (Connection connection : connections) {
            connection.close();
        }
    }
}
