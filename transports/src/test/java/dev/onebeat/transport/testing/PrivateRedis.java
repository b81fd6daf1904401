package dev.onebeat.transport.testing;

import dev.onebeat.testsupport.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import redis.clients.jedis.Jedis;

/**
 * A Redis server of the test's own, on a free port with its append-only file in a temporary
 * directory, that a test may kill and start again: the shared server on 6379 must stay up for the
 * others. Every write is fsynced before Redis answers ({@code appendfsync always}), so what Redis
 * acknowledged survives a {@code kill -9}, as on a production server configured for it. Uses the
 * installed {@code redis-server} (or {@code ONEBEAT_TEST_REDIS_SERVER}); its absence fails the test.
 */
public final class PrivateRedis implements AutoCloseable {

    private static final Path SERVER = Path.of(System.getenv().getOrDefault("ONEBEAT_TEST_REDIS_SERVER",
            "/usr/bin/redis-server"));

    private final Path dir;
    private final int port;
    private Process server;

    private PrivateRedis(Path dir, int port) {
        this.dir = dir;
        this.port = port;
    }

    /** Creates the server's directory and starts it. */
    public static PrivateRedis start() throws IOException {
        if (!Files.isExecutable(SERVER)) {
            throw new IllegalStateException("no Redis server at " + SERVER + " (install redis-server, or set "
                    + "ONEBEAT_TEST_REDIS_SERVER to its path)");
        }
        PrivateRedis redis = new PrivateRedis(Files.createTempDirectory("onebeat-redis-"), FreePorts.take());
        redis.startServer();
        return redis;
    }

    /** @return {@code redis://127.0.0.1:<port>/0} */
    public String url() {
        return "redis://127.0.0.1:" + port + "/0";
    }

    /** @return a new connection to the server; the caller closes it */
    public Jedis connect() {
        return new Jedis("127.0.0.1", port);
    }

    /** Starts the server (again) on the same data and waits until it answers {@code PING}. */
    public void startServer() throws IOException {
        server = new ProcessBuilder(SERVER.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--dir", dir.toString(),
                "--daemonize", "no")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("server.log").toFile()))
                .start();
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (true) {
            try (Jedis jedis = connect()) {
                if ("PONG".equals(jedis.ping())) {
                    return;
                }
            } catch (RuntimeException e) {
                if (!server.isAlive()) {
                    throw new IllegalStateException("redis-server on port " + port + " exited: see "
                            + dir.resolve("server.log"), e);
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("redis-server on port " + port + " did not answer in 30 s", e);
                }
            }
            sleep(Duration.ofMillis(50));
        }
    }

    /** Kills the server ({@code kill -9}) and waits for it to exit. */
    public void killServer() throws InterruptedException {
        server.destroyForcibly();
        if (!server.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("redis-server on port " + port + " did not exit after kill -9");
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (server != null && server.isAlive()) {
                killServer();
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            } catch (IOException | UncheckedIOException e) {
                System.err.println("could not delete " + dir + ": " + e);
            }
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
