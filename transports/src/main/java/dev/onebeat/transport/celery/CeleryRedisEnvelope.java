package dev.onebeat.transport.celery;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * A Celery task as kombu's Redis transport stores it: the JSON envelope to {@code LPUSH} onto
 * {@link #listKey()}, which workers {@code BRPOP}.
 *
 * <p>{@code properties.delivery_tag} and {@code properties.delivery_info} are required: a worker
 * reading an envelope without them dies ({@code KeyError}). The delivery tag is derived from the
 * idempotency key rather than random, so a republish after a crash between publish and mark is
 * byte-identical to the first copy and can be recognised as such in Redis. The reference suggests
 * a random tag; kombu only uses it as a key, of the {@code unacked} hash and of the worker's
 * in-memory QoS, where acking one tag twice is harmless. Two live copies of one task thus share
 * one entry, and the first ack clears it: the only copy that can then go unrestored is a duplicate
 * of one that was already taken.
 *
 * @param listKey the Redis list: the queue name, or {@code queue + "\x06\x16" + step} for a priority
 * @param json the envelope, UTF-8 JSON text
 */
record CeleryRedisEnvelope(String listKey, String json) {

    /** kombu's separator between a queue name and its priority step. */
    static final String PRIORITY_SEPARATOR = "\u0006\u0016";
    /** kombu's default {@code priority_steps}. */
    static final List<Integer> PRIORITY_STEPS = List.of(0, 3, 6, 9);

    private static final String DELIVERY_TAG_NAMESPACE = "onebeat/celery/delivery_tag/";

    public CeleryRedisEnvelope {
        Objects.requireNonNull(listKey, "listKey must not be null");
        Objects.requireNonNull(json, "json must not be null");
    }

    /**
     * @param message the protocol 2 message
     * @return its envelope at the delivery options' priority (default 0), on that priority's list
     */
    public static CeleryRedisEnvelope of(CeleryMessage message) {
        int priority = message.delivery().priority() == null ? 0 : message.delivery().priority();
        Map<String, Object> deliveryInfo = new LinkedHashMap<>();
        deliveryInfo.put("exchange", "");
        deliveryInfo.put("routing_key", message.queue());

        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("correlation_id", message.taskId());
        properties.put("delivery_mode", CeleryAmqpMessage.PERSISTENT);
        properties.put("delivery_info", deliveryInfo);
        // read back when the worker restores an unacked message
        properties.put("priority", priority);
        properties.put("body_encoding", "base64");
        properties.put("delivery_tag", deliveryTag(message.idempotencyKey()));

        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("body", Base64.getEncoder().encodeToString(message.body()));
        envelope.put("content-encoding", CeleryMessage.CONTENT_ENCODING);
        envelope.put("content-type", CeleryMessage.CONTENT_TYPE);
        envelope.put("headers", message.headers());
        envelope.put("properties", properties);
        return new CeleryRedisEnvelope(listKey(message.queue(), priority), CeleryJson.WRITER.writeValueAsString(envelope));
    }

    /**
     * The list kombu files a message of this priority under. On Redis a lower number is more urgent;
     * the priority is clamped to 0..9 and rounded down to a step, and step 0 is the plain queue name.
     */
    static String listKey(String queue, int priority) {
        int clamped = Math.max(0, Math.min(9, priority));
        int step = 0;
        for (int candidate : PRIORITY_STEPS) {
            if (candidate <= clamped) {
                step = candidate;
            }
        }
        return step == 0 ? queue : queue + PRIORITY_SEPARATOR + step;
    }

    /** A name-based UUID, distinct from the task id, which the reference keeps separate. */
    static String deliveryTag(String idempotencyKey) {
        return UUID.nameUUIDFromBytes((DELIVERY_TAG_NAMESPACE + idempotencyKey).getBytes(StandardCharsets.UTF_8)).toString();
    }
}
