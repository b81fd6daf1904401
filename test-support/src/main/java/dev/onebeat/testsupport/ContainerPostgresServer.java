package dev.onebeat.testsupport;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * A PostgreSQL container started through Testcontainers. Ryuk removes it when the JVM exits; the
 * shutdown hook stops it sooner, and still does when Ryuk is disabled.
 */
final class ContainerPostgresServer implements PostgresServer {

    static final String IMAGE = "postgres:17-alpine";

    private final TestDatabase admin;

    private ContainerPostgresServer(TestDatabase admin) {
        this.admin = admin;
    }

    /**
     * Whether a Docker engine answers. Any failure, a missing Testcontainers class included, counts
     * as no.
     */
    static boolean isDockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable e) {
            return false;
        }
    }

    /** Starts the container and waits until it accepts connections. */
    static ContainerPostgresServer start() {
        PostgreSQLContainer container = new PostgreSQLContainer(IMAGE);
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "onebeat-postgres-container-stop"));
        // the image makes POSTGRES_USER a superuser, so it may create and drop databases
        return new ContainerPostgresServer(new TestDatabase(
                container.getDatabaseName(), container.getJdbcUrl(), container.getUsername(), container.getPassword()));
    }

    @Override
    public String source() {
        return "testcontainers";
    }

    @Override
    public TestDatabase admin() {
        return admin;
    }
}
