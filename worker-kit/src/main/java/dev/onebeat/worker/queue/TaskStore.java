package dev.onebeat.worker.queue;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Every statement the queue worker runs on {@code onebeat_task} and {@code onebeat_processed}.
 * Times are the database's ({@code now()}), so workers with skewed clocks agree on leases.
 */
final class TaskStore {

    // Two claims, not one with an OR: each matches one partial index (onebeat_task_due_idx,
    // onebeat_task_lease_idx); an OR of both would scan the whole table on every poll.
    private static final String CLAIM_EXPIRED = """
            -- an expired lease makes a claimed task due again; SKIP LOCKED hands each row to one claimer
            UPDATE onebeat_task t
               SET status = 'claimed', locked_by = ?, locked_until = now() + make_interval(secs => ?),
                   attempts = t.attempts + 1
             WHERE t.id IN (SELECT id FROM onebeat_task
                             WHERE status = 'claimed' AND locked_until < now() AND queue = ANY(?)
                             ORDER BY locked_until
                             LIMIT ?
                               FOR UPDATE SKIP LOCKED)
            RETURNING t.id, t.idempotency_key, t.task, t.queue, t.entity_type, t.entity_id, t.payload::text, t.attempts
            """;
    private static final String CLAIM_DUE = """
            -- SKIP LOCKED hands each due row to one claimer
            UPDATE onebeat_task t
               SET status = 'claimed', locked_by = ?, locked_until = now() + make_interval(secs => ?),
                   attempts = t.attempts + 1
             WHERE t.id IN (SELECT id FROM onebeat_task
                             WHERE status = 'pending' AND queue = ANY(?) AND available_at <= now()
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
    private static final String MARK_GROUP_DONE = """
            -- MARK_DONE for a group at once; the rows stay locked until the group commits, so no claimer can
            -- take them meanwhile even if their lease runs out
            UPDATE onebeat_task t SET status = 'done', locked_by = NULL, locked_until = NULL
              FROM unnest(?::bigint[], ?::int[]) AS c(id, attempt)
             WHERE t.id = c.id AND t.locked_by = ? AND t.attempts = c.attempt
            RETURNING t.id
            """;
    private static final String RECORD_KEYS = """
            -- RECORD_KEY for a group at once; the keys returned are the ones not processed before
            INSERT INTO onebeat_processed (consumer, idempotency_key) SELECT ?, k FROM unnest(?::varchar[]) AS k
            ON CONFLICT DO NOTHING
            RETURNING idempotency_key
            """;
    private static final String EXTEND = """
            -- SKIP LOCKED: rows of a group still running are locked by its transaction and need no renewal
            UPDATE onebeat_task SET locked_until = now() + make_interval(secs => ?)
             WHERE id IN (SELECT id FROM onebeat_task WHERE id = ANY(?) AND locked_by = ? AND status = 'claimed'
                            FOR UPDATE SKIP LOCKED)
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
        List<QueuedTask> tasks = new ArrayList<>(limit);
        Array queueArray = connection.createArrayOf("varchar", queues.toArray());
        claim(connection, CLAIM_EXPIRED, queueArray, limit, tasks);
        if (tasks.size() < limit) {
            claim(connection, CLAIM_DUE, queueArray, limit - tasks.size(), tasks);
        }
        return tasks;
    }

    private void claim(Connection connection, String sql, Array queues, int limit, List<QueuedTask> into)
            throws SQLException {
        try (PreparedStatement claim = connection.prepareStatement(sql)) {
            claim.setString(1, workerId);
            claim.setDouble(2, leaseSeconds);
            claim.setArray(3, queues);
            claim.setInt(4, limit);
            try (ResultSet rows = claim.executeQuery()) {
                while (rows.next()) {
                    into.add(new QueuedTask(rows.getLong(1), rows.getString(2), rows.getString(3), rows.getString(4),
                            rows.getString(5), rows.getString(6), rows.getString(7), rows.getInt(8)));
                }
            }
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

    /** @return ids of the tasks still held by their claim, now done (on commit); the others were taken over */
    Set<Long> markDone(Connection connection, List<QueuedTask> tasks) throws SQLException {
        Long[] ids = new Long[tasks.size()];
        Integer[] attempts = new Integer[tasks.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = tasks.get(i).id();
            attempts[i] = tasks.get(i).attempt();
        }
        Set<Long> done = new HashSet<>();
        try (PreparedStatement update = connection.prepareStatement(MARK_GROUP_DONE)) {
            update.setArray(1, connection.createArrayOf("bigint", ids));
            update.setArray(2, connection.createArrayOf("int4", attempts));
            update.setString(3, workerId);
            try (ResultSet rows = update.executeQuery()) {
                while (rows.next()) {
                    done.add(rows.getLong(1));
                }
            }
        }
        return done;
    }

    /** @return the keys that were not in the journal yet: those tasks are new, the others duplicates */
    Set<String> recordKeys(Connection connection, String consumer, List<String> keys) throws SQLException {
        Set<String> fresh = new HashSet<>();
        if (keys.isEmpty()) {
            return fresh;
        }
        try (PreparedStatement insert = connection.prepareStatement(RECORD_KEYS)) {
            insert.setString(1, consumer);
            insert.setArray(2, connection.createArrayOf("varchar", keys.toArray()));
            try (ResultSet rows = insert.executeQuery()) {
                while (rows.next()) {
                    fresh.add(rows.getString(1));
                }
            }
        }
        return fresh;
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
