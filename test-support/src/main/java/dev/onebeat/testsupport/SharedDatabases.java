package dev.onebeat.testsupport;

import java.util.Objects;

/**
 * Databases whose life is not one test class's: a cached application context shared by several classes
 * owns one, created when the context starts and dropped when it closes. Like {@link PostgresExtension}'s,
 * each is a copy of the JVM's template (or empty where the first class using it is {@link EmptyDatabase})
 * on the JVM's shared server.
 */
public final class SharedDatabases {

    private SharedDatabases() {
    }

    /**
     * @param firstClass the test class whose context is being started, naming the database and choosing its template
     * @return a new database, which the caller drops with {@link #drop(TestDatabase)}
     */
    public static TestDatabase create(Class<?> firstClass) {
        Objects.requireNonNull(firstClass, "firstClass must not be null");
        PostgresServer server = PostgresServers.shared();
        return DatabaseAdmin.create(server, DatabaseNames.forTestClass(firstClass),
                DatabaseTemplates.forTestClass(server, firstClass));
    }

    /** Drops the database, ending any session still connected to it. */
    public static void drop(TestDatabase database) {
        Objects.requireNonNull(database, "database must not be null");
        DatabaseAdmin.drop(PostgresServers.shared(), database.name());
    }
}
