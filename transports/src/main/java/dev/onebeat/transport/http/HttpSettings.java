package dev.onebeat.transport.http;

import dev.onebeat.job.Durations;
import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.QueueRoute;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads and checks the settings of the {@code http} transport: the broker's base URL and
 * {@code header.*} properties, the route's {@code path} and {@code timeout}.
 */
final class HttpSettings {

    static final String HEADER_PREFIX = "header.";
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    /** Headers the transport sets itself, lower case. */
    private static final Set<String> RESERVED = Set.of("content-type", "idempotency-key", "onebeat-job",
            "onebeat-scheduled-at", "onebeat-task");

    private HttpSettings() {
    }

    /**
     * @param route an {@code http} route
     * @throws IllegalArgumentException naming the option or broker property that is wrong
     */
    static void validate(QueueRoute route) {
        target(route);
        timeout(route);
        headers(route.broker());
    }

    /**
     * @return the broker URL with the route's {@code path} appended, one {@code /} between them
     * @throws IllegalArgumentException if the result is not an absolute http or https URL
     */
    static URI target(QueueRoute route) {
        String base = route.broker().url().trim();
        String path = route.option("path", "").trim();
        String joined = path.isEmpty() ? base : base.replaceAll("/+$", "") + "/" + path.replaceAll("^/+", "");
        String where = path.isEmpty() ? "onebeat.relay.brokers." + route.broker().name() + ".url" : "options.path";
        URI uri;
        try {
            uri = URI.create(joined);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": '" + joined + "' is not a URL: " + e.getMessage(), e);
        }
        if (!("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                || uri.getHost() == null) {
            throw new IllegalArgumentException(where + ": '" + joined
                    + "' is not an absolute http:// or https:// URL with a host");
        }
        return uri;
    }

    /** @return the route's {@code timeout}, default {@code 10s} */
    static Duration timeout(QueueRoute route) {
        String value = route.option("timeout", null);
        if (value == null) {
            return DEFAULT_TIMEOUT;
        }
        Duration timeout;
        try {
            timeout = Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("options.timeout: not a duration: '" + value + "'", e);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("options.timeout: must be positive, was '" + value + "'");
        }
        return timeout;
    }

    /**
     * @return the extra request headers of the broker's {@code header.<Name>} properties
     * @throws IllegalArgumentException naming a property that is not {@code header.<Name>}, a header the
     *     transport sets itself, or one Java's HTTP client does not let a caller set
     */
    static Map<String, String> headers(BrokerSettings broker) {
        Map<String, String> headers = new LinkedHashMap<>();
        HttpRequest.Builder probe = HttpRequest.newBuilder();
        broker.properties().forEach((property, value) -> {
            String path = "onebeat.relay.brokers." + broker.name() + ".properties." + property;
            if (!property.startsWith(HEADER_PREFIX) || property.length() == HEADER_PREFIX.length()) {
                throw new IllegalArgumentException(path + ": unknown property; an http broker takes "
                        + HEADER_PREFIX + "<Name> = extra request header");
            }
            String name = property.substring(HEADER_PREFIX.length());
            if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException(path + ": the transport sets " + name + " itself");
            }
            try {
                probe.header(name, value == null ? "" : value);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(path + ": not a header that can be sent: " + e.getMessage(), e);
            }
            headers.put(name, value == null ? "" : value);
        });
        return Map.copyOf(headers);
    }
}
