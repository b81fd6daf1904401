package dev.onebeat.transport.kafka;

import dev.onebeat.transport.BrokerSettings;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The producer configuration of one {@code kafka} broker: the relay's defaults, then the broker's
 * {@code properties} as they are, then the two settings the relay's guarantees rest on. Checked
 * without connecting, so a bad property stops start-up instead of every publish.
 */
final class KafkaSettings {

    /**
     * The relay's defaults, each overridable: a dead broker fails a publish in seconds (the relay
     * retries with backoff) instead of blocking the relay thread for Kafka's default minutes; and
     * batches of 64 KiB, four times Kafka's default. A relay round flushes hundreds of records at
     * once (500 by default, about 670 bytes each with headers): 16 KiB batches split it into some 20
     * per round, and the publish stage took 19 ms per 1,000 records against 13–17 ms with 64 KiB,
     * the raw producer 120–150k against 170–230k records/s (BENCHMARKS.md, "Relay to Kafka"). The
     * producer's 32 MiB buffer holds a batch for 512 partitions at once: a topic of more, written to
     * all at once, wants a larger {@code buffer.memory} or a smaller {@code batch.size}.
     */
    static final Map<String, String> DEFAULTS = Map.of(
            ProducerConfig.MAX_BLOCK_MS_CONFIG, "5000",
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000",
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "15000",
            ProducerConfig.LINGER_MS_CONFIG, "5",
            ProducerConfig.BATCH_SIZE_CONFIG, "65536");

    /** {@code host:port}, the host a name, an IPv4 address or a bracketed IPv6 address. */
    private static final Pattern SERVER = Pattern.compile("(\\[[0-9a-fA-F:.]+]|[A-Za-z0-9._-]+):[0-9]{1,5}");

    private KafkaSettings() {
    }

    /**
     * @param broker a {@code kafka} broker
     * @param clientId the default {@code client.id}
     * @return the producer configuration
     * @throws IllegalArgumentException naming the broker property that is wrong
     */
    static Map<String, Object> producerConfig(BrokerSettings broker, String clientId) {
        String prefix = "onebeat.relay.brokers." + broker.name();
        requireBootstrapServers(prefix + ".url", broker.url());
        Map<String, Object> config = new LinkedHashMap<>(DEFAULTS);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        config.putAll(broker.properties());
        requireUnset(prefix, broker, ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                "the broker's url is the bootstrap server list");
        requireUnset(prefix, broker, ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                "the relay publishes without transactions");
        String idempotence = broker.properties().get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG);
        if (idempotence != null && !idempotence.trim().equalsIgnoreCase("true")) {
            throw new IllegalArgumentException(prefix + ".properties." + ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG
                    + ": the relay needs the idempotent producer (true), was '" + idempotence + "'");
        }
        String acks = broker.properties().get(ProducerConfig.ACKS_CONFIG);
        if (acks != null && !acks.trim().toLowerCase(Locale.ROOT).equals("all") && !acks.trim().equals("-1")) {
            throw new IllegalArgumentException(prefix + ".properties." + ProducerConfig.ACKS_CONFIG
                    + ": a task is published only once every in-sync replica has it, so acks must be all, was '"
                    + acks + "'");
        }
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.url());
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        Map<String, Object> parsed;
        try {
            parsed = ProducerConfig.configDef().parse(config);
        } catch (ConfigException e) {
            throw new IllegalArgumentException(prefix + ".properties: " + e.getMessage(), e);
        }
        // the combinations the idempotent producer refuses when it is built
        long inFlight = number(parsed, ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION);
        if (inFlight > 5) {
            throw new IllegalArgumentException(prefix + ".properties."
                    + ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION
                    + ": the idempotent producer allows at most 5, was " + inFlight);
        }
        long retries = number(parsed, ProducerConfig.RETRIES_CONFIG);
        if (retries < 1) {
            throw new IllegalArgumentException(prefix + ".properties." + ProducerConfig.RETRIES_CONFIG
                    + ": the idempotent producer needs at least 1, was " + retries);
        }
        long delivery = number(parsed, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG);
        long atLeast = number(parsed, ProducerConfig.LINGER_MS_CONFIG)
                + number(parsed, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG);
        if (delivery < atLeast) {
            throw new IllegalArgumentException(prefix + ".properties." + ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG
                    + ": must be at least linger.ms + request.timeout.ms (" + atLeast + "), was " + delivery);
        }
        return config;
    }

    private static long number(Map<String, Object> parsed, String property) {
        return ((Number) parsed.get(property)).longValue();
    }

    private static void requireUnset(String prefix, BrokerSettings broker, String property, String why) {
        if (broker.properties().containsKey(property)) {
            throw new IllegalArgumentException(prefix + ".properties." + property + " must not be set: " + why);
        }
    }

    private static void requireBootstrapServers(String path, String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException(path + " is missing: give the bootstrap servers, host:port[,host:port]");
        }
        for (String server : url.split(",")) {
            String trimmed = server.trim();
            if (!SERVER.matcher(trimmed).matches()) {
                throw new IllegalArgumentException(path + ": '" + trimmed
                        + "' is not host:port; give the bootstrap servers, host:port[,host:port], was '" + url + "'");
            }
        }
    }
}
