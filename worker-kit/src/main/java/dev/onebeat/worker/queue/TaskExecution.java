package dev.onebeat.worker.queue;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs claimed tasks: journal entry, handler and fenced done mark commit together; a group of tasks
 * shares one transaction and falls back to one transaction per task when any of them fails. A
 * failed task is rolled back, then marked for retry or dead in a transaction of its own. A handler
 * may therefore run more than once for one attempt; only a committed run counts.
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

    /**
     * Runs claimed tasks. A single task runs alone in its transaction. A group runs optimistically in
     * one transaction: every done mark and journal entry in two statements, then the handlers, then
     * one commit; if any handler fails, the whole group rolls back and each task is run again alone,
     * so the failure is retried by itself and the others commit without it.
     */
    void execute(List<QueuedTask> tasks) {
        List<QueuedTask> runnable = new ArrayList<>(tasks.size());
        for (QueuedTask task : tasks) {
            if (task.attempt() > settings.maxAttempts()) {
                giveUp(task);
            } else {
                runnable.add(task);
            }
        }
        if (runnable.size() == 1 || (runnable.size() > 1 && !executeGroup(runnable))) {
            runnable.forEach(this::executeAlone);
        }
    }

    /** @return false if the group rolled back and its tasks must be run one by one */
    private boolean executeGroup(List<QueuedTask> tasks) {
        try (Connection connection = settings.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            Map<QueuedTask, Boolean> applied = new LinkedHashMap<>();
            try {
                Set<Long> held = store.markDone(connection, tasks);
                List<QueuedTask> owned = tasks.stream().filter(task -> held.contains(task.id())).toList();
                List<String> keys = owned.stream().map(QueuedTask::idempotencyKey).toList();
                Set<String> fresh = settings.journal() ? store.recordKeys(connection, settings.consumer(), keys)
                        : Set.copyOf(keys);
                for (QueuedTask task : owned) {
                    boolean isFresh = fresh.contains(task.idempotencyKey());
                    if (isFresh) {
                        handle(task, connection);
                    }
                    applied.put(task, isFresh);
                }
                connection.commit();
            } catch (Exception e) {
                connection.rollback();
                log.debug("group rolled back, running its tasks one by one consumer={} tasks={} error={}",
                        settings.consumer(), tasks.size(), e.toString());
                return false;
            }
            applied.forEach(this::count);
            tasks.stream().filter(task -> !applied.containsKey(task)).forEach(this::logLost);
            return true;
        } catch (SQLException e) {
            log.warn("could not finish tasks, they return after their lease consumer={} tasks={} firstKey={}",
                    settings.consumer(), tasks.size(), tasks.get(0).idempotencyKey(), e);
            return true;
        }
    }

    private void executeAlone(QueuedTask task) {
        try (Connection connection = settings.dataSource().getConnection()) {
            try {
                connection.setAutoCommit(false);
                boolean applied = apply(task, connection);
                connection.commit();
                count(task, applied);
            } catch (LeaseLostException e) {
                connection.rollback();
                logLost(task);
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

    private void logLost(QueuedTask task) {
        log.warn("lease lost before commit, rolled back consumer={} task={} key={} attempt={} worker={}",
                settings.consumer(), task.task(), task.idempotencyKey(), task.attempt(), workerId);
    }

    private void handle(QueuedTask task, Connection connection) throws Exception {
        TaskHandler handler = settings.handlers().get(task.task());
        if (handler == null) {
            throw new NoHandlerException(task.task());
        }
        handler.handle(task, connection);
    }

    /** @return true if the handler ran, false if the key was already processed */
    private boolean apply(QueuedTask task, Connection connection) throws Exception {
        if (!settings.handlers().containsKey(task.task())) {
            throw new NoHandlerException(task.task());
        }
        boolean fresh = !settings.journal() || store.recordKey(connection, settings.consumer(), task.idempotencyKey());
        if (fresh) {
            handle(task, connection);
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
    private void giveUp(QueuedTask task) {
        String error = "attempt " + (task.attempt() - 1) + " of " + settings.maxAttempts()
                + " ended without a result: its lease expired (the worker died or stalled)";
        try (Connection connection = settings.dataSource().getConnection()) {
            if (store.bury(connection, task, error)) {
                settings.metrics().dead(settings.consumer(), task.task());
                log.error("task dead, its last attempt's lease expired consumer={} task={} key={} attempts={}",
                        settings.consumer(), task.task(), task.idempotencyKey(), task.attempt() - 1);
            }
        } catch (SQLException e) {
            log.warn("could not set aside a task whose last attempt expired; it returns after its lease "
                    + "consumer={} key={}", settings.consumer(), task.idempotencyKey(), e);
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
