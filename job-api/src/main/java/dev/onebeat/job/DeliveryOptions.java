package dev.onebeat.job;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How a task is to be delivered, for the transports that have a place for it (Celery's today): each
 * part unset ({@code null}, or no headers) takes the queue route's setting, then the transport's
 * default. Set on a {@link TaskRequest}, on a declarative job ({@code options:}) or on a queue route.
 *
 * @param expires how long after the fire's <em>scheduled</em> instant the task is still worth running,
 *     or {@code null}: Celery's {@code expires}, so a backlog sent late after an outage is revoked by the
 *     worker instead of run stale; positive. For a fire an operator asked for (a backfill, a re-run, a
 *     "run now"), whose instant may be long past, it counts from the moment the fire ran instead
 * @param priority the message priority, 0 to 255, or {@code null}; RabbitMQ honours it on a queue
 *     declared with {@code x-max-priority}, Celery on Redis maps it to its priority steps
 * @param exchange the exchange to publish to (RabbitMQ), or {@code null} for the route's
 * @param routingKey the routing key (RabbitMQ), or {@code null} for the route's
 * @param headers extra message headers, by name; never one the transport sets itself
 */
public record DeliveryOptions(Duration expires, Integer priority, String exchange, String routingKey,
                              Map<String, String> headers) {

    /** Nothing set. */
    public static final DeliveryOptions NONE = new DeliveryOptions(null, null, null, null, Map.of());

    /** The highest priority AMQP 0-9-1 can carry. */
    public static final int MAX_PRIORITY = 255;

    // Celery's protocol 2 headers, which a header of the job's must not replace
    private static final Set<String> RESERVED_HEADERS = Set.of("lang", "task", "id", "shadow", "eta", "expires",
            "group", "group_index", "retries", "timelimit", "root_id", "parent_id", "argsrepr", "kwargsrepr", "origin",
            "ignore_result", "replaced_task_nesting", "stamped_headers", "stamps", "idempotency_key", "scheduled_at");

    /**
     * @throws IllegalArgumentException naming the part ({@code expires}, {@code priority}, {@code headers.<name>})
     *     and the value that is wrong
     */
    public DeliveryOptions {
        if (expires != null && (expires.isNegative() || expires.isZero())) {
            throw new IllegalArgumentException("expires: must be positive, was " + expires);
        }
        if (priority != null && (priority < 0 || priority > MAX_PRIORITY)) {
            throw new IllegalArgumentException("priority: must be 0 to " + MAX_PRIORITY + ", was " + priority);
        }
        exchange = blankToNull("exchange", exchange);
        routingKey = blankToNull("routing-key", routingKey);
        Map<String, String> copy = new LinkedHashMap<>();
        (headers == null ? Map.<String, String>of() : headers).forEach((name, value) -> {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("headers: a header name must not be blank");
            }
            if (RESERVED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("headers." + name + ": the transport sets this header itself");
            }
            if (value == null) {
                throw new IllegalArgumentException("headers." + name + ": must not be null");
            }
            copy.put(name, value);
        });
        headers = Collections.unmodifiableMap(copy);
    }

    private static String blankToNull(String part, String value) {
        if (value != null && value.isBlank()) {
            throw new IllegalArgumentException(part + ": must not be blank; leave it out for the route's");
        }
        return value;
    }

    /** @return whether nothing is set */
    public boolean isEmpty() {
        return expires == null && priority == null && exchange == null && routingKey == null && headers.isEmpty();
    }

    /**
     * @param defaults what applies where this sets nothing, such as the queue route's options
     * @return this over {@code defaults}: each part set here wins, headers are merged (this one's win)
     */
    public DeliveryOptions over(DeliveryOptions defaults) {
        Map<String, String> merged = new LinkedHashMap<>(defaults.headers);
        merged.putAll(headers);
        return new DeliveryOptions(expires != null ? expires : defaults.expires,
                priority != null ? priority : defaults.priority, exchange != null ? exchange : defaults.exchange,
                routingKey != null ? routingKey : defaults.routingKey, merged);
    }
}
