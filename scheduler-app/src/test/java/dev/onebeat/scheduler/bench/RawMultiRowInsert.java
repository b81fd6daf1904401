package dev.onebeat.scheduler.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The baseline: plain JDBC, {@code INSERT INTO onebeat_task (…) VALUES (…), (…), … ON CONFLICT
 * (idempotency_key) DO NOTHING}, {@code rowsPerStatement} rows per statement, and by default one
 * transaction per statement. The rows are those of {@link ReminderTasks}, built in the timed loop.
 */
final class RawMultiRowInsert implements AutoCloseable {

    /** When the baseline commits. */
    enum Commit { PER_STATEMENT, ONCE }

    private static final String INSERT = """
            INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, entity_type, entity_id,
                                      payload, available_at)
            VALUES %s
            ON CONFLICT (idempotency_key) DO NOTHING""";
    private static final String ROW = "(?, ?, ?, ?, ?, ?, ?, ?::jsonb, now())";

    private final Connection connection;
    private final int rowsPerStatement;
    private final Map<Integer, PreparedStatement> statements = new HashMap<>();

    private RawMultiRowInsert(Connection connection, int rowsPerStatement) {
        this.connection = connection;
        this.rowsPerStatement = rowsPerStatement;
    }

    static RawMultiRowInsert open(BenchDatabase database, int rowsPerStatement) throws SQLException {
        Connection connection = database.connect();
        connection.setAutoCommit(false);
        return new RawMultiRowInsert(connection, rowsPerStatement);
    }

    /**
     * Writes the reminders of orders 0 to {@code entities - 1} for one (job, scheduled instant).
     *
     * @return rows inserted; the others already existed
     */
    int insert(String job, Instant scheduledAt, int entities, Commit commit) throws SQLException {
        String keyPrefix = ReminderTasks.keyPrefix(job, scheduledAt);
        Timestamp at = Timestamp.from(scheduledAt);
        int inserted = 0;
        for (int from = 0; from < entities; from += rowsPerStatement) {
            int rows = Math.min(rowsPerStatement, entities - from);
            PreparedStatement statement = statement(rows);
            int parameter = 1;
            for (int order = from; order < from + rows; order++) {
                statement.setString(parameter++, keyPrefix + order);
                statement.setString(parameter++, job);
                statement.setTimestamp(parameter++, at);
                statement.setString(parameter++, ReminderTasks.TASK);
                statement.setString(parameter++, ReminderTasks.QUEUE);
                statement.setString(parameter++, ReminderTasks.ENTITY_TYPE);
                statement.setString(parameter++, Integer.toString(order));
                statement.setString(parameter++, ReminderTasks.payloadJson(order));
            }
            inserted += statement.executeUpdate();
            if (commit == Commit.PER_STATEMENT) {
                connection.commit();
            }
        }
        if (commit == Commit.ONCE) {
            connection.commit();
        }
        return inserted;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }

    private PreparedStatement statement(int rows) throws SQLException {
        PreparedStatement statement = statements.get(rows);
        if (statement == null) {
            String values = String.join(", ", Collections.nCopies(rows, ROW));
            statement = connection.prepareStatement(INSERT.formatted(values));
            statements.put(rows, statement);
        }
        return statement;
    }
}
