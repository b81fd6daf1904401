package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.testsupport.jvm.JavaLauncher;
import dev.onebeat.testsupport.jvm.JavaProcess;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** A {@link RelayMain} in a JVM of its own, its output in {@code target/relay-processes/<node>.log}. */
final class RelayProcess implements AutoCloseable {

    private final JavaProcess process;

    private RelayProcess(JavaProcess process) {
        this.process = process;
    }

    /**
     * @param mode {@code count} or {@code stall}, see {@link RelayMain}
     * @param node the relay's node name
     */
    static RelayProcess start(String mode, String node, TestDatabase database, String queue, String transport,
                              int batchSize, Duration claimLease) {
        return start(mode, node, database, queue, transport, batchSize, claimLease, RelayProperties.MARK);
    }

    /** @param onPublish {@code onebeat.relay.on-publish} of the relay */
    static RelayProcess start(String mode, String node, TestDatabase database, String queue, String transport,
                              int batchSize, Duration claimLease, String onPublish) {
        return new RelayProcess(JavaLauncher.mainClass(node, RelayMain.class)
                .jvmOptions("-Xmx128m")
                .arguments(mode, node, database.jdbcUrl(), database.username(), database.password(),
                        RabbitTestBroker.URL, queue, transport, Integer.toString(batchSize),
                        Long.toString(claimLease.toMillis()), onPublish)
                .log(Path.of("target", "relay-processes", node + ".log"))
                .start());
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
        return process.lines();
    }

    /**
     * SIGKILL: no shutdown hook, no marks.
     *
     * @return the exit status, 137 (128 + 9) for a SIGKILL
     */
    int kill() {
        return process.kill();
    }

    @Override
    public void close() {
        process.close();
    }
}
