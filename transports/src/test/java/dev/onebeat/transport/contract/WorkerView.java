package dev.onebeat.transport.contract;

import java.util.Objects;

/**
 * One message as the worker of its format reads it, decoded by the contract test of a transport and
 * broker pair from what the broker holds.
 *
 * @param id the message or job id the worker sees (Celery's task id, RQ's job id, Dramatiq's
 *     message id, arq's job id, a Kafka record's or an HTTP request's key)
 * @param key the readable idempotency key, where the worker finds it in this format
 * @param scheduledAt the fire's scheduled instant as the worker finds it ({@code Instant.toString()}
 *     text), or {@code null} for a format that carries it only inside the key
 * @param task the task, function or actor name the worker dispatches on
 */
public record WorkerView(String id, String key, String scheduledAt, String task) {

    public WorkerView {
        Objects.requireNonNull(id, "id must not be null");
        Objects.requireNonNull(key, "key must not be null");
    }
}
