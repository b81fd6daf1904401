package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A {@link RelayMain} in a JVM of its own, its output in {@code target/relay-processes/<node>.log}. */
final class RelayProcess implements AutoCloseable {

    private final Process process;
    private final Path log;

    private RelayProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * @param mode {@code count} or {@code stall}, see {@link RelayMain}
     * @param node the relay's node name
     */
    static RelayProcess start(String mode, String node, TestDatabase database, String queue, String transport,
                              int batchSize, Duration claimLease) throws IOException {
        Path log = Files.createDirectories(Path.of("target", "relay-processes")).resolve(node + ".log");
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"),
                RelayMain.class.getName(), mode, node,
                database.jdbcUrl(), database.username(), database.password(), RabbitTestBroker.URL, queue, transport,
                Integer.toString(batchSize), Long.toString(claimLease.toMillis()));
        return new RelayProcess(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start(),
                log);
    }

    /** @return the last value printed after {@code prefix}, or -1 if none was */
    long lastPrinted(String prefix) {
        return lines().stream().filter(line -> line.startsWith(prefix))
                .mapToLong(line -> Long.parseLong(line.substring(prefix.length()).trim())).reduce((a, b) -> b).orElse(-1);
    }

    /** @return whether its output has a line containing {@code text}, such as the relay's start-up line */
    boolean printed(String text) {
        return lines().stream().anyMatch(line -> line.contains(text));
    }

    private List<String> lines() {
        try {
            return Files.readAllLines(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * SIGKILL: no shutdown hook, no marks.
     *
     * @return the exit status, 137 (128 + 9) for a SIGKILL
     */
    int kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("relay process " + process.pid() + " survived SIGKILL");
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
