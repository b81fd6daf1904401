package dev.onebeat.worker.retention;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.OffsetDateTime;

/** One table's delete of a batch of rows older than the horizon. */
enum Purge {

    // the journal can be forgotten once no redelivery of its keys can arrive any more
    JOURNAL("DELETE FROM onebeat_processed WHERE ctid = ANY(ARRAY("
            + "SELECT ctid FROM onebeat_processed WHERE processed_at < ? LIMIT ?))"),
    // only finished tasks: pending, claimed and failed ones are still someone's work
    TASKS("DELETE FROM onebeat_task WHERE id IN (SELECT id FROM onebeat_task "
            + "WHERE status IN ('published', 'done', 'dead') AND created_at < ? LIMIT ? FOR UPDATE SKIP LOCKED)"),
    // only finished effects: pending and sending ones have not been delivered yet
    EFFECTS("DELETE FROM onebeat_effect WHERE id IN (SELECT id FROM onebeat_effect "
            + "WHERE status IN ('sent', 'dead') AND created_at < ? LIMIT ? FOR UPDATE SKIP LOCKED)");

    private final String sql;

    Purge(String sql) {
        this.sql = sql;
    }

    int batch(Connection connection, OffsetDateTime horizon, int limit) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(sql)) {
            delete.setObject(1, horizon);
            delete.setInt(2, limit);
            return delete.executeUpdate();
        }
    }
}
