package dev.onebeat.scheduler.engine.fire;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * One attempt of a job's instant: its committed fire (a row of the ledger) or an attempt that did not
 * commit (failed, skipped or a duplicate).
 *
 * @param job job name
 * @param scheduledAt logical scheduled instant
 * @param firedAt when the fire started, on the firing replica's clock
 * @param node Quartz instance id of the firing replica
 * @param trigger scheduled, misfire, recovery, manual or retry
 * @param outcome committed, failed, skipped or duplicate
 * @param taskCount tasks inserted (0 unless committed)
 * @param duplicateTaskCount dispatches whose key already existed
 * @param durationMillis time from lock to commit (0 unless committed)
 * @param attempt which attempt of the instant, from 1
 * @param reason why a skipped instant was not fired, or null
 * @param error the failure's class and message, or null
 * @param retryAt when the next attempt of a failed one is due; null after the last, or if not failed
 * @param run the run outside the schedule (a "trigger now" request id), or null for the schedule's fire
 */
public record FireRecord(String job, Instant scheduledAt, Instant firedAt, String node, String trigger,
                         String outcome, int taskCount, int duplicateTaskCount, long durationMillis, int attempt,
                         String reason, String error, Instant retryAt, String run) {

    /** The history's columns, in the order {@link #read} reads them, over onebeat_fire and its attempts. */
    static final String COLUMNS = """
            SELECT job_name, scheduled_at, fired_at, node, trigger_kind, outcome, task_count, duplicate_task_count,
                   duration_ms, attempt, NULL AS reason, NULL AS error, NULL::timestamptz AS retry_at, run_id
            FROM onebeat_fire
            UNION ALL
            SELECT job_name, scheduled_at, attempted_at, node, trigger_kind, outcome, 0, 0, 0, attempt, reason,
                   error_class || ': ' || error_message, retry_at, run_id
            FROM onebeat_fire_attempt
            """;

    /** @return whether a later attempt of this failed one is armed */
    public boolean retrying() {
        return retryAt != null;
    }

    static FireRecord read(ResultSet rs, int row) throws SQLException {
        Timestamp retryAt = rs.getTimestamp(13);
        return new FireRecord(rs.getString(1), rs.getTimestamp(2).toInstant(), rs.getTimestamp(3).toInstant(),
                rs.getString(4), rs.getString(5), rs.getString(6), rs.getInt(7), rs.getInt(8), rs.getLong(9),
                rs.getInt(10), rs.getString(11), rs.getString(12), retryAt == null ? null : retryAt.toInstant(),
                FireRun.of(rs.getString(14)));
    }
}
