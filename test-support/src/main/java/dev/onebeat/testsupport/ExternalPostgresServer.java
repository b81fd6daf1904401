package dev.onebeat.testsupport;

import java.util.Map;
import java.util.Objects;

/**
 * A server that already runs, named by an admin JDBC URL such as
 * {@code jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres}. Nothing is started or stopped.
 */
final class ExternalPostgresServer implements PostgresServer {

    /** Admin JDBC URL of an existing server; when set, nothing else is tried. */
    static final String URL_VARIABLE = "ONEBEAT_TEST_JDBC_URL";
    /** Role to connect as when the URL has no {@code user} parameter. */
    static final String USER_VARIABLE = "ONEBEAT_TEST_JDBC_USER";
    /** Password when the URL has no {@code password} parameter. */
    static final String PASSWORD_VARIABLE = "ONEBEAT_TEST_JDBC_PASSWORD";

    private static final String DEFAULT_USER = "postgres";

    private final TestDatabase admin;

    private ExternalPostgresServer(TestDatabase admin) {
        this.admin = admin;
    }

    /**
     * The server of {@value #URL_VARIABLE}. Credentials written in the URL win over
     * {@value #USER_VARIABLE} and {@value #PASSWORD_VARIABLE}, which win over user {@code postgres}
     * with no password.
     *
     * @param environment the environment variables, {@link #URL_VARIABLE} among them
     */
    static ExternalPostgresServer fromEnvironment(Map<String, String> environment) {
        String url = environment.get(URL_VARIABLE);
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException(URL_VARIABLE + " must be set to a jdbc:postgresql: URL");
        }
        url = url.strip();
        String username = JdbcUrls.parameter(url, "user")
                .orElse(Objects.requireNonNullElse(environment.get(USER_VARIABLE), DEFAULT_USER));
        String password = JdbcUrls.parameter(url, "password")
                .orElse(Objects.requireNonNullElse(environment.get(PASSWORD_VARIABLE), ""));
        // like the driver, fall back to the database named after the user
        String database = JdbcUrls.database(url).orElse(username);
        return new ExternalPostgresServer(new TestDatabase(database, url, username, password));
    }

    @Override
    public String source() {
        return "env";
    }

    @Override
    public TestDatabase admin() {
        return admin;
    }
}
