package dev.onebeat.scheduler.engine.relay;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the relay ({@code onebeat.relay.*}).
 *
 * @param enabled whether this replica relays; every replica may, rows are claimed with SKIP LOCKED
 * @param batchSize rows claimed and published per round
 * @param concurrency relay threads per broker on this replica; while one publishes, another claims
 *     and marks, and the broker connection is shared
 * @param pollInterval how often an idle relay looks for due rows; a committed fire wakes it at once
 * @param claimLease how long a claim's transaction may sit idle before the server ends it and frees its
 *     rows for another relay; a publish longer than this keeps its claim, a relay stalled longer loses it
 * @param retryInitial the longest wait after a first failed publish (the wait is random below it)
 * @param retryMax the longest wait between retries while a broker stays down
 * @param drainTimeout at shutdown, once the last fires have committed, how long the relay may go on
 *     publishing what is due before it stops; what is left waits for the next start or another replica
 * @param unrouted what happens to a queue not listed in {@code queues}: {@code database} keeps its
 *     tasks in the in-database queue, {@code reject} fails the fire that dispatches to it
 * @param onPublish what becomes of a task's row once its broker confirmed it: {@code mark} marks it
 *     published, kept for the console and the API until {@code onebeat.retention.published-tasks}; {@code delete}
 *     deletes it in the same transaction, which takes the relay's database work down to about 40 %, and the
 *     console's and the API's task lists then show no published task
 * @param gaugeInterval how often the pending-task gauges are refreshed from the table
 * @param brokers broker connections by name
 * @param queues routes by queue name
 */
@Validated
@ConfigurationProperties("onebeat.relay")
public record RelayProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("500") @Min(1) @Max(10_000) int batchSize,
        @DefaultValue("2") @Min(1) @Max(16) int concurrency,
        @DefaultValue("1s") @NotNull Duration pollInterval,
        @DefaultValue("60s") @NotNull Duration claimLease,
        @DefaultValue("500ms") @NotNull Duration retryInitial,
        @DefaultValue("15s") @NotNull Duration retryMax,
        @DefaultValue("10s") @NotNull Duration drainTimeout,
        @DefaultValue("database") @NotNull String unrouted,
        @DefaultValue("mark") @NotNull String onPublish,
        @DefaultValue("10s") @NotNull Duration gaugeInterval,
        Map<String, Broker> brokers,
        Map<String, Route> queues) {

    /** The {@code on-publish} that marks a published row, the default. */
    public static final String MARK = "mark";

    /** The {@code on-publish} that deletes a published row. */
    public static final String DELETE = "delete";

    public RelayProperties {
        brokers = brokers == null ? Map.of() : brokers;
        queues = queues == null ? Map.of() : queues;
    }

    /**
     * The settings as Boot binds them when nothing is configured: each default is stated once, in the
     * {@code @DefaultValue}s above, and tests start from here instead of repeating them.
     *
     * @return every default, no broker and no queue
     */
    public static RelayProperties defaults() {
        return new Binder(new MapConfigurationPropertySource()).bindOrCreate("onebeat.relay", RelayProperties.class);
    }

    /** @return these settings with the given brokers and routes */
    public RelayProperties withRoutes(Map<String, Broker> brokers, Map<String, Route> queues) {
        return new RelayProperties(enabled, batchSize, concurrency, pollInterval, claimLease, retryInitial, retryMax,
                drainTimeout, unrouted, onPublish, gaugeInterval, brokers, queues);
    }

    /** @return these settings with another batch size and loops per broker */
    public RelayProperties withBatching(int batchSize, int concurrency) {
        return new RelayProperties(enabled, batchSize, concurrency, pollInterval, claimLease, retryInitial, retryMax,
                drainTimeout, unrouted, onPublish, gaugeInterval, brokers, queues);
    }

    /** @return these settings with another {@code on-publish}: {@link #MARK} or {@link #DELETE} */
    public RelayProperties withOnPublish(String onPublish) {
        return new RelayProperties(enabled, batchSize, concurrency, pollInterval, claimLease, retryInitial, retryMax,
                drainTimeout, unrouted, onPublish, gaugeInterval, brokers, queues);
    }

    /** @return these settings with another {@code unrouted} policy */
    public RelayProperties withUnrouted(String unrouted) {
        return new RelayProperties(enabled, batchSize, concurrency, pollInterval, claimLease, retryInitial, retryMax,
                drainTimeout, unrouted, onPublish, gaugeInterval, brokers, queues);
    }

    /**
     * A broker connection.
     *
     * @param type {@code rabbitmq}, {@code redis}, {@code kafka} or {@code http}
     * @param url where it is
     * @param properties client settings passed on as they are
     */
    public record Broker(String type, String url, Map<String, String> properties) {
    }

    /**
     * A queue's route.
     *
     * @param transport the transport name
     * @param broker the broker connection's name; not for {@code database}
     * @param options transport options
     */
    public record Route(String transport, String broker, Map<String, String> options) {
    }
}
