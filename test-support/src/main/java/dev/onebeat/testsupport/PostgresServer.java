package dev.onebeat.testsupport;

/**
 * A running PostgreSQL server on which tests may create and drop databases. Implementations are
 * shared by the whole JVM and safe to use from several threads.
 */
interface PostgresServer {

    /**
     * Where the server comes from, as logged: {@code env}, {@code testcontainers} or {@code embedded}.
     */
    String source();

    /**
     * The maintenance database, reached as a role that may create and drop databases.
     */
    TestDatabase admin();

    /**
     * The database of that name on this server, reached like {@link #admin()}; it may not exist yet.
     */
    default TestDatabase database(String name) {
        TestDatabase admin = admin();
        return new TestDatabase(name, JdbcUrls.withDatabase(admin.jdbcUrl(), name), admin.username(), admin.password());
    }
}
