package dev.onebeat.transport.dramatiq;

import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.transport.TraceContext;
import dev.onebeat.transport.internal.pickle.JsonValues;
import dev.onebeat.transport.internal.redis.RedisCommand;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Encodes a task as a Dramatiq message for an unmodified Dramatiq worker, over RabbitMQ or Redis.
 *
 * <p>Dramatiq does not deduplicate: two messages with one {@code message_id} both run. The
 * {@code message_id} is the key's UUIDv5 so that a republished task is at least recognisable in the
 * worker's logs; preventing the second publish is the relay's job. The readable key and the
 * scheduled instant are in the message's {@code options} ({@value #IDEMPOTENCY_KEY_OPTION},
 * {@value #SCHEDULED_AT_OPTION}): Dramatiq keeps options it does not know in {@code message.options},
 * where middleware or an actor (through {@code CurrentMessage}) reads them.
 */
final class DramatiqEncoder {

    /** Dramatiq's default Redis namespace. */
    public static final String DEFAULT_NAMESPACE = "dramatiq";
    /** The option holding the readable idempotency key. */
    public static final String IDEMPOTENCY_KEY_OPTION = "idempotency_key";
    /** The option holding the fire's scheduled instant, ISO-8601 UTC ({@link Instant#toString()}). */
    public static final String SCHEDULED_AT_OPTION = "scheduled_at";
    /** Dramatiq's default dead-message TTL, seven days in ms ({@code dramatiq_dead_message_ttl}). */
    static final int DEAD_MESSAGE_TTL_MILLIS = 604_800_000;
    static final int PERSISTENT = 2;

    private DramatiqEncoder() {
    }

    /**
     * The message JSON, as Dramatiq's {@code JSONEncoder} writes it.
     *
     * @param actor the actor name
     * @param queue the queue name
     * @param key the task's idempotency key; {@code message_id} is its UUIDv5, and its text the
     *            {@value #IDEMPOTENCY_KEY_OPTION} option
     * @param scheduledAt the fire's logical scheduled instant, the {@value #SCHEDULED_AT_OPTION} option
     * @param argsJson the positional arguments, a JSON array (or {@code null})
     * @param kwargsJson the keyword arguments, a JSON object (or {@code null})
     * @param enqueuedAt the publish time, {@code message_timestamp} in epoch ms
     * @param brokerOptions options the broker adds after those two, in order, as Dramatiq's brokers
     *                      append theirs; empty for none
     * @return the JSON, UTF-8 (and ASCII only)
     * @throws IllegalArgumentException if a name is blank, the arguments are not JSON of the expected
     *                                  shape or a broker option would replace the key or the instant
     */
    public static byte[] message(String actor, String queue, IdempotencyKey key, Instant scheduledAt, String argsJson,
            String kwargsJson, Instant enqueuedAt, Map<String, Object> brokerOptions) {
        requireText(actor, "actor");
        requireText(queue, "queue");
        Objects.requireNonNull(key, "key must not be null");
        Objects.requireNonNull(scheduledAt, "scheduledAt must not be null");
        Objects.requireNonNull(enqueuedAt, "enqueuedAt must not be null");
        Objects.requireNonNull(brokerOptions, "brokerOptions must not be null");
        Map<String, Object> options = new LinkedHashMap<>();
        options.put(IDEMPOTENCY_KEY_OPTION, key.value());
        options.put(SCHEDULED_AT_OPTION, scheduledAt.toString());
        brokerOptions.forEach((name, value) -> {
            if (options.putIfAbsent(name, value) != null) {
                throw new IllegalArgumentException("brokerOptions must not set " + name + ", was " + value);
            }
        });
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("queue_name", queue);
        message.put("actor_name", actor);
        message.put("args", JsonValues.args(argsJson));
        message.put("kwargs", JsonValues.kwargs(kwargsJson));
        message.put("options", options);
        message.put("message_id", key.toUuid().toString());
        message.put("message_timestamp", enqueuedAt.toEpochMilli());
        return PythonJson.dumps(message).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The message for RabbitMQ, with the three queues Dramatiq's broker declares for {@code queue}.
     *
     * @see #message
     */
    public static DramatiqAmqpMessage amqp(String actor, String queue, IdempotencyKey key, Instant scheduledAt,
            String argsJson, String kwargsJson, Instant enqueuedAt) {
        return amqp(actor, queue, key, scheduledAt, argsJson, kwargsJson, enqueuedAt, TraceContext.NONE);
    }

    /** As the method above, with the trace the message continues in its options ({@code traceparent}). */
    public static DramatiqAmqpMessage amqp(String actor, String queue, IdempotencyKey key, Instant scheduledAt,
            String argsJson, String kwargsJson, Instant enqueuedAt, TraceContext trace) {
        byte[] body = message(actor, queue, key, scheduledAt, argsJson, kwargsJson, enqueuedAt,
                new LinkedHashMap<>(trace.fields()));
        return new DramatiqAmqpMessage(queue, body, PERSISTENT, queues(queue));
    }

    /**
     * The queues Dramatiq declares for {@code queue} on a broker made without {@code max_priority}:
     * the queue and its delay queue dead-letter into the {@code .XQ} queue, which keeps dead
     * messages for seven days.
     *
     * @param queue the queue name
     * @return {@code <q>}, {@code <q>.DQ} and {@code <q>.XQ}
     */
    public static List<DramatiqQueue> queues(String queue) {
        requireText(queue, "queue");
        Map<String, Object> deadLettering = Map.of(
                "x-dead-letter-exchange", "",
                "x-dead-letter-routing-key", queue + ".XQ");
        return List.of(
                new DramatiqQueue(queue, deadLettering),
                new DramatiqQueue(queue + ".DQ", deadLettering),
                new DramatiqQueue(queue + ".XQ", Map.of("x-message-ttl", DEAD_MESSAGE_TTL_MILLIS)));
    }

    /**
     * The message for Redis, with the commands Dramatiq's {@code dispatch.lua} runs to enqueue it.
     *
     * <p>Dramatiq draws {@code redisMessageId} afresh per enqueue; it is a parameter here so the
     * caller decides, and the same inputs always give the same bytes.
     *
     * @param namespace the broker's namespace, usually {@link #DEFAULT_NAMESPACE}
     * @param redisMessageId the id the worker acks by
     * @see #message
     */
    public static DramatiqRedisMessage redis(String namespace, String actor, String queue, IdempotencyKey key,
            Instant scheduledAt, String argsJson, String kwargsJson, Instant enqueuedAt, UUID redisMessageId) {
        return redis(namespace, actor, queue, key, scheduledAt, argsJson, kwargsJson, enqueuedAt, redisMessageId,
                TraceContext.NONE);
    }

    /** As the method above, with the trace the message continues in its options ({@code traceparent}). */
    public static DramatiqRedisMessage redis(String namespace, String actor, String queue, IdempotencyKey key,
            Instant scheduledAt, String argsJson, String kwargsJson, Instant enqueuedAt, UUID redisMessageId,
            TraceContext trace) {
        requireText(namespace, "namespace");
        Objects.requireNonNull(redisMessageId, "redisMessageId must not be null");
        String rid = redisMessageId.toString();
        Map<String, Object> brokerOptions = new LinkedHashMap<>(trace.fields());
        brokerOptions.put("redis_message_id", rid);
        byte[] body = message(actor, queue, key, scheduledAt, argsJson, kwargsJson, enqueuedAt, brokerOptions);
        String queueKey = namespace + ":" + queue;
        String messagesKey = queueKey + ".msgs";
        List<RedisCommand> commands = List.of(
                RedisCommand.of("MULTI"),
                // the hash entry first: an id popped before its body exists is dropped as a 'None' message
                RedisCommand.of("HSET", messagesKey, rid, body),
                RedisCommand.of("RPUSH", queueKey, rid),
                RedisCommand.of("EXEC"));
        return new DramatiqRedisMessage(rid, messagesKey, queueKey, body, commands);
    }

    private static void requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank, was '" + value + "'");
        }
    }
}
