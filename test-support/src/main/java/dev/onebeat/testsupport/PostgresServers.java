package dev.onebeat.testsupport;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses, once per JVM, the server every test database is created on.
 */
final class PostgresServers {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresServers.class);

    private static PostgresServer shared;

    private PostgresServers() {
    }

    /**
     * The server of this JVM, chosen and started on first use. A failed start is not remembered, so
     * a later test class tries again and reports its own error.
     */
    static synchronized PostgresServer shared() {
        if (shared == null) {
            shared = select(System.getenv());
        }
        return shared;
    }

    /**
     * The first source that applies: the server of {@value ExternalPostgresServer#URL_VARIABLE}, a
     * Testcontainers container if Docker answers, else an embedded server.
     */
    static PostgresServer select(Map<String, String> environment) {
        long start = System.nanoTime();
        PostgresServer server;
        String url = environment.get(ExternalPostgresServer.URL_VARIABLE);
        // a CI template often leaves the variable defined but empty; that means "not given"
        if (url != null && !url.isBlank()) {
            server = ExternalPostgresServer.fromEnvironment(environment);
        } else if (ContainerPostgresServer.isDockerAvailable()) {
            server = ContainerPostgresServer.start();
        } else {
            server = EmbeddedPostgresServer.start();
        }
        LOG.info("postgres source={} url={} readyInMs={}", server.source(), JdbcUrls.redacted(server.admin().jdbcUrl()),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        return server;
    }
}
