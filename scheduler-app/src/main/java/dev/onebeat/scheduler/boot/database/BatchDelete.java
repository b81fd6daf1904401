package dev.onebeat.scheduler.boot.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;

/**
 * Runs one batch of a retention delete on the caller's connection, so that it commits or rolls back with the
 * caller's transaction. The statement is its table owner's; its parameters are the bound rows are older than, then
 * the most rows to delete.
 */
public final class BatchDelete {

    private BatchDelete() {
    }

    /** @return the rows {@code sql} deleted, at most {@code limit} */
    public static int rows(Connection connection, String sql, Timestamp before, int limit) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(sql)) {
            delete.setTimestamp(1, before);
            delete.setInt(2, limit);
            return delete.executeUpdate();
        }
    }
}
