package dev.onebeat.worker.queue;

import java.sql.Connection;

/**
 * Applies one task. Registered by task name on a {@link TaskQueueWorker}.
 *
 * <p>All database work must go through {@code transaction}: the worker commits it together with the
 * task's done mark and its processed-key journal entry, or rolls all of it back. Do not commit, roll
 * back or close the connection. Effects a transaction cannot undo (e-mail, payment) belong in the
 * side-effect outbox, written on the same connection.
 */
@FunctionalInterface
public interface TaskHandler {

    /**
     * @param task the claimed task
     * @param transaction the open transaction the task's effect must be written in
     * @throws Exception to fail this attempt: the transaction is rolled back and the task retried
     *     after a backoff, or set aside as {@code dead} once its attempts are used up
     */
    void handle(QueuedTask task, Connection transaction) throws Exception;
}
