package dev.onebeat.transport.internal.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.ReturnListener;
import com.rabbitmq.client.ShutdownSignalException;
import dev.onebeat.job.Durations;
import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.Delivery;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One RabbitMQ connection of the relay, shared by the queues routed to that broker, with one
 * channel in confirm mode. A batch is published {@code mandatory} and the call waits for every
 * confirm: a message the broker acked is published, one it returned (no queue bound) is refused, one
 * it nacked is retried. Any channel or connection error fails the whole batch and the next batch
 * opens a new channel (and connection, if that died too).
 */
public final class AmqpClient implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AmqpClient.class);

    /** {@code properties.confirm-timeout}: how long a batch waits for its confirms. */
    static final String CONFIRM_TIMEOUT = "confirm-timeout";

    /** Declares what a queue needs, once per channel. */
    @FunctionalInterface
    public interface Declaration {
        /** @param channel a fresh channel; a failure closes it */
        void declare(Channel channel) throws IOException;
    }

    private final ConnectionFactory factory;
    private final String url;
    private final Duration confirmTimeout;
    private Connection connection;
    private Channel channel;
    private final Set<String> declared = new HashSet<>();
    private final Set<String> existingExchanges = new HashSet<>();

    // filled by the listeners, read after the batch's confirms arrived
    private final NavigableSet<Long> outstanding = new TreeSet<>();
    private final Set<Long> nacked = ConcurrentHashMap.newKeySet();
    private final Map<String, String> returned = new ConcurrentHashMap<>();

    private AmqpClient(ConnectionFactory factory, String url, Duration confirmTimeout) {
        this.factory = factory;
        this.url = url;
        this.confirmTimeout = confirmTimeout;
    }

    /**
     * @param broker a {@code rabbitmq} broker: {@code url} an {@code amqp://} or {@code amqps://} URI (an
     *     empty virtual host, as in {@code amqp://host:5672/}, means {@code /});
     *     {@code properties.confirm-timeout} (default {@code 30s})
     * @return a client; it connects on the first publish
     * @throws IllegalArgumentException if the URL or a property is malformed
     */
    public static AmqpClient open(BrokerSettings broker) {
        ConnectionFactory factory = new ConnectionFactory();
        try {
            factory.setUri(broker.url());
        } catch (Exception e) {
            throw new IllegalArgumentException("onebeat.relay.brokers." + broker.name() + ".url: not an AMQP URI: "
                    + broker.safeUrl() + " (" + e.getMessage() + ")", e);
        }
        // amqp://host:5672/ names the empty virtual host, which RabbitMQ never has: read it as "/"
        // (kombu's amqp://host// is "/" already)
        if (factory.getVirtualHost().isEmpty()) {
            factory.setVirtualHost("/");
        }
        // the relay notices a dead connection on its next publish and reconnects; no background recovery
        factory.setAutomaticRecoveryEnabled(false);
        factory.setTopologyRecoveryEnabled(false);
        factory.setConnectionTimeout(5_000);
        factory.setRequestedHeartbeat(10);
        Duration timeout = Duration.ofSeconds(30);
        String configured = broker.properties().get(CONFIRM_TIMEOUT);
        if (configured != null) {
            try {
                timeout = Durations.parse(configured);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("onebeat.relay.brokers." + broker.name() + ".properties."
                        + CONFIRM_TIMEOUT + ": not a duration: '" + configured + "'", e);
            }
        }
        return new AmqpClient(factory, broker.safeUrl(), timeout);
    }

    /**
     * Whether an exchange exists, asked on a channel of its own ({@code exchange.declare passive}): publishing
     * to a missing exchange would close the publishing channel ({@code 404 NOT_FOUND}) and fail the whole
     * batch. One found is remembered while the connection lasts; one missing is asked again next time.
     *
     * @param exchange the exchange's name; {@code ""}, the default exchange, always exists
     * @return whether the broker has it
     * @throws IOException if the broker cannot be reached
     */
    public synchronized boolean exchangeExists(String exchange) throws IOException, TimeoutException {
        if (exchange.isEmpty() || existingExchanges.contains(exchange)) {
            return true;
        }
        channel();
        Channel probe = connection.createChannel();
        try {
            probe.exchangeDeclarePassive(exchange);
            existingExchanges.add(exchange);
            return true;
        } catch (IOException e) {
            if (e.getCause() instanceof ShutdownSignalException signal && !signal.isHardError()
                    && signal.getReason() instanceof AMQP.Channel.Close close && close.getReplyCode() == AMQP.NOT_FOUND) {
                return false;
            }
            throw e;
        } finally {
            if (probe.isOpen()) {
                try {
                    probe.close();
                } catch (IOException | TimeoutException | RuntimeException e) {
                    log.debug("closing the probe channel failed: {}", e.toString());
                }
            }
        }
    }

    /**
     * Publishes a batch and waits for the broker's confirms.
     *
     * @param declarationKey names what {@code declaration} declares; it runs once per channel
     * @param declaration declares the exchange and queues the messages need, or {@code null}
     * @param messages the batch
     * @return one outcome per message, in order
     * @throws IOException if the connection or channel failed: nothing of the batch counts as published
     * @throws TimeoutException if the confirms did not all arrive in time
     * @throws InterruptedException if interrupted while waiting for confirms
     */
    public synchronized List<Delivery> publish(String declarationKey, Declaration declaration, List<AmqpMessage> messages)
            throws IOException, TimeoutException, InterruptedException {
        try {
            Channel ch = channel();
            if (declaration != null && !declared.contains(declarationKey)) {
                declaration.declare(ch);
                declared.add(declarationKey);
            }
            outstanding.clear();
            nacked.clear();
            returned.clear();
            long[] tags = new long[messages.size()];
            for (int i = 0; i < messages.size(); i++) {
                AmqpMessage message = messages.get(i);
                tags[i] = ch.getNextPublishSeqNo();
                synchronized (outstanding) {
                    outstanding.add(tags[i]);
                }
                ch.basicPublish(message.exchange(), message.routingKey(), true, message.properties(), message.body());
            }
            if (!ch.waitForConfirms(confirmTimeout.toMillis())) {
                log.debug("broker nacked {} of {} messages", nacked.size(), messages.size());
            }
            List<Delivery> outcomes = new ArrayList<>(messages.size());
            for (int i = 0; i < messages.size(); i++) {
                AmqpMessage message = messages.get(i);
                String returnedBecause = returned.get(identity(message.exchange(), message.routingKey(), message.properties(),
                        message.body()));
                if (returnedBecause != null) {
                    outcomes.add(Delivery.refused(returnedBecause));
                } else if (nacked.contains(tags[i])) {
                    outcomes.add(Delivery.retry("broker nacked the message (basic.nack)"));
                } else {
                    outcomes.add(Delivery.published());
                }
            }
            return outcomes;
        } catch (IOException | TimeoutException | RuntimeException e) {
            reset();
            throw e;
        }
    }

    private Channel channel() throws IOException, TimeoutException {
        if (channel != null && channel.isOpen()) {
            return channel;
        }
        if (connection == null || !connection.isOpen()) {
            closeConnection();
            connection = factory.newConnection("onebeat-relay");
            log.info("relay connected to RabbitMQ {}", url);
        }
        channel = connection.createChannel();
        channel.confirmSelect();
        channel.addConfirmListener(new ConfirmListener() {
            @Override
            public void handleAck(long deliveryTag, boolean multiple) {
                settle(deliveryTag, multiple, false);
            }

            @Override
            public void handleNack(long deliveryTag, boolean multiple) {
                settle(deliveryTag, multiple, true);
            }
        });
        channel.addReturnListener((ReturnListener) (replyCode, replyText, exchange, routingKey, properties, body) ->
                returned.put(identity(exchange, routingKey, properties, body), "unroutable: " + replyCode + " " + replyText
                        + " (exchange '" + exchange + "', routing key '" + routingKey + "')"));
        declared.clear();
        return channel;
    }

    private void settle(long deliveryTag, boolean multiple, boolean nack) {
        synchronized (outstanding) {
            NavigableSet<Long> settled = multiple ? outstanding.headSet(deliveryTag, true)
                    : (outstanding.contains(deliveryTag) ? new TreeSet<>(Set.of(deliveryTag)) : new TreeSet<>());
            if (nack) {
                nacked.addAll(settled);
            }
            outstanding.removeAll(new ArrayList<>(settled));
        }
    }

    // a returned message is told from the batch's others by where it went and its ids: two Celery tasks
    // without arguments have the same body, but never the same correlation id (the task id)
    private static String identity(String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body) {
        String messageId = properties == null ? null : properties.getMessageId();
        String correlationId = properties == null ? null : properties.getCorrelationId();
        return exchange + '\u0000' + routingKey + '\u0000' + messageId + '\u0000'
                + correlationId + '\u0000' + body.length + '\u0000' + Arrays.hashCode(body);
    }

    private void reset() {
        if (channel != null) {
            try {
                if (channel.isOpen()) {
                    channel.close();
                }
            } catch (Exception e) {
                log.debug("closing channel failed: {}", e.toString());
            }
            channel = null;
        }
        if (connection != null && !connection.isOpen()) {
            closeConnection();
        }
        declared.clear();
        existingExchanges.clear();
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.abort(2_000);
            } catch (RuntimeException e) {
                log.debug("aborting connection failed: {}", e.toString());
            }
            connection = null;
        }
    }

    @Override
    public synchronized void close() {
        reset();
        closeConnection();
    }

}
