package dev.onebeat.worker.queue;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one claimed task: journal entry, handler and done mark in one transaction; on failure a
 * rollback, then the retry or dead mark in a transaction of its own.
 */
final class TaskExecution {

    private static final Logger log = LoggerFactory.getLogger(TaskExecution.class);
    private static final int MAX_ERROR_LENGTH = 4000;

    private final WorkerSettings settings;
    private final TaskStore store;
    private final String workerId;

    TaskExecution(WorkerSettings settings, TaskStore store, String workerId) {
        this.settings = settings;
        this.store = store;
        this.workerId = workerId;
    }

    void execute(QueuedTask task) {
        try (Connection connection = settings.dataSource().getConnection()) {
            if (task.attempt() > settings.maxAttempts()) {
                giveUp(connection, task);
                return;
            }
            try {
                connection.setAutoCommit(false);
                boolean applied = apply(task, connection);
                connection.commit();
                count(task, applied);
            } catch (LeaseLostException e) {
                connection.rollback();
                log.warn("lease lost before commit, rolled back consumer={} task={} key={} attempt={} worker={}",
                        settings.consumer(), task.task(), task.idempotencyKey(), task.attempt(), workerId);
            } catch (Exception failure) {
                connection.rollback();
                connection.setAutoCommit(true);
                fail(connection, task, failure);
            }
        } catch (SQLException e) {
            // Nothing was committed; the lease runs out and the task is claimed again.
            log.warn("could not finish task, it returns after its lease consumer={} task={} key={} attempt={}",
                    settings.consumer(), task.task(), task.idempotencyKey(), task.attempt(), e);
        }
    }

    /** @return true if the handler ran, false if the key was already processed */
    private boolean apply(QueuedTask task, Connection connection) throws Exception {
        TaskHandler handler = settings.handlers().get(task.task());
        if (handler == null) {
            throw new NoHandlerException(task.task());
        }
        boolean fresh = !settings.journal() || store.recordKey(connection, settings.consumer(), task.idempotencyKey());
        if (fresh) {
            handler.handle(task, connection);
        }
        if (!store.markDone(connection, task)) {
            throw new LeaseLostException();
        }
        return fresh;
    }

    private void count(QueuedTask task, boolean applied) {
        if (applied) {
            settings.metrics().processed(settings.consumer(), task.task());
        } else {
            settings.metrics().duplicate(settings.consumer(), task.task());
            log.debug("duplicate task skipped consumer={} task={} key={}",
                    settings.consumer(), task.task(), task.idempotencyKey());
        }
    }

    private void fail(Connection connection, QueuedTask task, Exception failure) throws SQLException {
        String error = describe(failure);
        if (task.attempt() >= settings.maxAttempts()) {
            if (store.bury(connection, task, error)) {
                settings.metrics().dead(settings.consumer(), task.task());
                log.error("task dead after its last attempt consumer={} task={} key={} attempts={} error={}",
                        settings.consumer(), task.task(), task.idempotencyKey(), task.attempt(), error,
                        failure instanceof NoHandlerException ? null : failure);
            }
            return;
        }
        Duration delay = settings.backoff().delay(task.attempt());
        if (store.retry(connection, task, delay, error)) {
            settings.metrics().retried(settings.consumer(), task.task());
            log.warn("task failed, will retry consumer={} task={} key={} attempt={} retryIn={} error={}",
                    settings.consumer(), task.task(), task.idempotencyKey(), task.attempt(), delay, error);
        }
    }

    /**
     * The last allowed attempt ended without a result, its lease expired: a task that kills or hangs
     * its worker every time must not be claimed forever.
     */
    private void giveUp(Connection connection, QueuedTask task) throws SQLException {
        String error = "attempt " + (task.attempt() - 1) + " of " + settings.maxAttempts()
                + " ended without a result: its lease expired (the worker died or stalled)";
        if (store.bury(connection, task, error)) {
            settings.metrics().dead(settings.consumer(), task.task());
            log.error("task dead, its last attempt's lease expired consumer={} task={} key={} attempts={}",
                    settings.consumer(), task.task(), task.idempotencyKey(), task.attempt() - 1);
        }
    }

    static String describe(Throwable failure) {
        StringBuilder text = new StringBuilder(failure instanceof NoHandlerException
                ? failure.getMessage() : failure.toString());
        Throwable cause = failure.getCause();
        for (int depth = 0; cause != null && depth < 3; depth++, cause = cause.getCause()) {
            text.append("; caused by ").append(cause);
        }
        return text.length() > MAX_ERROR_LENGTH ? text.substring(0, MAX_ERROR_LENGTH) : text.toString();
    }

    /** The done mark found a newer claim: this claim's lease ran out and the task was claimed again. */
    private static final class LeaseLostException extends Exception {
        LeaseLostException() {
            super(null, null, false, false);
        }
    }

    private static final class NoHandlerException extends Exception {
        NoHandlerException(String task) {
            super("no handler for task '" + task + "'");
        }
    }
}
