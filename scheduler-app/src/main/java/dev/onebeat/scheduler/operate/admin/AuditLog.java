package dev.onebeat.scheduler.operate.admin;

import dev.onebeat.scheduler.boot.database.BatchDelete;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The audit log, {@code onebeat_audit}: who changed what, when, from which state to which. */
@Component
public class AuditLog {

    private final JdbcClient jdbc;
    private final JsonMapper json;

    AuditLog(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /**
     * Records a change made by the current {@link Actor} in the caller's transaction, so the row
     * commits or rolls back with the change. The entry belongs to the namespace of the job it is about (a
     * {@code job}'s, a {@code task}'s job's, as the catalog holds it now); to none, for the cluster's own objects
     * (calendars), which only users with a role over the cluster read.
     *
     * @param before state before the change (a map or record serialised as JSON), null if none
     * @param after state after the change, null if the change removed the target
     * @param requestId the client's request id, or null
     * @throws IllegalStateException if no transaction is active: an audit row written alone could
     *         outlive a change that rolled back
     */
    public void record(String action, String targetType, String target, Object before, Object after, String requestId) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("audit of " + action + " " + target
                    + " must run in the change's transaction");
        }
        jdbc.sql("""
                        INSERT INTO onebeat_audit (actor, action, target_type, target, before, after, request_id,
                                                   namespace)
                        VALUES (?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, CASE ?
                            WHEN 'job' THEN (SELECT namespace FROM onebeat_job WHERE name = ?)
                            WHEN 'namespace' THEN CAST(? AS varchar)
                            WHEN 'task' THEN (SELECT j.namespace FROM onebeat_task t
                                              JOIN onebeat_job j ON j.name = t.job_name WHERE t.id = CAST(? AS bigint))
                        END)
                        """)
                .params(Actor.current(), action, targetType, target, toJson(before), toJson(after), requestId,
                        targetType, target, target, "task".equals(targetType) ? target : null)
                .update();
    }

    /**
     * @param target only this job name or task id, or null for all
     * @param actor only changes by this user, or null for all
     * @param namespaces only the entries of these namespaces, or null for all (the cluster's own included)
     * @return entries newest first
     */
    public List<AuditEntry> page(String target, String actor, Collection<String> namespaces, int limit, int offset) {
        return jdbc.sql("""
                        SELECT id, at, actor, action, target_type, target, before::text, after::text, request_id,
                               namespace
                        FROM onebeat_audit
                        WHERE (CAST(:target AS text) IS NULL OR target = :target)
                          AND (CAST(:actor AS text) IS NULL OR actor = :actor)
                          AND (CAST(:namespaces AS varchar[]) IS NULL
                               OR namespace = ANY(CAST(:namespaces AS varchar[])))
                        ORDER BY at DESC, id DESC LIMIT :limit OFFSET :offset
                        """)
                .params(Map.of("limit", limit, "offset", offset))
                .param("target", target)
                .param("actor", actor)
                .param("namespaces", namespaces == null ? null : namespaces.toArray(String[]::new))
                .query(this::entry)
                .list();
    }

    private AuditEntry entry(ResultSet rs, int row) throws SQLException {
        return new AuditEntry(rs.getLong(1), rs.getTimestamp(2).toInstant(), rs.getString(3), rs.getString(4),
                rs.getString(5), rs.getString(6), fromJson(rs.getString(7)), fromJson(rs.getString(8)),
                rs.getString(9), rs.getString(10));
    }

    private String toJson(Object value) {
        return value == null ? null : json.writeValueAsString(value);
    }

    private JsonNode fromJson(String text) {
        return text == null ? null : json.readTree(text);
    }

    /** Deletes up to {@code limit} audit rows written before {@code before}, on the caller's connection. */
    public static int purge(Connection connection, Timestamp before, int limit) throws SQLException {
        return BatchDelete.rows(connection, """
                DELETE FROM onebeat_audit WHERE id IN (
                    SELECT id FROM onebeat_audit WHERE at < ? LIMIT ? FOR UPDATE SKIP LOCKED)""", before, limit);
    }
}
