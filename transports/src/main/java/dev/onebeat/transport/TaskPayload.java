package dev.onebeat.transport;

import dev.onebeat.job.DeliveryOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a task carries besides its names and key: its arguments, the delivery options the job set and,
 * for a fire an operator asked for, the moment its expiry counts from, and the trace it continues. The outbox stores
 * it as {@code {"args": [...], "kwargs": {...}, "delivery": {...}, "trace": {...}}} ({@link #toJson()},
 * {@link #fromJson(String)}):
 * the one place that form is written and read, so every encoder gets the fields typed and no encoder
 * parses the row again. The arguments stay JSON text because each wire format reads numbers its own way
 * (Celery keeps decimals exact, the pickle formats read Python's {@code json.loads} types).
 *
 * @param argsJson the positional arguments, a JSON array
 * @param kwargsJson the keyword arguments, a JSON object
 * @param delivery the job's delivery options, {@link DeliveryOptions#NONE} when it set none
 * @param expiresFrom when the task's {@code expires} (the job's or the route's) counts from, or {@code null} for
 *     the fire's scheduled instant; set for a fire an operator asked for (a re-run, a backfill, a "run now")
 * @param trace the trace the task continues: the fire's in the outbox, the relay's publish span in a message
 */
public record TaskPayload(String argsJson, String kwargsJson, DeliveryOptions delivery, Instant expiresFrom,
                          TraceContext trace) {

    /** The {@code delivery} field that stores {@link #expiresFrom()}, ISO-8601. */
    public static final String EXPIRES_FROM = "expires_from";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public TaskPayload {
        requireShape("argsJson", argsJson, '[', "a JSON array");
        requireShape("kwargsJson", kwargsJson, '{', "a JSON object");
        Objects.requireNonNull(delivery, "delivery must not be null");
        trace = trace == null ? TraceContext.NONE : trace;
    }

    /** A payload with no trace. */
    public TaskPayload(String argsJson, String kwargsJson, DeliveryOptions delivery, Instant expiresFrom) {
        this(argsJson, kwargsJson, delivery, expiresFrom, TraceContext.NONE);
    }

    /** @return this payload continuing {@code trace} */
    public TaskPayload withTrace(TraceContext trace) {
        return new TaskPayload(argsJson, kwargsJson, delivery, expiresFrom, trace);
    }

    /**
     * @param argsJson the positional arguments, a JSON array
     * @param kwargsJson the keyword arguments, a JSON object
     * @return a payload with no delivery options, whose expiry counts from the scheduled instant
     */
    public static TaskPayload of(String argsJson, String kwargsJson) {
        return new TaskPayload(argsJson, kwargsJson, DeliveryOptions.NONE, null);
    }

    /**
     * @param scheduledAt the scheduled instant of the task's fire
     * @return what the task's {@code expires} counts from: {@link #expiresFrom()} when set, else {@code scheduledAt}
     */
    public Instant expiryOrigin(Instant scheduledAt) {
        return expiresFrom == null ? scheduledAt : expiresFrom;
    }

    /**
     * @return the stored form, compact: {@code {"args":…,"kwargs":…}} then {@code "delivery"} with {@code expires}
     *     (ISO-8601), {@code priority}, {@code exchange}, {@code routing_key}, {@code headers} and
     *     {@value #EXPIRES_FROM}, unset parts left out and {@code delivery} itself left out when all are
     */
    public String toJson() {
        Map<String, Object> delivery = deliveryJson();
        StringBuilder json = new StringBuilder(argsJson.length() + kwargsJson.length() + 24)
                .append("{\"args\":").append(argsJson).append(",\"kwargs\":").append(kwargsJson);
        if (!delivery.isEmpty()) {
            json.append(",\"delivery\":").append(JSON.writeValueAsString(delivery));
        }
        if (trace.present()) {
            json.append(",\"trace\":").append(JSON.writeValueAsString(trace.fields()));
        }
        return json.append('}').toString();
    }

    /**
     * Reads a stored payload, as this version and every earlier one wrote it: {@code args} and {@code kwargs} may be
     * missing or {@code null} (none: every transport but Celery read them so before, and now Celery does too),
     * {@code delivery} too; other fields are ignored. The arguments are kept as the
     * text the row holds.
     *
     * @param json the stored payload
     * @return its value
     * @throws IllegalArgumentException naming the field that is malformed and its value
     */
    public static TaskPayload fromJson(String json) {
        Objects.requireNonNull(json, "payload must not be null");
        String args = "[]";
        String kwargs = "{}";
        JsonNode delivery = null;
        TraceContext trace = TraceContext.NONE;
        try (JsonParser parser = JSON.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("not a JSON object: " + abbreviated(json));
            }
            while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "args" -> args = slice(json, parser, value, JsonToken.START_ARRAY, "[]", "args", "a JSON array");
                    case "kwargs" -> kwargs = slice(json, parser, value, JsonToken.START_OBJECT, "{}", "kwargs",
                            "a JSON object");
                    case "delivery" -> delivery = parser.readValueAsTree();
                    case "trace" -> trace = trace(parser.readValueAsTree());
                    default -> parser.skipChildren();
                }
            }
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not JSON: " + abbreviated(json), e);
        }
        if (delivery == null || delivery.isNull()) {
            return new TaskPayload(args, kwargs, DeliveryOptions.NONE, null, trace);
        }
        if (!delivery.isObject()) {
            throw new IllegalArgumentException("delivery: must be a JSON object, was " + abbreviated(delivery.toString()));
        }
        return new TaskPayload(args, kwargs, delivery(delivery), expiresFrom(delivery), trace);
    }

    /** A stored trace; one that is not valid is dropped, never a reason to refuse the task. */
    private static TraceContext trace(JsonNode trace) {
        if (trace == null || !trace.isObject()) {
            return TraceContext.NONE;
        }
        JsonNode parent = trace.get(TraceContext.TRACEPARENT);
        JsonNode state = trace.get(TraceContext.TRACESTATE);
        return TraceContext.lenient(parent == null || !parent.isString() ? null : parent.asString(),
                state == null || !state.isString() ? null : state.asString());
    }

    /** The value's own text: the encoders read numbers as the row wrote them. */
    private static String slice(String json, JsonParser parser, JsonToken value, JsonToken start, String none,
                                String field, String expected) {
        if (value == JsonToken.VALUE_NULL) {
            return none;
        }
        if (value != start) {
            String text = parser.readValueAsTree().toString();
            throw new IllegalArgumentException(field + ": must be " + expected + ", was " + abbreviated(text));
        }
        int from = (int) parser.currentTokenLocation().getCharOffset();
        parser.skipChildren();
        int to = (int) parser.currentTokenLocation().getCharOffset() + 1;
        return json.substring(from, to);
    }

    private static DeliveryOptions delivery(JsonNode delivery) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> header : delivery.path("headers").properties()) {
            headers.put(header.getKey(), header.getValue().asString());
        }
        Duration expires;
        try {
            expires = delivery.hasNonNull("expires") ? Duration.parse(delivery.get("expires").asString()) : null;
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("delivery.expires: not an ISO-8601 duration: " + delivery.get("expires"), e);
        }
        return new DeliveryOptions(expires,
                delivery.hasNonNull("priority") ? delivery.get("priority").asInt() : null,
                text(delivery, "exchange"), text(delivery, "routing_key"), headers);
    }

    private static Instant expiresFrom(JsonNode delivery) {
        JsonNode from = delivery.path(EXPIRES_FROM);
        if (!from.isString()) {
            return null;
        }
        try {
            return Instant.parse(from.asString());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("delivery." + EXPIRES_FROM + ": not an ISO-8601 instant: " + from, e);
        }
    }

    private Map<String, Object> deliveryJson() {
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
        if (expiresFrom != null) {
            // written whatever the job set: a route's own expires counts from it too
            json.put(EXPIRES_FROM, expiresFrom.toString());
        }
        return json;
    }

    private static String text(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asString() : null;
    }

    private static void requireShape(String field, String json, char first, String expected) {
        Objects.requireNonNull(json, field + " must not be null");
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == first) {
                return;
            }
            if (!Character.isWhitespace(c)) {
                break;
            }
        }
        throw new IllegalArgumentException(field + ": must be " + expected + ", was " + abbreviated(json));
    }

    private static String abbreviated(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }
}
