package dev.onebeat.transport.dramatiq;

import dev.onebeat.transport.internal.redis.RedisCommand;
import java.util.List;
import java.util.Objects;

/**
 * A Dramatiq message ready for Redis.
 *
 * @param redisMessageId the id the worker acks by, also in the body's {@code options.redis_message_id}
 * @param messagesKey {@code <namespace>:<queue>.msgs}, the hash of bodies by id
 * @param queueKey {@code <namespace>:<queue>}, the list of ids
 * @param body the message JSON, UTF-8
 * @param commands the enqueue, hash before list, in one transaction
 */
record DramatiqRedisMessage(String redisMessageId, String messagesKey, String queueKey, byte[] body,
        List<RedisCommand> commands) {

    /** Copies the body and the commands. */
    public DramatiqRedisMessage {
        Objects.requireNonNull(redisMessageId, "redisMessageId must not be null");
        Objects.requireNonNull(messagesKey, "messagesKey must not be null");
        Objects.requireNonNull(queueKey, "queueKey must not be null");
        body = Objects.requireNonNull(body, "body must not be null").clone();
        commands = List.copyOf(Objects.requireNonNull(commands, "commands must not be null"));
    }

    /** @return a copy of the body */
    @Override
    public byte[] body() {
        return body.clone();
    }
}
