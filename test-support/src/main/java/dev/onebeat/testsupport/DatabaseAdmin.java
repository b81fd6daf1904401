package dev.onebeat.testsupport;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;

/**
 * Creates and drops test databases over the server's admin connection.
 */
final class DatabaseAdmin {

    // the names are spliced into DDL, which takes no bind parameters; keep them plain identifiers
    private static final Pattern PLAIN_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private DatabaseAdmin() {
    }

    /**
     * Creates an empty database owned by the admin role.
     *
     * @throws IllegalStateException if the server refuses, for example because the name is taken
     */
    static TestDatabase create(PostgresServer server, String name) {
        // template0 rather than template1: objects someone added to template1 would make the database not empty
        return create(server, name, DatabaseTemplates.EMPTY);
    }

    /**
     * Creates a database owned by the admin role as a copy of {@code template}, which must have no session.
     *
     * @throws IllegalStateException if the server refuses, for example because the name is taken
     */
    static TestDatabase create(PostgresServer server, String name, String template) {
        execute(server, "CREATE DATABASE " + quoted(name) + " TEMPLATE " + quoted(template), "create", name);
        return server.database(name);
    }

    /**
     * Drops the database if it exists, ending the sessions still connected to it: pools the tests
     * did not close and child JVMs that are still running would otherwise block the drop.
     *
     * @throws IllegalStateException if the server refuses
     */
    static void drop(PostgresServer server, String name) {
        // WITH (FORCE) needs PostgreSQL 13 or later
        execute(server, "DROP DATABASE IF EXISTS " + quoted(name) + " WITH (FORCE)", "drop", name);
    }

    private static void execute(PostgresServer server, String sql, String action, String name) {
        try (Connection connection = server.admin().connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("could not " + action + " database " + name + " on the "
                    + server.source() + " server " + JdbcUrls.redacted(server.admin().jdbcUrl()), e);
        }
    }

    private static String quoted(String name) {
        if (!PLAIN_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("database name must match " + PLAIN_NAME + ", was " + name);
        }
        return '"' + name + '"';
    }
}
