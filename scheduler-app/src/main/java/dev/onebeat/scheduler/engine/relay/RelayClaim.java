package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.scheduler.boot.database.HeldTransactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;

/**
 * One round's claim: its rows locked by a transaction kept open on a connection of its own until {@link #mark}
 * commits their outcomes, or {@link #close} gives them back unchanged. The lease timer's keep-alive and the relay
 * thread's marks take turns on the connection. Once the server has ended the transaction (the claim sat idle past its
 * lease, or the connection broke), every later statement fails and the rows are another relay's to take.
 */
final class RelayClaim implements AutoCloseable {

    private final Connection con;
    private final List<ClaimedTask> rows;
    private final boolean deletePublished;
    private boolean ended;
    private boolean lost;

    /** @param deletePublished whether the marks delete the published rows instead of marking them */
    RelayClaim(Connection con, List<ClaimedTask> rows, boolean deletePublished) {
        this.con = con;
        this.rows = List.copyOf(rows);
        this.deletePublished = deletePublished;
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
            lost = true;
            throw e;
        }
    }

    /** @return whether a statement on the claim's transaction failed: its rows may be another relay's now */
    synchronized boolean lost() {
        return lost;
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
            int marked = RelayRepository.mark(con, outcomes, retryDelay, deletePublished);
            con.commit();
            ended = true;
            return marked;
        } catch (SQLException | RuntimeException e) {
            lost = true;
            throw e;
        }
    }

    /**
     * Rolls back what was not marked, which frees the rows unchanged, and returns the connection. A connection whose
     * session the server ended is evicted by the pool on the error (Hikari on the driver's chained I/O error, and
     * {@code PoolEviction} keeps that to this connection).
     */
    @Override
    public synchronized void close() {
        boolean committed = ended;
        ended = true;
        HeldTransactions.end(con, committed);
    }
}
