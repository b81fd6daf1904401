package dev.onebeat.worker.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * A plain table without a unique constraint standing for a handler's effect: a second application
 * shows up as a second row.
 */
final class Effects {

    private final DataSource dataSource;

    Effects(DataSource dataSource) throws SQLException {
        this.dataSource = dataSource;
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS test_effect (key TEXT NOT NULL, at TIMESTAMPTZ DEFAULT now())");
        }
    }

    static void apply(Connection transaction, String key) throws SQLException {
        try (PreparedStatement insert = transaction.prepareStatement("INSERT INTO test_effect (key) VALUES (?)")) {
            insert.setString(1, key);
            insert.executeUpdate();
        }
    }

    long count(String key) throws SQLException {
        return query("SELECT count(*) FROM test_effect WHERE key = ?", key);
    }

    long journalRows(String key) throws SQLException {
        return query("SELECT count(*) FROM onebeat_processed WHERE idempotency_key = ?", key);
    }

    void forget(String key) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement delete = connection.prepareStatement(
                     "DELETE FROM onebeat_processed WHERE idempotency_key = ?")) {
            delete.setString(1, key);
            delete.executeUpdate();
        }
    }

    long query(String sql, String key) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, key);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}
