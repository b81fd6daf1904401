package dev.onebeat.worker.queue;

import java.util.Objects;

/**
 * A task claimed from {@code onebeat_task}.
 *
 * @param id the row id
 * @param idempotencyKey the task's deterministic key, the same on every delivery
 * @param task the task name, which selects the handler
 * @param queue the queue it was claimed from
 * @param entityType the kind of entity the task is about, or null
 * @param entityId the entity's id, or null
 * @param payloadJson the payload as JSON text, {@code {"args":[..],"kwargs":{..}}}, with {@code "delivery":{..}}
 *     when the job set delivery options (which the in-database queue does not use)
 * @param attempt this attempt's number, 1 for the first delivery
 */
public record QueuedTask(long id, String idempotencyKey, String task, String queue, String entityType,
                         String entityId, String payloadJson, int attempt) {

    public QueuedTask {
        Objects.requireNonNull(idempotencyKey, "idempotencyKey must not be null");
        Objects.requireNonNull(task, "task must not be null");
        Objects.requireNonNull(queue, "queue must not be null");
        Objects.requireNonNull(payloadJson, "payloadJson must not be null");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be at least 1, was " + attempt);
        }
    }
}
