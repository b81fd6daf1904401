package dev.onebeat.transport.celery;

import dev.onebeat.job.DeliveryOptions;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.TaskPayload;
import dev.onebeat.transport.internal.pickle.PythonRepr;
import dev.onebeat.transport.internal.pickle.PythonTuple;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A task in Celery protocol 2, the part every broker shares: headers and the JSON body
 * {@code [args, kwargs, embed]}. The task id is the UUIDv5 of the idempotency key, so a republish
 * carries the same id; Celery does not deduplicate by id, the outbox does.
 *
 * <p>Headers are every key {@code as_task_v2} sends, in its order, plus {@code idempotency_key} and
 * {@code scheduled_at} (the fire's instant, ISO-8601 UTC). A protocol 2 worker builds the task's
 * request from the headers, so a bound task reads them as {@code self.request.idempotency_key} and
 * {@code self.request.scheduled_at}.
 * {@code eta} is always {@code null}: a broker-side ETA makes Celery over Redis run a task twice
 * once it outlasts the visibility timeout, so the relay publishes when the task is due instead.
 */
final class CeleryMessage {

    /** {@code content_type}, mandatory: without it kombu hands the worker raw bytes and it crashes. */
    public static final String CONTENT_TYPE = "application/json";
    /** {@code content_encoding}, mandatory for the same reason. */
    public static final String CONTENT_ENCODING = "utf-8";
    /** The header carrying the readable idempotency key. */
    public static final String IDEMPOTENCY_KEY_HEADER = "idempotency_key";
    /** The header carrying the fire's scheduled instant, ISO-8601 UTC ({@link java.time.Instant#toString()}). */
    public static final String SCHEDULED_AT_HEADER = "scheduled_at";
    /** The longest {@code argsrepr} or {@code kwargsrepr}, as Celery cuts them; workers only log them. */
    static final int REPR_MAX_LENGTH = 1024;
    private static final String ELLIPSIS = "...";

    private final String taskId;
    private final String idempotencyKey;
    private final String queue;
    private final Map<String, Object> headers;
    private final byte[] body;
    private final DeliveryOptions delivery;
    private final Instant expiresAt;

    private CeleryMessage(String taskId, String idempotencyKey, String queue, Map<String, Object> headers, byte[] body,
                          DeliveryOptions delivery, Instant expiresAt) {
        this.taskId = taskId;
        this.idempotencyKey = idempotencyKey;
        this.queue = queue;
        this.headers = headers;
        this.body = body;
        this.delivery = delivery;
        this.expiresAt = expiresAt;
    }

    /**
     * @param task the task to encode
     * @param origin node name for the {@code origin} header, like Celery's {@code gen<pid>@<host>}
     * @return the message
     * @throws IllegalArgumentException if the payload is not {@code {"args": [...], "kwargs": {...}}}
     */
    public static CeleryMessage of(OutboundTask task, String origin) {
        return of(task, origin, DeliveryOptions.NONE);
    }

    /**
     * @param task the task to encode
     * @param origin the {@code origin} header, such as {@code onebeat@<node>}
     * @param delivery its delivery options, the job's over the route's: {@code expires} becomes the
     *     {@code expires} header (the scheduled instant plus it, or the payload's {@code delivery.expires_from}
     *     plus it: {@link TaskPayload#expiresFrom}), {@code headers} are added after Celery's
     *     own, priority, exchange and routing key are for the broker's message
     * @return the message
     */
    public static CeleryMessage of(OutboundTask task, String origin, DeliveryOptions delivery) {
        Objects.requireNonNull(task, "task must not be null");
        Objects.requireNonNull(delivery, "delivery must not be null");
        return encode(task, origin, delivery);
    }

    /**
     * The message of a route's task, with the job's own delivery options, which win over the route's.
     *
     * @param task the task to encode
     * @param origin the {@code origin} header
     * @param routeDefaults the route's delivery options
     * @return the message
     */
    public static CeleryMessage forRoute(OutboundTask task, String origin, DeliveryOptions routeDefaults) {
        Objects.requireNonNull(task, "task must not be null");
        return encode(task, origin, task.payload().delivery().over(routeDefaults));
    }

    private static CeleryMessage encode(OutboundTask task, String origin, DeliveryOptions delivery) {
        if (origin == null || origin.isBlank()) {
            throw new IllegalArgumentException("origin must not be blank, was " + (origin == null ? null : "'" + origin + "'"));
        }
        TaskPayload payload = task.payload();
        JsonNode args = parse(task, "args", payload.argsJson());
        JsonNode kwargs = parse(task, "kwargs", payload.kwargsJson());
        if (!args.isArray() || !kwargs.isObject()) {
            throw new IllegalArgumentException("payload of " + task.key()
                    + " must be {\"args\": [...], \"kwargs\": {...}}, was " + payload.toJson());
        }
        String id = task.key().toUuid().toString();
        Instant expiresAt = delivery.expires() == null ? null
                : payload.expiryOrigin(task.scheduledAt()).plus(delivery.expires());
        Map<String, Object> headers = headers(task, id, origin, args, kwargs);
        if (expiresAt != null) {
            headers.put("expires", isoformat(expiresAt));
        }
        headers.putAll(delivery.headers());
        // W3C trace context where a Celery task reads its headers (self.request.traceparent)
        headers.putAll(task.payload().trace().fields());
        return new CeleryMessage(id, task.key().value(), task.queue(), Collections.unmodifiableMap(headers),
                body(args, kwargs), delivery, expiresAt);
    }

    /** What Python's {@code datetime.isoformat()} writes for an aware UTC time, which Celery parses. */
    static String isoformat(Instant instant) {
        return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(instant.atOffset(ZoneOffset.UTC)) + "+00:00";
    }

    private static JsonNode parse(OutboundTask task, String field, String json) {
        try {
            return CeleryJson.MAPPER.readTree(json);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(field + " of " + task.key() + " is not JSON: " + json, e);
        }
    }

    private static Map<String, Object> headers(OutboundTask task, String id, String origin, JsonNode args, JsonNode kwargs) {
        Map<String, Object> headers = new LinkedHashMap<>();
        headers.put("lang", "py");
        headers.put("task", task.task());
        headers.put("id", id);
        headers.put("shadow", null);
        headers.put("eta", null);
        headers.put("expires", null);
        headers.put("group", null);
        headers.put("group_index", null);
        headers.put("retries", 0);
        // [hard, soft] as the code and worker order it, whatever protocol.rst says
        headers.put("timelimit", Collections.unmodifiableList(Arrays.asList(null, null)));
        headers.put("root_id", id);
        headers.put("parent_id", null);
        headers.put("argsrepr", capped(PythonRepr.of(new PythonTuple(CeleryJson.MAPPER.treeToValue(args, List.class)))));
        headers.put("kwargsrepr", capped(PythonRepr.of(CeleryJson.MAPPER.treeToValue(kwargs, Map.class))));
        headers.put("origin", origin);
        headers.put("ignore_result", false);
        headers.put("replaced_task_nesting", 0);
        headers.put("stamped_headers", null);
        headers.put("stamps", Map.of());
        headers.put(IDEMPOTENCY_KEY_HEADER, task.key().value());
        headers.put(SCHEDULED_AT_HEADER, task.scheduledAt().toString());
        return headers;
    }

    /** Celery's cap on {@code argsrepr} and {@code kwargsrepr}: longer reprs end in {@code ...}. */
    private static String capped(String repr) {
        if (repr.length() <= REPR_MAX_LENGTH) {
            return repr;
        }
        int end = REPR_MAX_LENGTH - ELLIPSIS.length();
        if (Character.isHighSurrogate(repr.charAt(end - 1))) {
            end--;
        }
        return repr.substring(0, end) + ELLIPSIS;
    }

    private static byte[] body(JsonNode args, JsonNode kwargs) {
        ObjectNode embed = JsonNodeFactory.instance.objectNode();
        for (String field : List.of("callbacks", "errbacks", "chain", "chord")) {
            embed.putNull(field);
        }
        ArrayNode body = JsonNodeFactory.instance.arrayNode().add(args).add(kwargs).add(embed);
        return CeleryJson.WRITER.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
    }

    /** @return the Celery task id: the UUIDv5 of the idempotency key */
    public String taskId() {
        return taskId;
    }

    /** @return the delivery options it was made with */
    public DeliveryOptions delivery() {
        return delivery;
    }

    /** @return when the worker will revoke it instead of running it, or {@code null} if it never expires */
    public Instant expiresAt() {
        return expiresAt;
    }

    /** @return the readable idempotency key, also in the {@value #IDEMPOTENCY_KEY_HEADER} header */
    public String idempotencyKey() {
        return idempotencyKey;
    }

    /** @return the destination queue */
    public String queue() {
        return queue;
    }

    /** @return the protocol 2 headers in Celery's order; values are String, Integer, Boolean, List, Map or null */
    public Map<String, Object> headers() {
        return headers;
    }

    /** @return the UTF-8 JSON body {@code [args, kwargs, embed]}, a fresh copy */
    public byte[] body() {
        return body.clone();
    }
}
