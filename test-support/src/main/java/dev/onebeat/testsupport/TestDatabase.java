package dev.onebeat.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A PostgreSQL database on a running server, and how to reach it.
 *
 * <p>The {@link #password()} is never part of {@link #toString()}, so the value is safe to log.
 *
 * @param name the database name
 * @param jdbcUrl a {@code jdbc:postgresql:} URL of the database; it may carry connection
 *     parameters, credentials among them, when the server was given by such a URL
 * @param username the role to connect as
 * @param password the role's password; empty when the server trusts the connection
 */
public record TestDatabase(String name, String jdbcUrl, String username, String password) {

    private static final String URL_PREFIX = "jdbc:postgresql:";

    /**
     * Checks the components.
     *
     * @param name the database name
     * @param jdbcUrl a {@code jdbc:postgresql:} URL of the database
     * @param username the role to connect as
     * @param password the role's password, possibly empty
     * @throws NullPointerException if a component is null
     * @throws IllegalArgumentException if the name or username is blank, or the URL is not a
     *     {@code jdbc:postgresql:} one
     */
    public TestDatabase {
        Objects.requireNonNull(name, "name must not be null");
        Objects.requireNonNull(jdbcUrl, "jdbcUrl must not be null");
        Objects.requireNonNull(username, "username must not be null");
        Objects.requireNonNull(password, "password must not be null");
        if (name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        if (!jdbcUrl.startsWith(URL_PREFIX)) {
            throw new IllegalArgumentException(
                    "jdbcUrl must start with " + URL_PREFIX + ", was " + JdbcUrls.redacted(jdbcUrl));
        }
        if (username.isBlank()) {
            throw new IllegalArgumentException("username must not be blank");
        }
    }

    /**
     * A data source of this database that opens a new physical connection on every
     * {@code getConnection()}; wrap it in a pool if the code under test expects one.
     *
     * @return a new, unpooled data source
     */
    public DataSource dataSource() {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(jdbcUrl);
        dataSource.setUser(username);
        dataSource.setPassword(password);
        return dataSource;
    }

    /**
     * Opens a connection to this database; the caller closes it.
     *
     * @return a new connection in auto-commit mode
     * @throws SQLException if the server cannot be reached or refuses the connection
     */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, username, password);
    }

    /**
     * The {@link #jdbcUrl()} with {@code user} and, unless empty, {@code password} added as URL
     * parameters where the URL lacks them: one string is enough to connect, which suits a child JVM
     * or a tool that takes only a URL. The result holds the password; do not log it.
     *
     * @return a URL that carries its own credentials
     */
    public String jdbcUrlWithCredentials() {
        Map<String, String> credentials = new LinkedHashMap<>();
        credentials.put("user", username);
        if (!password.isEmpty()) {
            credentials.put("password", password);
        }
        return JdbcUrls.withMissingParameters(jdbcUrl, credentials);
    }

    /** @return the name, URL (with any password in it masked) and user; never the password */
    @Override
    public String toString() {
        return "TestDatabase[name=" + name + ", jdbcUrl=" + JdbcUrls.redacted(jdbcUrl)
                + ", username=" + username + ", password=" + (password.isEmpty() ? "" : "***") + "]";
    }
}
