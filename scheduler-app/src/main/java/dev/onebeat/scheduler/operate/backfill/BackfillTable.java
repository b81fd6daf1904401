package dev.onebeat.scheduler.operate.backfill;

import dev.onebeat.scheduler.boot.database.BatchDelete;
import dev.onebeat.scheduler.engine.fire.InstantRecords;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Every statement on {@code onebeat_backfill}; the ledger's answers a backfill needs come from its owner
 * ({@link InstantRecords}).
 */
@Component
public class BackfillTable {

    private static final String COLUMNS = """
            id, job_name, range_from, range_to, state, total, done, fired, failed, cursor_at, created_by, created_at,
            updated_at""";

    private final JdbcClient jdbc;
    private final InstantRecords ledger;

    BackfillTable(JdbcClient jdbc, InstantRecords ledger) {
        this.jdbc = jdbc;
        this.ledger = ledger;
    }

    long insert(String job, Instant from, Instant to, int total, String createdBy, Instant now) {
        return jdbc.sql("""
                        INSERT INTO onebeat_backfill (job_name, range_from, range_to, state, total, created_by, created_at,
                                                      updated_at)
                        VALUES (?, ?, ?, 'running', ?, ?, ?, ?) RETURNING id""")
                .params(job, Timestamp.from(from), Timestamp.from(to), total, createdBy, Timestamp.from(now),
                        Timestamp.from(now))
                .query(Long.class).single();
    }

    Optional<Backfill> find(String job, long id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM onebeat_backfill WHERE id = ? AND job_name = ?")
                .params(id, job).query(BackfillTable::backfill).optional();
    }

    /** @return the job's backfills, newest first */
    List<Backfill> ofJob(String job, int limit) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM onebeat_backfill WHERE job_name = ? ORDER BY id DESC LIMIT ?")
                .params(job, limit).query(BackfillTable::backfill).list();
    }

    List<Backfill> running() {
        return jdbc.sql("SELECT " + COLUMNS + " FROM onebeat_backfill WHERE state = 'running' ORDER BY id")
                .query(BackfillTable::backfill).list();
    }

    boolean isRunning(long id) {
        return jdbc.sql("SELECT state = 'running' FROM onebeat_backfill WHERE id = ?").param(id).query(Boolean.class)
                .optional().orElse(false);
    }

    /** Moves the cursor to {@code instant}, one instant further; a cancelled backfill stays as it was. */
    void advance(long id, Instant instant, boolean fired, boolean failed, Instant now) {
        // the cursor only moves forward, so an instant handled twice (a replica taking over) is counted once
        jdbc.sql("""
                        UPDATE onebeat_backfill SET cursor_at = ?, done = done + 1, fired = fired + ?, failed = failed + ?,
                                                    updated_at = ?
                        WHERE id = ? AND state = 'running' AND (cursor_at IS NULL OR cursor_at < ?) AND done < total""")
                .params(Timestamp.from(instant), fired ? 1 : 0, failed ? 1 : 0, Timestamp.from(now), id,
                        Timestamp.from(instant))
                .update();
    }

    /** @return whether the backfill was running and is now in {@code state} */
    boolean end(long id, String job, String state, Instant now) {
        return jdbc.sql("""
                        UPDATE onebeat_backfill SET state = ?, updated_at = ?
                        WHERE id = ? AND job_name = ? AND state = 'running'""")
                .params(state, Timestamp.from(now), id, job).update() == 1;
    }

    /**
     * @return whether the instant has committed, or may have: it is at or before the job's retention horizon, where
     *     its ledger row may have been purged (the horizon may have moved since the backfill started)
     */
    boolean committed(String job, Instant instant) {
        return ledger.committedOrBeyondHorizon(job, instant);
    }

    /** @return the attempt a new fire of the instant makes: one more than any recorded */
    int nextAttempt(String job, Instant instant) {
        return ledger.nextAttempt(job, instant);
    }

    private static Backfill backfill(ResultSet rs, int row) throws SQLException {
        Timestamp cursor = rs.getTimestamp(10);
        return new Backfill(rs.getLong(1), rs.getString(2), rs.getTimestamp(3).toInstant(), rs.getTimestamp(4).toInstant(),
                rs.getString(5), rs.getInt(6), rs.getInt(7), rs.getInt(8), rs.getInt(9),
                cursor == null ? null : cursor.toInstant(), rs.getString(11), rs.getTimestamp(12).toInstant(),
                rs.getTimestamp(13).toInstant());
    }

    /**
     * Deletes up to {@code limit} ended backfills last changed before {@code before}, on the caller's connection. A
     * running one is still some replica's work.
     */
    public static int purgeEnded(Connection connection, Timestamp before, int limit) throws SQLException {
        return BatchDelete.rows(connection, """
                DELETE FROM onebeat_backfill WHERE id IN (
                    SELECT id FROM onebeat_backfill WHERE state <> 'running' AND updated_at < ?
                    LIMIT ? FOR UPDATE SKIP LOCKED)""", before, limit);
    }

    /**
     * Deletes up to {@code limit} backfills, running or not, of jobs no longer in the catalog, last changed before
     * {@code before}, on the caller's connection: no replica works on them any more.
     */
    public static int purgeDeletedJobs(Connection connection, Timestamp before, int limit) throws SQLException {
        return BatchDelete.rows(connection, """
                DELETE FROM onebeat_backfill WHERE id IN (
                    SELECT b.id FROM onebeat_backfill b WHERE b.updated_at < ?
                    AND NOT EXISTS (SELECT 1 FROM onebeat_job j WHERE j.name = b.job_name)
                    LIMIT ? FOR UPDATE OF b SKIP LOCKED)""", before, limit);
    }
}
