package dev.onebeat.scheduler.fire;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** The fire ledger, {@code onebeat_fire}: one row per committed (job, scheduled instant). */
@Component
public class FireLedger {

    private final JdbcClient jdbc;

    FireLedger(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Claims (job, scheduledAt) inside the caller's transaction. A concurrent claim of the same pair
     * waits for this transaction to end, then finds the row (if committed) and gets {@code false}.
     *
     * @return true if this transaction now owns the fire; false if it was fired before
     */
    boolean claim(String job, Instant scheduledAt, Instant firedAt, String node, FireTrigger trigger) {
        // UNIQUE(job_name, scheduled_at) is the exactly-once guard
        int inserted = jdbc.sql("""
                        INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome)
                        VALUES (?, ?, ?, ?, ?, 'committed')
                        ON CONFLICT (job_name, scheduled_at) DO NOTHING
                        """)
                .params(job, Timestamp.from(scheduledAt), Timestamp.from(firedAt), node, trigger.column())
                .update();
        return inserted == 1;
    }

    /** Records what the fire did, in the same transaction as {@link #claim}. */
    void complete(String job, Instant scheduledAt, int tasks, int duplicateTasks, long durationMillis) {
        jdbc.sql("""
                        UPDATE onebeat_fire SET task_count = ?, duplicate_task_count = ?, duration_ms = ?
                        WHERE job_name = ? AND scheduled_at = ?
                        """)
                .params(tasks, duplicateTasks, durationMillis, job, Timestamp.from(scheduledAt))
                .update();
    }

    /**
     * @param job the job name
     * @param limit at most this many, newest scheduled instant first
     * @return the job's committed fires
     */
    public List<FireRecord> history(String job, int limit) {
        return history(FireFilter.latest(job, limit));
    }

    /** @return the fires {@code filter} selects, newest scheduled instant first */
    public List<FireRecord> history(FireFilter filter) {
        return jdbc.sql("""
                        SELECT job_name, scheduled_at, fired_at, node, trigger_kind, outcome, task_count,
                               duplicate_task_count, duration_ms
                        FROM onebeat_fire
                        WHERE job_name = :job
                          AND (CAST(:outcome AS text) IS NULL OR outcome = :outcome)
                          AND (CAST(:trigger AS text) IS NULL OR trigger_kind = :trigger)
                          AND (CAST(:from AS timestamptz) IS NULL OR scheduled_at >= :from)
                          AND (CAST(:to AS timestamptz) IS NULL OR scheduled_at < :to)
                        ORDER BY scheduled_at DESC LIMIT :limit
                        """)
                .param("job", filter.job())
                .param("outcome", filter.outcome())
                .param("trigger", filter.trigger())
                .param("from", timestamp(filter.from()))
                .param("to", timestamp(filter.to()))
                .param("limit", filter.limit())
                .query((rs, row) -> new FireRecord(rs.getString(1), rs.getTimestamp(2).toInstant(),
                        rs.getTimestamp(3).toInstant(), rs.getString(4), rs.getString(5), rs.getString(6),
                        rs.getInt(7), rs.getInt(8), rs.getLong(9)))
                .list();
    }

    private static Timestamp timestamp(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }
}
