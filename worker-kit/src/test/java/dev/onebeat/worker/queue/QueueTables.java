package dev.onebeat.worker.queue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Test access to {@code onebeat_task} and to two plain test tables: {@code test_effect}, with no
 * unique constraint so that a double apply shows as two rows, and {@code test_signal}, where a child
 * process says how far it got.
 */
final class QueueTables {

    private final DataSource dataSource;

    QueueTables(DataSource dataSource) {
        this.dataSource = dataSource;
        execute("CREATE TABLE IF NOT EXISTS test_effect (task_key TEXT NOT NULL, attempt INT NOT NULL, worker TEXT)");
        execute("CREATE TABLE IF NOT EXISTS test_signal (task_key TEXT NOT NULL, stage TEXT NOT NULL)");
    }

    void insertTask(String key, String task, String queue) {
        update("""
                INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, entity_type, entity_id, payload)
                VALUES (?, 'test-job', now(), ?, ?, 'order', '42', '{"args":[],"kwargs":{}}'::jsonb)
                """, key, task, queue);
    }

    /** The effect a test handler applies: one row, in the task's transaction. */
    static void applyEffect(Connection transaction, QueuedTask task, String worker) throws SQLException {
        try (PreparedStatement insert = transaction.prepareStatement(
                "INSERT INTO test_effect (task_key, attempt, worker) VALUES (?, ?, ?)")) {
            insert.setString(1, task.idempotencyKey());
            insert.setInt(2, task.attempt());
            insert.setString(3, worker);
            insert.executeUpdate();
        }
    }

    String status(String key) {
        return queryString("SELECT status FROM onebeat_task WHERE idempotency_key = ?", key);
    }

    String lastError(String key) {
        return queryString("SELECT last_error FROM onebeat_task WHERE idempotency_key = ?", key);
    }

    String lockedBy(String key) {
        return queryString("SELECT locked_by FROM onebeat_task WHERE idempotency_key = ?", key);
    }

    long attempts(String key) {
        return queryLong("SELECT attempts FROM onebeat_task WHERE idempotency_key = ?", key);
    }

    long effects(String key) {
        return queryLong("SELECT count(*) FROM test_effect WHERE task_key = ?", key);
    }

    long effectAttempt(String key) {
        return queryLong("SELECT max(attempt) FROM test_effect WHERE task_key = ?", key);
    }

    long tasksIn(String queue, String status) {
        return queryLong("SELECT count(*) FROM onebeat_task WHERE queue = ? AND status = ?", queue, status);
    }

    long journalEntries(String consumer, String key) {
        return queryLong("SELECT count(*) FROM onebeat_processed WHERE consumer = ? AND idempotency_key = ?",
                consumer, key);
    }

    boolean signalled(String key, String stage) {
        return queryLong("SELECT count(*) FROM test_signal WHERE task_key = ? AND stage = ?", key, stage) > 0;
    }

    void update(String sql, Object... args) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = prepare(connection, sql, args)) {
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    long queryLong(String sql, Object... args) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = prepare(connection, sql, args);
             ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private String queryString(String sql, Object... args) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = prepare(connection, sql, args);
             ResultSet rows = statement.executeQuery()) {
            return rows.next() ? rows.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private void execute(String sql) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static PreparedStatement prepare(Connection connection, String sql, Object... args) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < args.length; i++) {
            statement.setObject(i + 1, args[i]);
        }
        return statement;
    }
}
