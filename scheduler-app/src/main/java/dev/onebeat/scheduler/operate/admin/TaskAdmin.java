package dev.onebeat.scheduler.operate.admin;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Lists outbox tasks and lets an operator retry or discard one. Both changes lock the row first, so
 * they never race a relay that is claiming it (the relay skips locked rows); a task the relay holds
 * ({@code claimed}) or has sent cannot be changed.
 */
@Component
public class TaskAdmin {

    /** Every status of an outbox task, in the order a task passes through them. */
    public static final List<String> STATUSES = List.of("pending", "claimed", "published", "done", "failed", "dead");

    /** The most tasks a page counts. */
    public static final int COUNT_CAP = 10_000;

    private static final String COLUMNS = """
            id, idempotency_key, job_name, scheduled_at, task, queue, status, attempts, created_at, available_at,
            published_at, last_error""";

    private final JdbcClient jdbc;
    private final AuditLog audit;
    private final TransactionTemplate transactions;

    TaskAdmin(JdbcClient jdbc, AuditLog audit, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.audit = audit;
        this.transactions = transactions;
    }

    /**
     * A page of tasks. The count stops at {@value #COUNT_CAP}: an outbox of millions is not counted whole on every
     * page.
     *
     * @param total tasks matching the filters, at most {@value #COUNT_CAP}
     * @param totalCapped whether more than {@value #COUNT_CAP} match, so that {@code total} is a lower bound
     * @param hasMore whether tasks match beyond this page
     * @param items this page of them, newest first
     */
    public record TaskPage(long total, boolean totalCapped, boolean hasMore, List<TaskView> items) {
    }

    /** Filters left null match everything. */
    public TaskPage page(String status, String queue, String job, int limit, int offset) {
        String where = """
                WHERE (CAST(:status AS text) IS NULL OR status = :status)
                  AND (CAST(:queue AS text) IS NULL OR queue = :queue)
                  AND (CAST(:job AS text) IS NULL OR job_name = :job)""";
        Map<String, Object> filters = new HashMap<>();
        filters.put("status", status);
        filters.put("queue", queue);
        filters.put("job", job);
        // counts at most one row past the cap, however many match
        long counted = jdbc.sql("SELECT count(*) FROM (SELECT 1 FROM onebeat_task " + where + " LIMIT :cap) matching")
                .params(filters).param("cap", COUNT_CAP + 1).query(Long.class).single();
        List<TaskView> items = jdbc.sql("SELECT " + COLUMNS + " FROM onebeat_task " + where
                        + " ORDER BY id DESC LIMIT :limit OFFSET :offset")
                .params(filters).param("limit", limit + 1).param("offset", offset)
                .query(TaskAdmin::view)
                .list();
        boolean hasMore = items.size() > limit;
        return new TaskPage(Math.min(counted, COUNT_CAP), counted > COUNT_CAP, hasMore,
                hasMore ? items.subList(0, limit) : items);
    }

    /**
     * Makes a failed or dead task pending again, due now, with its attempts back to 0: a queue worker
     * runs it again with all of its {@code maxAttempts}, a relay publishes it again starting from its
     * first backoff. Its last error is kept, the attempts it had are in the audit row.
     *
     * @throws UnknownTaskException if there is no such task
     * @throws AdminConflictException if it is not failed or dead
     */
    public TaskView retry(long id) {
        return change(id, "task.retry", Set.of("failed", "dead"), "retried", () -> jdbc.sql("""
                        -- attempts = 0 is what makes it run: a worker buries unrun a task claimed past maxAttempts
                        UPDATE onebeat_task SET status = 'pending', available_at = now(), attempts = 0,
                            locked_by = NULL, locked_until = NULL
                        WHERE id = ?""").param(id).update());
    }

    /**
     * Gives up on a pending or failed task: it becomes dead, with who discarded it as its last error.
     *
     * @throws UnknownTaskException if there is no such task
     * @throws AdminConflictException if it is not pending or failed
     */
    public TaskView discard(long id) {
        return change(id, "task.discard", Set.of("pending", "failed"), "discarded", () -> jdbc.sql("""
                        UPDATE onebeat_task SET status = 'dead', last_error = 'discarded by ' || ?, locked_by = NULL,
                            locked_until = NULL
                        WHERE id = ?""").params(Actor.current(), id).update());
    }

    private TaskView change(long id, String action, Set<String> from, String verb, Runnable update) {
        return transactions.execute(status -> {
            // the row lock keeps a relay from claiming the task between the check and the update
            TaskView before = jdbc.sql("SELECT " + COLUMNS + " FROM onebeat_task WHERE id = ? FOR UPDATE")
                    .param(id).query(TaskAdmin::view).optional()
                    .orElseThrow(() -> new UnknownTaskException(id));
            if (!from.contains(before.status())) {
                throw new AdminConflictException("task " + id + " is " + before.status() + "; only "
                        + String.join(" or ", from.stream().sorted().toList()) + " tasks can be " + verb);
            }
            update.run();
            TaskView after = jdbc.sql("SELECT " + COLUMNS + " FROM onebeat_task WHERE id = ?")
                    .param(id).query(TaskAdmin::view).single();
            audit.record(action, "task", Long.toString(id), state(before), state(after), null);
            return after;
        });
    }

    private static Map<String, Object> state(TaskView task) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("status", task.status());
        state.put("attempts", task.attempts());
        state.put("availableAt", task.availableAt().toString());
        state.put("lastError", task.lastError());
        return state;
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
