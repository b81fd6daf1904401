package dev.onebeat.scheduler.engine.outbox;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Inserts tasks into {@code onebeat_task}, one statement per batch. It joins the caller's
 * transaction: the rows commit or roll back with the fire. Each task's {@link dev.onebeat.transport.TaskPayload}
 * is stored as its JSON here; the relay's claim reads it back.
 */
@Component
public class OutboxWriter {

    // One statement per batch: the arrays are unnested server-side, so 1,000 tasks cost one round trip.
    // UNIQUE(idempotency_key) is the once-per-key guard; a conflicting row is skipped, not an error.
    private static final String INSERT_BATCH = """
            INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, entity_type, entity_id,
                                      payload, available_at)
            SELECT u.k, ?, ?, u.t, u.q, u.et, u.ei, u.p::jsonb, coalesce(u.nb::timestamptz, now())
            FROM unnest(?::varchar[], ?::varchar[], ?::varchar[], ?::varchar[], ?::varchar[], ?::text[], ?::text[])
                 AS u(k, t, q, et, ei, p, nb)
            ON CONFLICT (idempotency_key) DO NOTHING
            """;

    // The same for the tasks of many jobs' fires of one instant; RETURNING tells how many rows each job got.
    private static final String INSERT_JOBS_BATCH = """
            INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, entity_type, entity_id,
                                      payload, available_at)
            SELECT u.k, u.j, ?, u.t, u.q, u.et, u.ei, u.p::jsonb, coalesce(u.nb::timestamptz, now())
            FROM unnest(?::varchar[], ?::varchar[], ?::varchar[], ?::varchar[], ?::varchar[], ?::varchar[], ?::text[],
                        ?::text[]) AS u(j, k, t, q, et, ei, p, nb)
            ON CONFLICT (idempotency_key) DO NOTHING
            RETURNING job_name
            """;

    private final JdbcTemplate jdbc;
    private final QueuePolicy queues;

    /**
     * @param jdbc the fire's data source
     * @param queues which queues may be dispatched to; every queue when there is no such bean
     */
    public OutboxWriter(JdbcTemplate jdbc, ObjectProvider<QueuePolicy> queues) {
        this.jdbc = jdbc;
        this.queues = queues.getIfAvailable(() -> QueuePolicy.ANY);
    }

    /**
     * @param job the dispatching job
     * @param scheduledAt its fire's scheduled instant
     * @param tasks the batch; keys within one batch must be distinct
     * @return how many rows were inserted; the rest already existed
     * @throws IllegalArgumentException if a task's queue may not be used (nothing is written)
     */
    public int insert(String job, Instant scheduledAt, List<OutboxTask> tasks) {
        if (tasks.isEmpty()) {
            return 0;
        }
        requireRouted(tasks);
        Integer inserted = jdbc.execute((Connection con) -> {
            try (PreparedStatement ps = con.prepareStatement(INSERT_BATCH)) {
                ps.setString(1, job);
                ps.setTimestamp(2, Timestamp.from(scheduledAt));
                new Columns(tasks).bind(con, ps, 3);
                return ps.executeUpdate();
            }
        });
        return inserted == null ? 0 : inserted;
    }

    /**
     * @param tasks tasks about to be written
     * @throws IllegalArgumentException naming the queue of the first task that may not be used
     */
    public void requireRouted(List<OutboxTask> tasks) {
        for (OutboxTask task : tasks) {
            queues.requireRouted(task.queue());
        }
    }

    /**
     * Inserts the tasks of several jobs' fires of one instant in one statement.
     *
     * @param scheduledAt the fires' scheduled instant
     * @param jobs per task, the dispatching job; same size as {@code tasks}
     * @param tasks keys must be distinct
     * @return per job, how many rows were inserted (jobs with none are absent)
     * @throws IllegalArgumentException if a task's queue may not be used (nothing is written)
     */
    public Map<String, Integer> insertAll(Instant scheduledAt, List<String> jobs, List<OutboxTask> tasks) {
        if (tasks.isEmpty()) {
            return Map.of();
        }
        requireRouted(tasks);
        Map<String, Integer> inserted = jdbc.execute((Connection con) -> {
            try (PreparedStatement ps = con.prepareStatement(INSERT_JOBS_BATCH)) {
                ps.setTimestamp(1, Timestamp.from(scheduledAt));
                ps.setArray(2, array(con, "varchar", jobs.toArray(String[]::new)));
                new Columns(tasks).bind(con, ps, 3);
                Map<String, Integer> counts = new HashMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        counts.merge(rs.getString(1), 1, Integer::sum);
                    }
                }
                return counts;
            }
        });
        return inserted == null ? Map.of() : inserted;
    }

    /** The tasks' fields as one array each, the shape {@code unnest} takes. */
    private static final class Columns {
        final String[] keys;
        final String[] names;
        final String[] queues;
        final String[] types;
        final String[] ids;
        final String[] payloads;
        final String[] notBefore;

        Columns(List<OutboxTask> tasks) {
            int n = tasks.size();
            keys = new String[n];
            names = new String[n];
            queues = new String[n];
            types = new String[n];
            ids = new String[n];
            payloads = new String[n];
            notBefore = new String[n];
            for (int i = 0; i < n; i++) {
                OutboxTask task = tasks.get(i);
                keys[i] = task.key().value();
                names[i] = task.task();
                queues[i] = task.queue();
                types[i] = task.entity() == null ? null : task.entity().type();
                ids[i] = task.entity() == null ? null : task.entity().id();
                payloads[i] = task.payload().toJson();
                notBefore[i] = task.notBefore() == null ? null : task.notBefore().toString();
            }
        }

        /** Sets the seven arrays as the parameters from {@code first} on, in the order the statements take them. */
        void bind(Connection con, PreparedStatement ps, int first) throws SQLException {
            ps.setArray(first, array(con, "varchar", keys));
            ps.setArray(first + 1, array(con, "varchar", names));
            ps.setArray(first + 2, array(con, "varchar", queues));
            ps.setArray(first + 3, array(con, "varchar", types));
            ps.setArray(first + 4, array(con, "varchar", ids));
            ps.setArray(first + 5, array(con, "text", payloads));
            ps.setArray(first + 6, array(con, "text", notBefore));
        }
    }

    private static Array array(Connection con, String type, String[] values) throws SQLException {
        return con.createArrayOf(type, values);
    }
}
