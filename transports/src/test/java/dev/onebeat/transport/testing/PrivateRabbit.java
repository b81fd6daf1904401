package dev.onebeat.transport.testing;

import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.ConnectionFactory;
import dev.onebeat.testsupport.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A RabbitMQ node of the test's own, on free ports with its data in a temporary directory, that the
 * test may stop and start again: the shared broker on 5672 must stay up for the others. Its data
 * survive a restart, so durable queues keep their persistent messages. Uses the installed server
 * ({@code /usr/lib/rabbitmq/bin}, or {@code ONEBEAT_TEST_RABBITMQ_BIN}); its absence fails the test.
 */
public final class PrivateRabbit implements AutoCloseable {

    private static final Path BIN = Path.of(System.getenv().getOrDefault("ONEBEAT_TEST_RABBITMQ_BIN", "/usr/lib/rabbitmq/bin"));

    private final Path dir;
    private final String node;
    private final int port;
    private final Map<String, String> environment;
    private Process server;

    private PrivateRabbit(Path dir, String node, int port, int distPort) {
        this.dir = dir;
        this.node = node;
        this.port = port;
        // HOME holds the node's own Erlang cookie, so rabbitmqctl reaches this node and no other
        this.environment = Map.of("HOME", dir.toString(), "RABBITMQ_NODENAME", node,
                "RABBITMQ_NODE_PORT", Integer.toString(port), "RABBITMQ_DIST_PORT", Integer.toString(distPort),
                "RABBITMQ_CONFIG_FILE", dir.resolve("rabbitmq.conf").toString(),
                "RABBITMQ_MNESIA_BASE", dir.resolve("mnesia").toString(),
                "RABBITMQ_LOG_BASE", dir.resolve("log").toString(),
                "RABBITMQ_ENABLED_PLUGINS_FILE", dir.resolve("enabled_plugins").toString(),
                "RABBITMQ_PID_FILE", dir.resolve("pid").toString());
    }

    /** Creates the node's directory and starts it. */
    public static PrivateRabbit start() throws Exception {
        if (!Files.isExecutable(BIN.resolve("rabbitmq-server"))) {
            throw new IllegalStateException("no RabbitMQ server at " + BIN + " (install rabbitmq-server, or set "
                    + "ONEBEAT_TEST_RABBITMQ_BIN to the directory of rabbitmq-server and rabbitmqctl)");
        }
        Path dir = Files.createTempDirectory("onebeat-rabbit-");
        int port = FreePorts.take();
        // the system-wide config names 5672 as the listener: this node gets a config of its own
        Files.writeString(dir.resolve("rabbitmq.conf"), "listeners.tcp.local = 127.0.0.1:" + port + "\n");
        Files.writeString(dir.resolve("enabled_plugins"), "[].\n");
        PrivateRabbit rabbit = new PrivateRabbit(dir,
                "onebeat-test-" + UUID.randomUUID().toString().substring(0, 8) + "@localhost", port, FreePorts.take());
        rabbit.startServer();
        return rabbit;
    }

    /** @return the node's AMQP URL */
    public String url() {
        return "amqp://guest:guest@127.0.0.1:" + port + "/%2F";
    }

    /** Starts the node (again) on the same data and waits until it takes connections. */
    public void startServer() throws IOException {
        ProcessBuilder builder = new ProcessBuilder(BIN.resolve("rabbitmq-server").toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("server.log").toFile()));
        builder.environment().putAll(environment);
        server = builder.start();
        ConnectionFactory factory = new ConnectionFactory();
        try {
            factory.setUri(url());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).ignoreExceptions().until(() -> {
            if (!server.isAlive()) {
                throw new IllegalStateException("RabbitMQ node " + node + " exited: see " + dir.resolve("server.log"));
            }
            factory.newConnection().close();
            return true;
        });
    }

    /** Stops the node as an operator would ({@code rabbitmqctl stop}) and waits for it to exit. */
    public void stopServer() throws Exception {
        ProcessBuilder builder = new ProcessBuilder(BIN.resolve("rabbitmqctl").toString(), "-n", node, "stop")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("rabbitmqctl.log").toFile()));
        builder.environment().putAll(environment);
        Process stop = builder.start();
        if (!stop.waitFor(60, TimeUnit.SECONDS) || stop.exitValue() != 0) {
            throw new IllegalStateException("rabbitmqctl stop of " + node + " failed: see " + dir.resolve("rabbitmqctl.log"));
        }
        if (!server.waitFor(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("RabbitMQ node " + node + " did not exit after rabbitmqctl stop");
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (server != null && server.isAlive()) {
                stopServer();
            }
        } catch (Exception e) {
            // never leave a node running: the Erlang VM is a child of the start script, named in the pid file
            long pid = Long.parseLong(Files.readString(dir.resolve("pid")).trim());
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            throw e;
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
}
