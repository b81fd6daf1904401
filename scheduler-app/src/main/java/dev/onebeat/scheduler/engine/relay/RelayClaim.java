package dev.onebeat.scheduler.engine.relay;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;
import javax.sql.DataSource;

/**
 * One round's claim: its rows locked by a transaction kept open on a connection of its own until {@link #mark}
 * commits their outcomes, or {@link #close} gives them back unchanged. The lease timer's keep-alive and the relay
 * thread's marks take turns on the connection. Once the server has ended the transaction (the claim sat idle past its
 * lease, or the connection broke), every later statement fails and the rows are another relay's to take.
 */
final class RelayClaim implements AutoCloseable {

    private final Connection con;
    private final List<ClaimedTask> rows;
    private final DataSource pool;
    private boolean ended;
    private boolean broken;

    RelayClaim(Connection con, List<ClaimedTask> rows, DataSource pool) {
        this.con = con;
        this.rows = List.copyOf(rows);
        this.pool = pool;
    }

    /** @return the claimed rows, by id */
    List<ClaimedTask> rows() {
        return rows;
    }

    /**
     * Runs a statement on the claim's transaction, which starts its idle time, and so its lease, again.
     *
     * @throws SQLException when the claim was lost: the server ended its transaction
     */
    synchronized void keepAlive() throws SQLException {
        if (ended) {
            return;
        }
        try (Statement statement = con.createStatement()) {
            statement.execute("SELECT 1");
        } catch (SQLException e) {
            broken = true;
            throw e;
        }
    }

    /**
     * Marks each row as its outcome says and commits, which frees the rows.
     *
     * @param retryDelay how long a row to retry waits, by its attempt number
     * @return rows marked published
     * @throws SQLException when the marks could not be committed: the claim was lost and no row changed
     */
    synchronized int mark(List<TaskOutcome> outcomes, IntFunction<Duration> retryDelay) throws SQLException {
        try {
            int marked = RelayRepository.mark(con, outcomes, retryDelay);
            con.commit();
            ended = true;
            return marked;
        } catch (SQLException | RuntimeException e) {
            broken = true;
            throw e;
        }
    }

    /** Rolls back what was not marked, which frees the rows unchanged, and returns the connection. */
    @Override
    public synchronized void close() {
        if (!ended) {
            ended = true;
            try {
                con.rollback();
            } catch (SQLException e) {
                broken = true;
            }
        }
        if (broken) {
            evict(pool, con);
        }
        try {
            con.close();
        } catch (SQLException e) {
            // the connection is gone already; so is its transaction
        }
    }

    /** Ends a claim that failed before it was made: the transaction is rolled back, the connection returned. */
    static void abandon(Connection con, DataSource pool) {
        try {
            con.rollback();
        } catch (SQLException e) {
            evict(pool, con);
        }
        try {
            con.close();
        } catch (SQLException e) {
            // gone already
        }
    }

    /**
     * Keeps a connection whose session the server ended out of the pool: the pool would otherwise hand it to the
     * next round unchecked (it checks a connection only after it sat idle a while), and that round would fail too.
     */
    private static void evict(DataSource pool, Connection con) {
        try {
            if (pool.isWrapperFor(HikariDataSource.class)) {
                pool.unwrap(HikariDataSource.class).evictConnection(con);
            }
        } catch (SQLException | RuntimeException e) {
            // the pool finds it broken on its own later
        }
    }
}
