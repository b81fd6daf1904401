package dev.onebeat.scheduler.engine.outbox;

import dev.onebeat.job.Entity;
import dev.onebeat.job.IdempotencyKey;
import java.time.Instant;
import java.util.Objects;

/**
 * One task ready to be written to the outbox.
 *
 * @param key its idempotency key
 * @param task task name
 * @param queue queue name
 * @param entity business entity, or {@code null}
 * @param payloadJson {@code {"args": [...], "kwargs": {...}}}
 * @param notBefore earliest hand-over, or {@code null} for "as soon as committed"
 */
public record OutboxTask(IdempotencyKey key, String task, String queue, Entity entity, String payloadJson,
                         Instant notBefore) {

    /** The queue of onebeat's own alert deliveries, which no job may dispatch to. */
    public static final String RESERVED_QUEUE = "onebeat.alerts";

    public OutboxTask {
        Objects.requireNonNull(key, "key must not be null");
        Objects.requireNonNull(payloadJson, "payloadJson must not be null");
    }
}
