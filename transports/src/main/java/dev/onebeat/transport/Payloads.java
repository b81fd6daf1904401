package dev.onebeat.transport;

import dev.onebeat.job.DeliveryOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads an outbox payload {@code {"args": [...], "kwargs": {...}, "delivery": {...}}}: the two JSON
 * texts the encoders take, and the task's {@link DeliveryOptions}, written by the fire as
 * {@link #deliveryJson} makes them ({@code delivery} is left out when nothing is set).
 */
public final class Payloads {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /**
     * The {@code delivery} field saying when the task's {@code expires} (the job's or the route's) counts from, when
     * not from the scheduled instant: the moment a fire an operator asked for ran (a re-run, a backfill, a "run now"),
     * ISO-8601.
     */
    public static final String EXPIRES_FROM = "expires_from";

    private Payloads() {
    }

    /**
     * @param task a task
     * @return {@code [argsJson, kwargsJson]}; {@code []} and {@code {}} where the payload has none
     * @throws IllegalArgumentException if the payload is not a JSON object
     */
    public static String[] split(OutboundTask task) {
        JsonNode payload = object(task);
        JsonNode args = payload.get("args");
        JsonNode kwargs = payload.get("kwargs");
        return new String[] {
                args == null || args.isNull() ? "[]" : JSON.writeValueAsString(args),
                kwargs == null || kwargs.isNull() ? "{}" : JSON.writeValueAsString(kwargs)};
    }

    /**
     * @param task a task
     * @return the delivery options the job set for it, {@link DeliveryOptions#NONE} when none
     * @throws IllegalArgumentException if the payload or its {@code delivery} is malformed
     */
    public static DeliveryOptions delivery(OutboundTask task) {
        return delivery(object(task), task);
    }

    /**
     * @param payload the task's payload, parsed already (an encoder that reads it once for the arguments too)
     * @param task the task, for messages
     * @return the delivery options the job set for it, {@link DeliveryOptions#NONE} when none
     * @throws IllegalArgumentException if its {@code delivery} is malformed
     */
    public static DeliveryOptions delivery(JsonNode payload, OutboundTask task) {
        JsonNode delivery = payload.get("delivery");
        if (delivery == null || delivery.isNull()) {
            return DeliveryOptions.NONE;
        }
        Map<String, String> headers = new LinkedHashMap<>();
        JsonNode headerNode = delivery.path("headers");
        for (Map.Entry<String, JsonNode> header : headerNode.properties()) {
            headers.put(header.getKey(), header.getValue().asString());
        }
        Duration expires;
        try {
            expires = delivery.hasNonNull("expires") ? Duration.parse(delivery.get("expires").asString()) : null;
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("payload of task " + task.key().value() + ": delivery.expires is not an "
                    + "ISO-8601 duration: " + delivery.get("expires"), e);
        }
        return new DeliveryOptions(expires,
                delivery.hasNonNull("priority") ? delivery.get("priority").asInt() : null,
                text(delivery, "exchange"), text(delivery, "routing_key"), headers);
    }

    /**
     * @param payload the task's payload, parsed
     * @param task the task, for messages
     * @return when the task's expiry counts from, if the fire said ({@link #EXPIRES_FROM}); otherwise it counts from
     *     the task's scheduled instant
     * @throws IllegalArgumentException if the field is not an ISO-8601 instant
     */
    public static Optional<Instant> expiresFrom(JsonNode payload, OutboundTask task) {
        JsonNode from = payload.path("delivery").path(EXPIRES_FROM);
        if (!from.isString()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(from.asString()));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("payload of task " + task.key().value() + ": delivery." + EXPIRES_FROM
                    + " is not an ISO-8601 instant: " + from, e);
        }
    }

    /**
     * @param delivery a task's delivery options
     * @return their payload form: {@code expires} as ISO-8601, {@code priority}, {@code exchange},
     *     {@code routing_key}, {@code headers}; unset parts left out
     */
    public static Map<String, Object> deliveryJson(DeliveryOptions delivery) {
        Map<String, Object> json = new LinkedHashMap<>();
        if (delivery.expires() != null) {
            json.put("expires", delivery.expires().toString());
        }
        if (delivery.priority() != null) {
            json.put("priority", delivery.priority());
        }
        if (delivery.exchange() != null) {
            json.put("exchange", delivery.exchange());
        }
        if (delivery.routingKey() != null) {
            json.put("routing_key", delivery.routingKey());
        }
        if (!delivery.headers().isEmpty()) {
            json.put("headers", delivery.headers());
        }
        return json;
    }

    private static JsonNode object(OutboundTask task) {
        JsonNode payload = JSON.readTree(task.payloadJson());
        if (payload == null || !payload.isObject()) {
            throw new IllegalArgumentException("payload of task " + task.key().value() + " is not a JSON object");
        }
        return payload;
    }

    private static String text(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asString() : null;
    }
}
