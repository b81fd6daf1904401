package dev.onebeat.worker.effect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Reads and writes {@code onebeat_effect} rows for the tests. */
final class EffectRows {

    record Row(String status, int attempts, String lastError, boolean hasSentAt) {
    }

    private final DataSource dataSource;

    EffectRows(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Records the effect in a transaction of its own and commits. */
    void recordCommitted(Effect effect) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            EffectOutbox.record(connection, effect);
            connection.commit();
        }
    }

    void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.createStatement().execute(sql);
        }
    }

    Row row(String key) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT status, attempts, last_error, sent_at IS NOT NULL FROM onebeat_effect WHERE idempotency_key = ?")) {
            select.setString(1, key);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? new Row(rows.getString(1), rows.getInt(2), rows.getString(3), rows.getBoolean(4)) : null;
            }
        }
    }

    long count(String where) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             ResultSet rows = connection.createStatement().executeQuery("SELECT count(*) FROM onebeat_effect WHERE " + where)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
