package dev.onebeat.scheduler.engine.outbox;

import dev.onebeat.scheduler.boot.database.BatchDelete;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Every statement on {@code onebeat_task} that is not the fire path's insert ({@link OutboxWriter}) or the relay's
 * claims and marks ({@code RelayRepository}): what operators list and change, what the gauges and the dashboard count,
 * and what retention deletes. Together those three classes are the table's owner; its indexes and row locks are
 * reasoned about there and nowhere else.
 */
@Component
public class TaskTable {

    private static final String COLUMNS = """
            id, idempotency_key, job_name, scheduled_at, task, queue, status, attempts, created_at, available_at,
            published_at, last_error""";

    private static final String WHERE = """
            WHERE (CAST(:status AS text) IS NULL OR status = :status)
              AND (CAST(:queue AS text) IS NULL OR queue = :queue)
              AND (CAST(:job AS text) IS NULL OR job_name = :job)
              AND (CAST(:namespaces AS varchar[]) IS NULL OR job_name IN (
                  SELECT name FROM onebeat_job WHERE namespace = ANY(CAST(:namespaces AS varchar[]))))""";

    // one pass over the partial "pending" index; not-yet-due rows count as pending but not as waiting. A retry
    // moves available_at on, so a row tried before counts from when it was written, not from its last failure:
    // the age keeps growing while its broker stays down (a delayed task's from before it was due)
    private static final String PENDING = """
            SELECT queue, count(*),
                   min(CASE WHEN attempts = 0 THEN available_at ELSE created_at END)
                       FILTER (WHERE attempts > 0 OR available_at <= now()),
                   now()
            FROM onebeat_task WHERE status = 'pending' GROUP BY queue
            """;

    // the lease index (locked_until WHERE status = 'claimed') holds only the claims, a handful of rows
    private static final String CLAIMED_OVERDUE = """
            SELECT queue, count(*) FROM onebeat_task WHERE status = 'claimed' AND locked_until < now() GROUP BY queue
            """;

    // only finished rows: pending and claimed ones are still the relay's or a worker's
    private static final String PURGE_PUBLISHED = """
            DELETE FROM onebeat_task WHERE id IN (
                SELECT id FROM onebeat_task WHERE status IN ('published', 'done') AND created_at < ?
                LIMIT ? FOR UPDATE SKIP LOCKED)""";

    private static final String PURGE_FAILED = """
            DELETE FROM onebeat_task WHERE id IN (
                SELECT id FROM onebeat_task WHERE status IN ('failed', 'dead') AND created_at < ?
                LIMIT ? FOR UPDATE SKIP LOCKED)""";

    private final JdbcClient jdbc;

    public TaskTable(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * A queue's pending tasks.
     *
     * @param count pending rows, due or not
     * @param oldestAgeMillis how long the oldest due one has waited, by the database's clock; 0 if none is due
     */
    public record Pending(String queue, long count, long oldestAgeMillis) {
    }

    /** @return per queue with pending tasks, how many and how long the oldest due one has waited */
    public List<Pending> pendingByQueue() {
        return jdbc.sql(PENDING).query((rs, row) -> {
            Timestamp oldest = rs.getTimestamp(3);
            Instant now = rs.getTimestamp(4).toInstant();
            long ageMillis = oldest == null ? 0 : Math.max(0, Duration.between(oldest.toInstant(), now).toMillis());
            return new Pending(rs.getString(1), rs.getLong(2), ageMillis);
        }).list();
    }

    /** @return per queue with claims past their lease, how many */
    public Map<String, Long> claimedOverdueByQueue() {
        Map<String, Long> overdue = new HashMap<>();
        jdbc.sql(CLAIMED_OVERDUE).query(rs -> {
            overdue.put(rs.getString(1), rs.getLong(2));
        });
        return overdue;
    }

    /** @return rows pending, claimed, failed or dead, by status; statuses with none left out */
    public Map<String, Long> countUnfinishedByStatus() {
        Map<String, Long> counts = new LinkedHashMap<>();
        jdbc.sql("""
                        SELECT status, count(*) FROM onebeat_task WHERE status IN ('pending', 'claimed', 'failed', 'dead')
                        GROUP BY status
                        """)
                .query((rs, row) -> counts.put(rs.getString(1), rs.getLong(2))).list();
        return counts;
    }

    /**
     * Filters left null match everything; {@code namespaces}, the tasks of the jobs of these namespaces only.
     *
     * @return rows matching, counting at most {@code cap + 1}
     */
    public long countMatching(String status, String queue, String job, Collection<String> namespaces, int cap) {
        // counts at most one row past the cap, however many match
        return jdbc.sql("SELECT count(*) FROM (SELECT 1 FROM onebeat_task " + WHERE + " LIMIT :cap) matching")
                .params(filters(status, queue, job, namespaces)).param("cap", cap + 1).query(Long.class).single();
    }

    /** Filters as {@link #countMatching}. @return matching rows, newest first */
    public List<TaskView> list(String status, String queue, String job, Collection<String> namespaces, int limit,
                               int offset) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM onebeat_task " + WHERE + " ORDER BY id DESC LIMIT :limit OFFSET :offset")
                .params(filters(status, queue, job, namespaces)).param("limit", limit).param("offset", offset)
                .query(TaskTable::view)
                .list();
    }

