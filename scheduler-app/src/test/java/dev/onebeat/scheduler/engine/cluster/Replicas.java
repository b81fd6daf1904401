package dev.onebeat.scheduler.engine.cluster;

import static org.awaitility.Awaitility.await;

import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.testsupport.jvm.JavaLauncher;
import dev.onebeat.testsupport.jvm.JavaProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Starts scheduler replicas as separate JVMs on one database, and stops or kills them. */
final class Replicas implements AutoCloseable {

    private final TestDatabase database;
    private final Path logDir;
    private final Map<String, JavaProcess> processes = new LinkedHashMap<>();

    Replicas(TestDatabase database, String testName) {
        this.database = database;
        this.logDir = Path.of("target", "replicas", testName);
        try {
            Files.createDirectories(logDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts a replica whose Quartz instance id is {@code id}, so ledger rows can be traced to it. */
    void start(String id) {
        start(id, "fanout");
    }

    /**
     * Starts a replica running {@code job} ({@code fanout}, {@code slow} or {@code none}, see
     * {@link ReplicaMain}), with further {@code --name=value} arguments.
     */
    void start(String id, String job, String... arguments) {
        start(id, job, Map.of(), arguments);
    }

    /** Starts a replica as {@link #start(String, String, String...)} does, with further system properties. */
    void start(String id, String job, Map<String, String> systemProperties, String... arguments) {
        start(id, job, systemProperties, Map.of(), arguments);
    }

    /**
     * Starts a replica as {@link #start(String, String, Map, String...)} does, its JVM's environment with further
     * variables (such as libfaketime's {@code LD_PRELOAD} and {@code FAKETIME_*}).
     */
    void start(String id, String job, Map<String, String> systemProperties, Map<String, String> environment,
               String... arguments) {
        processes.put(id, JavaLauncher.mainClass(id, ReplicaMain.class)
                // the classes an early replica of the build loaded are mapped by every later one: about a third less
                // CPU per start, on a suite bound by CPU
                .classDataSharing("Started ReplicaMain")
                .jvmOptions("-Xmx256m")
                .systemProperty(ReplicaMain.JOB_PROPERTY, job)
                .systemProperties(systemProperties)
                .arguments(
                        "--spring.datasource.url=" + database.jdbcUrl(),
                        "--spring.datasource.username=" + database.username(),
                        "--spring.datasource.password=" + database.password(),
                        "--spring.quartz.properties.org.quartz.scheduler.instanceId=" + id,
                        "--server.port=0",
                        "--onebeat.demo.enabled=false",
                        "--onebeat.jobs-dir=target/no-jobs", "--onebeat.retention.enabled=false")
                .arguments(arguments)
                .environment(environment)
                .log(log(id))
                .start());
    }

    /**
     * Starts {@code replica-1} to {@code replica-3} running {@code job} and waits until all three
     * have checked in to the Quartz cluster.
     *
     * @return when the third replica was seen
     */
    Instant startThreeAndAwaitCluster(String job, Ledger ledger, String... arguments) {
        for (int i = 1; i <= 3; i++) {
            start("replica-" + i, job, arguments);
        }
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                .until(() -> ledger.clusterSize() == 3);
        return Instant.now();
    }

    /** Stops a replica as an orchestrator would (SIGTERM), and waits for it to exit. */
    void stop(String id) {
        processes.get(id).stop(Duration.ofSeconds(30));
    }

    /** SIGKILL: no shutdown hook, no Quartz shutdown, no transaction end. */
    void kill(String id) {
        processes.get(id).kill();
    }

    /** @return replicas started and still running: none was ever restarted, as {@link #start} makes a new one */
    long aliveCount() {
        return processes.values().stream().filter(JavaProcess::isAlive).count();
    }

    boolean isAlive(String id) {
        return processes.get(id).isAlive();
    }

    /** Waits for a replica to exit by itself, and returns its exit status. */
    int awaitExit(String id, Duration timeout) {
        return processes.get(id).awaitExit(timeout);
    }

    /** @return whether the replica's log has a line containing {@code text} */
    boolean logged(String id, String text) {
        return processes.get(id).logged(text);
    }

    /** @return the lines of a replica's log containing {@code text} */
    List<String> logLines(String id, String text) {
        return processes.get(id).logLines(line -> line.contains(text));
    }

    /** @return the folder of the replicas' logs, where a test may keep files its replicas read */
    Path logDir() {
        return logDir;
    }

    /** Lines of a replica's log containing {@code text}. */
    long countLogLines(String text) {
        return processes.values().stream().mapToLong(process -> process.logLines(line -> line.contains(text)).size())
                .sum();
    }

    /** @return {@code http://127.0.0.1:<port>} of a started replica, once its web server has said its port */
    String baseUrl(String id) {
        Pattern started = Pattern.compile("started on port (\\d+)");
        return await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() ->
                processes.get(id).lines().stream().map(started::matcher).filter(Matcher::find).findFirst()
                        .map(port -> "http://127.0.0.1:" + port.group(1)).orElse(null), Objects::nonNull);
    }

    @Override
    public void close() {
        for (JavaProcess process : processes.values()) {
            process.process().destroy();
        }
        for (JavaProcess process : processes.values()) {
            process.stop(Duration.ofSeconds(20));
        }
    }

    private Path log(String id) {
        return logDir.resolve(id + ".log");
    }
}
