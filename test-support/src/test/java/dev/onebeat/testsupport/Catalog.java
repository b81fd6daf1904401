package dev.onebeat.testsupport;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** What the tests ask a server about its databases. */
final class Catalog {

    private Catalog() {
    }

    static boolean exists(PostgresServer server, String database) throws SQLException {
        try (Connection connection = server.admin().connect();
                PreparedStatement statement = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            statement.setString(1, database);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next();
            }
        }
    }

    static String currentDatabase(Connection connection) throws SQLException {
        return single(connection, "SELECT current_database()");
    }

    /** Tables, views and sequences outside the system schemas. */
    static long userRelations(Connection connection) throws SQLException {
        return Long.parseLong(single(connection, """
                SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
                """));
    }

    private static String single(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }
}
