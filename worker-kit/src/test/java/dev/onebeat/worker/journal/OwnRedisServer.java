package dev.onebeat.worker.journal;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;

/** A redis-server child process on a free port, for a test that stops Redis under the kit. */
final class OwnRedisServer implements AutoCloseable {

    private final Process process;
    private final int port;

    private OwnRedisServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static OwnRedisServer start() {
        return start(freePort());
    }

    /** Starts a server on the port of one that was killed, as Redis coming back after an outage. */
    static OwnRedisServer restart(OwnRedisServer killed) {
        return start(killed.port);
    }

    private static OwnRedisServer start(int port) {
        try {
            Process process = new ProcessBuilder("redis-server", "--port", Integer.toString(port),
                    "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            OwnRedisServer server = new OwnRedisServer(process, port);
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(server::answers);
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start redis-server", e);
        }
    }

    int port() {
        return port;
    }

    /** SIGKILL: the server vanishes without closing anything cleanly. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }

    private boolean answers() {
        try (Jedis jedis = new Jedis("127.0.0.1", port)) {
            return "PONG".equals(jedis.ping());
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
