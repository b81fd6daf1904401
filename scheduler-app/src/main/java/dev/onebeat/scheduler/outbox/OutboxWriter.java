package dev.onebeat.scheduler.outbox;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Inserts tasks into {@code onebeat_task}, one statement per batch. It joins the caller's
 * transaction: the rows commit or roll back with the fire.
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
        for (OutboxTask task : tasks) {
            queues.requireRouted(task.queue());
        }
        Integer inserted = jdbc.execute((Connection con) -> {
            try (PreparedStatement ps = con.prepareStatement(INSERT_BATCH)) {
                ps.setString(1, job);
                ps.setTimestamp(2, Timestamp.from(scheduledAt));
                int n = tasks.size();
                String[] keys = new String[n], names = new String[n], queues = new String[n],
                        types = new String[n], ids = new String[n], payloads = new String[n], notBefore = new String[n];
                for (int i = 0; i < n; i++) {
                    OutboxTask task = tasks.get(i);
                    keys[i] = task.key().value();
                    names[i] = task.task();
                    queues[i] = task.queue();
                    types[i] = task.entity() == null ? null : task.entity().type();
                    ids[i] = task.entity() == null ? null : task.entity().id();
                    payloads[i] = task.payloadJson();
                    notBefore[i] = task.notBefore() == null ? null : task.notBefore().toString();
                }
                ps.setArray(3, array(con, "varchar", keys));
                ps.setArray(4, array(con, "varchar", names));
                ps.setArray(5, array(con, "varchar", queues));
                ps.setArray(6, array(con, "varchar", types));
                ps.setArray(7, array(con, "varchar", ids));
                ps.setArray(8, array(con, "text", payloads));
                ps.setArray(9, array(con, "text", notBefore));
                return ps.executeUpdate();
            }
        });
        return inserted == null ? 0 : inserted;
    }

    private static Array array(Connection con, String type, String[] values) throws SQLException {
        return con.createArrayOf(type, values);
    }
}
