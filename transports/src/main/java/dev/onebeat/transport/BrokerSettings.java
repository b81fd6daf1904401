package dev.onebeat.transport;

import java.util.Map;
import java.util.Objects;

/**
 * One broker connection as configured under {@code onebeat.relay.brokers.<name>}.
 *
 * @param name the key in configuration
 * @param type what it is
 * @param url where it is (see {@link BrokerType} for the form of each)
 * @param properties client settings passed on as they are (Kafka producer properties, HTTP headers)
 */
public record BrokerSettings(String name, BrokerType type, String url, Map<String, String> properties) {

    public BrokerSettings {
        Objects.requireNonNull(name, "name must not be null");
        Objects.requireNonNull(type, "type must not be null");
        properties = properties == null ? Map.of() : Map.copyOf(properties);
    }

    /** @return the URL without a password, for logs */
    public String safeUrl() {
        return url == null ? null : url.replaceAll("(//[^:/@]*:)[^@/]*@", "$1****@");
    }
}
