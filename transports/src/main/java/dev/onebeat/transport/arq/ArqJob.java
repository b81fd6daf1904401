package dev.onebeat.transport.arq;

import dev.onebeat.transport.internal.redis.RedisCommand;
import java.util.Objects;

/**
 * An encoded arq job.
 *
 * @param id the job id, the idempotency key's text
 * @param jobKey {@code arq:job:<id>}, holding the payload
 * @param resultKey {@code arq:result:<id>}, whose presence also blocks a second enqueue
 * @param queueKey the queue's sorted set, such as {@code arq:queue}
 * @param payload the pickled job dict
 * @param scoreMillis the queue score: the enqueue time in epoch milliseconds
 * @param expiresMillis the job key's time to live
 * @param command the one command that enqueues the job unless it exists; it replies 1 if enqueued, 0 if not
 */
record ArqJob(String id, String jobKey, String resultKey, String queueKey, byte[] payload, long scoreMillis,
        long expiresMillis, RedisCommand command) {

    /** Copies the payload, so the job cannot change after it is built. */
    public ArqJob {
        Objects.requireNonNull(id, "id must not be null");
        Objects.requireNonNull(jobKey, "jobKey must not be null");
        Objects.requireNonNull(resultKey, "resultKey must not be null");
        Objects.requireNonNull(queueKey, "queueKey must not be null");
        payload = Objects.requireNonNull(payload, "payload must not be null").clone();
        Objects.requireNonNull(command, "command must not be null");
        if (expiresMillis <= 0) {
            throw new IllegalArgumentException("expiresMillis must be positive, was " + expiresMillis);
        }
    }

    /** @return a copy of the pickled job dict */
    @Override
    public byte[] payload() {
        return payload.clone();
    }
}
