package dev.onebeat.transport.testing;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The local RabbitMQ the tests publish to ({@code ONEBEAT_TEST_AMQP_URL}, default
 * {@code amqp://guest:guest@127.0.0.1:5672/%2F}). Tests make queues with unique names and delete them
 * after; a broker that is not there fails the test with a message saying so.
 */
public final class RabbitTestBroker implements AutoCloseable {

    /** The broker's URL. */
    public static final String URL = System.getenv().getOrDefault("ONEBEAT_TEST_AMQP_URL",
            "amqp://guest:guest@127.0.0.1:5672/%2F");

    private final ConnectionFactory factory = new ConnectionFactory();
    private Connection connection;
    private final Channel channel;
    private final List<String> queues = new ArrayList<>();
    private final List<String> exchanges = new ArrayList<>();

    public RabbitTestBroker() {
        this(URL);
    }

    /** @param url another broker, such as a {@link PrivateRabbit} */
    public RabbitTestBroker(String url) {
        try {
            factory.setUri(url);
            connection = factory.newConnection("onebeat-test");
            channel = connection.createChannel();
        } catch (Exception e) {
            throw new IllegalStateException("RabbitMQ is not reachable at " + url
                    + " (start it: rabbitmq-server -detached; rabbitmqctl await_startup): " + e, e);
        }
    }

    /** @return a fresh queue name, deleted (with an exchange of that name) on {@link #close()} */
    public String newQueueName(String purpose) {
        String name = "onebeat-test-" + purpose + "-" + UUID.randomUUID().toString().substring(0, 8);
        queues.add(name);
        exchanges.add(name);
        return name;
    }

    /** Declares a durable queue with no arguments, as the plain transport does. */
    public void declare(String queue) throws Exception {
        channel.queueDeclare(queue, true, false, false, null);
    }

    /** @return every message now in the queue, taken and acked */
    public List<GetResponse> drain(String queue) throws Exception {
        List<GetResponse> messages = new ArrayList<>();
        GetResponse response;
        while ((response = channel.basicGet(queue, true)) != null) {
            messages.add(response);
        }
        return messages;
    }

    /** @return how many messages wait in the queue, 0 if it does not exist */
    public long count(String queue) {
        try (Channel probe = connection.createChannel()) {
            return probe.queueDeclarePassive(queue).getMessageCount();
        } catch (Exception e) {
            return 0;
        }
    }

    /** @return the channel, for tests that need more */
    public Channel channel() {
        return channel;
    }

    @Override
    public void close() throws Exception {
        if (!connection.isOpen()) {
            // the broker restarted under the test: clean up on a new connection
            connection = factory.newConnection("onebeat-test-cleanup");
        }
        for (String queue : queues) {
            for (String suffix : List.of("", ".DQ", ".XQ")) {
                try (Channel ch = connection.createChannel()) {
                    ch.queueDelete(queue + suffix);
                }
            }
        }
        for (String exchange : exchanges) {
            try (Channel ch = connection.createChannel()) {
                ch.exchangeDelete(exchange);
            }
        }
        connection.close();
    }
}
