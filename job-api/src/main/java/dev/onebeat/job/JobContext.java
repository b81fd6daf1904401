package dev.onebeat.job;

import java.sql.Connection;
import java.time.Instant;

/**
 * What a running fire gives its job. Valid only during {@link PeriodicJob#run}.
 */
public interface JobContext {

    /** @return the name of the job being fired */
    String jobName();

    /**
     * The logical instant this fire stands for: the trigger's scheduled time, never the wall clock.
     * A late, recovered or re-run fire of the same instant sees the same value, so anything derived
     * from it (the task keys, "invoices due before this instant") is the same too.
     *
     * @return the scheduled instant, millisecond precision
     */
    Instant scheduledAt();

    /**
     * The JDBC connection of the fire's transaction. Queries and updates made on it commit or roll
     * back together with the fire's ledger row and its dispatched tasks. Do not commit, roll back,
     * close it or change its auto-commit mode: those calls are refused.
     *
     * @return the transaction's connection
     */
    Connection connection();

    /**
     * Writes a task to the outbox in this fire's transaction. Tasks are inserted in batches; a task
     * whose key already exists (a re-run of the same instant, or the same entity twice) is skipped
     * and counted as a duplicate, never inserted twice.
     *
     * @param task what to enqueue
     * @return the task's idempotency key
     * @throws IllegalArgumentException if the arguments are not JSON values
     */
    IdempotencyKey dispatch(TaskRequest task);

    /**
     * @param task a task name
     * @param entity the entity, or {@code null}
     * @return the key a dispatch of that task for that entity gets in this fire
     */
    IdempotencyKey keyFor(String task, Entity entity);
}
