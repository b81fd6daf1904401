package dev.onebeat.transport;

import dev.onebeat.job.IdempotencyKey;
import java.time.Instant;
import java.util.Objects;

/**
 * A committed outbox task about to be published; what every transport encodes.
 *
 * @param key idempotency key; brokers that take ids get it or a value derived from it
 * @param jobName the job that dispatched the task
 * @param scheduledAt logical scheduled time of the fire
 * @param task task name as the worker registered it
 * @param queue destination queue
 * @param entityType business entity type, or {@code null} (then {@code entityId} is too)
 * @param entityId business entity id, or {@code null}
 * @param payload its arguments and delivery options, read from the outbox row once
 * @param notBefore earliest hand-over, or {@code null}; the relay waits for it, brokers never see it
 */
public record OutboundTask(IdempotencyKey key, String jobName, Instant scheduledAt, String task, String queue,
                           String entityType, String entityId, TaskPayload payload, Instant notBefore) {

    public OutboundTask {
        Objects.requireNonNull(key, "key must not be null");
        Objects.requireNonNull(scheduledAt, "scheduledAt must not be null");
        Objects.requireNonNull(payload, "payload must not be null");
        requireText("jobName", jobName);
        requireText("task", task);
        requireText("queue", queue);
        if ((entityType == null) != (entityId == null)) {
            throw new IllegalArgumentException("entityType and entityId must both be set or both be null, were "
                    + entityType + " and " + entityId);
        }
    }

    /** @return this task with another payload, such as one continuing the relay's publish span */
    public OutboundTask withPayload(TaskPayload payload) {
        return new OutboundTask(key, jobName, scheduledAt, task, queue, entityType, entityId, payload, notBefore);
    }

    private static void requireText(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(field + " must not be blank, was " + (value == null ? "null" : "'" + value + "'"));
        }
    }
}
