package dev.onebeat.transport;

import java.util.Map;
import java.util.Objects;

/**
 * Where the tasks of one queue go, as configured under {@code onebeat.relay.queues.<queue>}.
 *
 * @param queue the queue name tasks are dispatched to
 * @param transport the transport name, {@code database} for the in-database queue
 * @param broker the broker connection, or {@code null} for {@code database}
 * @param options transport options (such as a Kafka topic or an arq queue name), as configured
 */
public record QueueRoute(String queue, String transport, BrokerSettings broker, Map<String, String> options) {

    /** The transport name of the in-database queue, which publishes nothing. */
    public static final String DATABASE = "database";

    public QueueRoute {
        Objects.requireNonNull(queue, "queue must not be null");
        Objects.requireNonNull(transport, "transport must not be null");
        options = options == null ? Map.of() : Map.copyOf(options);
    }

    /** @return whether the relay publishes this queue; the in-database queue stays in the table */
    public boolean relayed() {
        return !DATABASE.equals(transport);
    }

    /**
     * @param name an option name
     * @param fallback its default
     * @return the configured value, or the default
     */
    public String option(String name, String fallback) {
        String value = options.get(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    /** @return {@code queue=… transport=… broker=…}, for logs and errors */
    public String describe() {
        return "queue '" + queue + "' (transport " + transport + (broker == null ? "" : ", broker " + broker.name()) + ")";
    }
}
