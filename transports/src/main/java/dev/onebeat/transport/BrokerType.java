package dev.onebeat.transport;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The kinds of broker connection a route can name. */
public enum BrokerType {
    /** AMQP 0-9-1; {@code url} such as {@code amqp://guest:guest@localhost:5672/}. */
    RABBITMQ,
    /** Redis; {@code url} such as {@code redis://localhost:6379/0}. */
    REDIS,
    /** Kafka; {@code url} is the bootstrap server list {@code host:port,host:port}. */
    KAFKA,
    /** HTTP endpoints; {@code url} is the base the routes' paths are resolved against. */
    HTTP;

    /** @return the lower-case name used in configuration */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param value a configured type, any case
     * @return the type
     * @throws IllegalArgumentException naming the value and the known types
     */
    public static BrokerType parse(String value) {
        for (BrokerType type : values()) {
            if (type.configName().equalsIgnoreCase(value == null ? "" : value.trim())) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown broker type '" + value + "'; known types: "
                + Arrays.stream(values()).map(BrokerType::configName).collect(Collectors.joining(", ")));
    }
}
