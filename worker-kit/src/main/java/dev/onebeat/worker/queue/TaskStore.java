package dev.onebeat.worker.queue;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Every statement the queue worker runs on {@code onebeat_task} and {@code onebeat_processed}.
 * Times are the database's ({@code now()}), so workers with skewed clocks agree on leases.
 */
final class TaskStore {

    private static final String CLAIM = """
            -- SKIP LOCKED hands each due row to one claimer; an expired lease makes a claimed task due again
            UPDATE onebeat_task t
               SET status = 'claimed', locked_by = ?, locked_until = now() + make_interval(secs => ?),
                   attempts = t.attempts + 1
             WHERE t.id IN (SELECT id FROM onebeat_task
                             WHERE queue = ANY(?)
                               AND ((status = 'pending' AND available_at <= now())
                                    OR (status = 'claimed' AND locked_until < now()))
                             ORDER BY available_at
                             LIMIT ?
                               FOR UPDATE SKIP LOCKED)
            RETURNING t.id, t.idempotency_key, t.task, t.queue, t.entity_type, t.entity_id, t.payload::text, t.attempts
            """;
    private static final String RECORD_KEY = """
            -- PRIMARY KEY(consumer, idempotency_key) is the processed-once guard
            INSERT INTO onebeat_processed (consumer, idempotency_key) VALUES (?, ?) ON CONFLICT DO NOTHING
            """;
    private static final String MARK_DONE = """
            -- (locked_by, attempts) is the fencing token, new on every claim: an overtaken claim commits nothing
            UPDATE onebeat_task SET status = 'done', locked_by = NULL, locked_until = NULL
             WHERE id = ? AND locked_by = ? AND attempts = ?
            """;
    private static final String RETRY = """
            -- fenced like MARK_DONE: only the lease holder may reschedule
            UPDATE onebeat_task
               SET status = 'pending', available_at = now() + make_interval(secs => ?), last_error = ?,
                   locked_by = NULL, locked_until = NULL
             WHERE id = ? AND locked_by = ? AND attempts = ?
            """;
    private static final String BURY = """
            UPDATE onebeat_task SET status = 'dead', last_error = ?, locked_by = NULL, locked_until = NULL
             WHERE id = ? AND locked_by = ? AND attempts = ?
            """;
    private static final String EXTEND = """
            UPDATE onebeat_task SET locked_until = now() + make_interval(secs => ?)
             WHERE id = ANY(?) AND locked_by = ? AND status = 'claimed'
            """;
    private static final String RELEASE = """
            -- a task never started gets its attempt back and keeps its place in line
            UPDATE onebeat_task
               SET status = 'pending', locked_by = NULL, locked_until = NULL, attempts = greatest(attempts - 1, 0)
             WHERE id = ANY(?) AND locked_by = ? AND status = 'claimed'
            """;

    private final String workerId;
    private final double leaseSeconds;

    TaskStore(String workerId, Duration lease) {
        this.workerId = workerId;
        this.leaseSeconds = lease.toMillis() / 1000.0;
    }

    List<QueuedTask> claim(Connection connection, List<String> queues, int limit) throws SQLException {
        try (PreparedStatement claim = connection.prepareStatement(CLAIM)) {
            claim.setString(1, workerId);
            claim.setDouble(2, leaseSeconds);
            claim.setArray(3, connection.createArrayOf("varchar", queues.toArray()));
            claim.setInt(4, limit);
            List<QueuedTask> tasks = new ArrayList<>(limit);
            try (ResultSet rows = claim.executeQuery()) {
                while (rows.next()) {
                    tasks.add(new QueuedTask(rows.getLong(1), rows.getString(2), rows.getString(3), rows.getString(4),
                            rows.getString(5), rows.getString(6), rows.getString(7), rows.getInt(8)));
                }
            }
            return tasks;
        }
    }

    /** @return false if the key was already in the journal: the task is a duplicate */
    boolean recordKey(Connection connection, String consumer, String idempotencyKey) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(RECORD_KEY)) {
            insert.setString(1, consumer);
            insert.setString(2, idempotencyKey);
            return insert.executeUpdate() == 1;
        }
    }

    /** @return false if the task was claimed again since this claim, by any worker */
    boolean markDone(Connection connection, QueuedTask task) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(MARK_DONE)) {
            update.setLong(1, task.id());
            update.setString(2, workerId);
            update.setInt(3, task.attempt());
            return update.executeUpdate() == 1;
        }
    }

    /** @return false if the task was claimed again since this claim, by any worker */
    boolean retry(Connection connection, QueuedTask task, Duration delay, String error) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(RETRY)) {
            update.setDouble(1, delay.toMillis() / 1000.0);
            update.setString(2, error);
            update.setLong(3, task.id());
            update.setString(4, workerId);
            update.setInt(5, task.attempt());
            return update.executeUpdate() == 1;
        }
    }

    /** @return false if the task was claimed again since this claim, by any worker */
    boolean bury(Connection connection, QueuedTask task, String error) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(BURY)) {
            update.setString(1, error);
            update.setLong(2, task.id());
            update.setString(3, workerId);
            update.setInt(4, task.attempt());
            return update.executeUpdate() == 1;
        }
    }

    int extendLeases(Connection connection, Collection<Long> ids) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(EXTEND)) {
            update.setDouble(1, leaseSeconds);
            update.setArray(2, idArray(connection, ids));
            update.setString(3, workerId);
            return update.executeUpdate();
        }
    }

    int release(Connection connection, Collection<Long> ids) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(RELEASE)) {
            update.setArray(1, idArray(connection, ids));
            update.setString(2, workerId);
            return update.executeUpdate();
        }
    }

    private static Array idArray(Connection connection, Collection<Long> ids) throws SQLException {
        return connection.createArrayOf("bigint", ids.toArray());
    }
}
