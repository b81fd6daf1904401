package dev.onebeat.scheduler.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.TaskPayload;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;

/**
 * The outbox the relay benchmark drains: {@code onebeat_task} on the benchmark database, refilled
 * before every relay round with the same committed rows of one queue, and the connection pool the
 * relay nodes share.
 *
 * <p>Each row is a Celery task as a shop would dispatch it: {@code shop.send_invoice_reminder} for
 * order {@code i}, with a payload of about 200 bytes of JSON.
 */
final class RelayOutbox implements AutoCloseable {

    static final String JOB = "invoice-reminders";
    static final String TASK = "shop.send_invoice_reminder";

    // scheduled and due an hour ago, so the relay's "available_at <= now()" takes them all at once
    // %s: the table, the outbox or a copy of it
    private static final String FILL = """
            INSERT INTO %s (idempotency_key, job_name, scheduled_at, task, queue, entity_type, entity_id,
                                      payload, available_at)
            SELECT ? || '/2030-01-01T00:00:00Z/' || ? || '/order:' || g, ?, now() - interval '1 hour', ?, ?, 'order',
                   g::text,
                   jsonb_build_object('args', jsonb_build_array(g, 'EUR'),
                                      'kwargs', jsonb_build_object('customer_id', 100000 + g, 'template', 'invoice-reminder',
                                                                   'locale', 'en-GB', 'channel', 'email',
                                                                   'subject', 'Your order ' || g || ' is waiting for payment',
                                                                   'amount', '129.90', 'reminder', 2)),
                   now() - interval '1 hour'
            FROM generate_series(?, ?) g
            """;

    private static final String ROWS = """
            SELECT idempotency_key, job_name, scheduled_at, task, queue, entity_type, entity_id, payload::text
            FROM onebeat_task ORDER BY id
            """;

    // held, so that the level set on it stays: Liquibase logs every change set through java.util.logging
    private static final Logger LIQUIBASE = Logger.getLogger("liquibase");

    private final BenchDatabase database;
    private final HikariDataSource pool;
    private final String queue;

    private RelayOutbox(BenchDatabase database, HikariDataSource pool, String queue) {
        this.database = database;
        this.pool = pool;
        this.queue = queue;
    }

    /** Creates the tables with the project's own migrations. */
    static RelayOutbox create(BenchDatabase database, String queue) throws Exception {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(database.url());
        pool.setMaximumPoolSize(10);
        pool.setMinimumIdle(4);
        pool.setPoolName("relay-bench");
        try (Connection connection = pool.getConnection()) {
            Database target = DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(connection));
            migrate(target);
        }
        return new RelayOutbox(database, pool, queue);
    }

    @SuppressWarnings("deprecation") // the Liquibase facade is the short way for a benchmark
    private static void migrate(Database target) throws Exception {
        LIQUIBASE.setLevel(Level.WARNING);
        new Liquibase("db/onebeat/changelog-master.xml", new ClassLoaderResourceAccessor(), target).update("");
    }

    /** @return the one queue of the outbox's rows */
    String queue() {
        return queue;
    }

    HikariDataSource pool() {
        return pool;
    }

    /**
     * Empties the table and commits {@code count} pending due rows, then vacuums and checkpoints so
     * that every round starts from the same table and no checkpoint of the refill lands in a round.
     */
    void refill(int count) throws SQLException {
        refill("onebeat_task", count, Math.max(1, count));
    }

    /**
     * {@link #refill(int)} of {@code table} (the outbox, or a copy of it on the same database) with the rows committed
     * {@code perTransaction} at a time, as fires commit theirs.
     *
     * @return nanoseconds the inserts took, the vacuum and checkpoint after them not counted
     */
    long refill(String table, int count, int perTransaction) throws SQLException {
        try (Connection connection = pool.getConnection()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("TRUNCATE " + table);
                // what an earlier fill left dirty is written before this one is timed
                statement.execute("CHECKPOINT");
            }
            long inserts = fill(connection, table, count, perTransaction);
            try (Statement statement = connection.createStatement()) {
                statement.execute("VACUUM ANALYZE " + table);
                statement.execute("CHECKPOINT");
            }
            return inserts;
        }
    }

    /**
     * Inserts {@code count} rows into {@code table} in auto-commit, {@code perTransaction} rows a statement.
     *
     * @return nanoseconds taken
     */
    private long fill(Connection connection, String table, int count, int perTransaction) throws SQLException {
        long start = System.nanoTime();
        try (PreparedStatement fill = connection.prepareStatement(FILL.formatted(table))) {
            for (int from = 1; from <= count; from += perTransaction) {
                fill.setString(1, JOB);
                fill.setString(2, TASK);
                fill.setString(3, JOB);
                fill.setString(4, TASK);
                fill.setString(5, queue);
                fill.setInt(6, from);
                fill.setInt(7, Math.min(count, from + perTransaction - 1));
                fill.executeUpdate();
            }
        }
        return System.nanoTime() - start;
    }

    /** @return the rows as the relay reads them when it claims them, in id order */
    List<OutboundTask> tasks() throws SQLException {
        List<OutboundTask> tasks = new ArrayList<>();
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery(ROWS)) {
            while (rs.next()) {
                tasks.add(new OutboundTask(new IdempotencyKey(rs.getString(1)), rs.getString(2),
                        rs.getTimestamp(3).toInstant(), rs.getString(4), rs.getString(5), rs.getString(6),
                        rs.getString(7), TaskPayload.fromJson(rs.getString(8)), null));
            }
        }
        return tasks;
    }

    /** @return how many rows have each status other than {@code published}, as {@code status=count}; empty if none */
    String unpublished() throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT string_agg(status || '=' || n, ' ') FROM (SELECT status,"
                     + " count(*) n FROM onebeat_task WHERE status <> 'published' GROUP BY status) s")) {
            rs.next();
            String counts = rs.getString(1);
            return counts == null ? "" : counts;
        }
    }

    /** The pool's connections, for {@link CommitCounter}. */
    CommitCounter.Sessions sessions() {
        return PooledSessions.of(pool);
    }

    /** @return the commit counter once the pool's sessions have reported (see {@link CommitCounter}) */
    long settledCommits() {
        return new CommitCounter(database).settled(sessions());
    }

    @Override
    public void close() {
        pool.close();
    }
}