    /**
     * Locks a row until the caller's transaction ends; a relay claiming skips it meanwhile. Does not wait: a relay
     * holds the rows it publishes locked for as long as the publish takes.
     *
     * @return the row, or empty if there is none
     * @throws org.springframework.dao.CannotAcquireLockException if a relay (or another operator) holds it now
     */
    public Optional<TaskView> lock(long id) {
        try {
            return jdbc.sql("SELECT " + COLUMNS + " FROM onebeat_task WHERE id = ? FOR UPDATE NOWAIT")
                    .param(id).query(TaskTable::view).optional();
        } catch (DataAccessException e) {
            // lock_not_available: the JdbcClient's translator leaves it uncategorized (seen with Spring 7.0)
            if (e.getMostSpecificCause() instanceof SQLException sql && "55P03".equals(sql.getSQLState())) {
                throw new CannotAcquireLockException("task " + id + " is locked", sql);
            }
            throw e;
        }
    }

    /** @return the row, which must exist */
    public TaskView get(long id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM onebeat_task WHERE id = ?").param(id).query(TaskTable::view).single();
    }

    /** Makes a row pending again, due now, with its attempts back to 0. */
    public void retry(long id) {
        jdbc.sql("""
                -- attempts = 0 is what makes it run: a worker buries unrun a task claimed past maxAttempts
                UPDATE onebeat_task SET status = 'pending', available_at = now(), attempts = 0,
                    locked_by = NULL, locked_until = NULL
                WHERE id = ?""").param(id).update();
    }

    /** Makes a row dead, with who discarded it as its last error. */
    public void discard(long id, String actor) {
        jdbc.sql("""
                UPDATE onebeat_task SET status = 'dead', last_error = 'discarded by ' || ?, locked_by = NULL,
                    locked_until = NULL
                WHERE id = ?""").params(actor, id).update();
    }

    /** Deletes up to {@code limit} published or done rows written before {@code before}, on {@code connection}. */
    public static int purgePublished(Connection connection, Timestamp before, int limit) throws SQLException {
        return BatchDelete.rows(connection, PURGE_PUBLISHED, before, limit);
    }

    /** Deletes up to {@code limit} failed or dead rows written before {@code before}, on {@code connection}. */
    public static int purgeFailed(Connection connection, Timestamp before, int limit) throws SQLException {
        return BatchDelete.rows(connection, PURGE_FAILED, before, limit);
    }

    private static Map<String, Object> filters(String status, String queue, String job,
                                               Collection<String> namespaces) {
        Map<String, Object> filters = new HashMap<>();
        filters.put("status", status);
        filters.put("queue", queue);
        filters.put("job", job);
        filters.put("namespaces", namespaces == null ? null : namespaces.toArray(String[]::new));
        return filters;
    }

    /** @return the name of the job that dispatched the task, if there is such a task */
    public Optional<String> jobOf(long id) {
        return jdbc.sql("SELECT job_name FROM onebeat_task WHERE id = ?").param(id).query(String.class).optional();
    }

    private static TaskView view(ResultSet rs, int row) throws SQLException {
        return new TaskView(rs.getLong(1), rs.getString(2), rs.getString(3), instant(rs.getTimestamp(4)),
                rs.getString(5), rs.getString(6), rs.getString(7), rs.getInt(8), instant(rs.getTimestamp(9)),
                instant(rs.getTimestamp(10)), instant(rs.getTimestamp(11)), rs.getString(12));
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
