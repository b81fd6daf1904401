package dev.onebeat.scheduler.engine.cluster;

import static org.awaitility.Awaitility.await;

import dev.onebeat.testsupport.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Starts scheduler replicas as separate JVMs on one database, and stops or kills them. */
final class Replicas implements AutoCloseable {

    private final TestDatabase database;
    private final Path logDir;
    private final Map<String, Process> processes = new LinkedHashMap<>();

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
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-D" + ReplicaMain.JOB_PROPERTY + "=" + job));
        systemProperties.forEach((name, value) -> command.add("-D" + name + "=" + value));
        command.addAll(List.of(
                "-cp", System.getProperty("java.class.path"),
                ReplicaMain.class.getName(),
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(),
                "--spring.quartz.properties.org.quartz.scheduler.instanceId=" + id,
                "--server.port=0",
                "--onebeat.demo.enabled=false",
                "--onebeat.jobs-dir=target/no-jobs", "--onebeat.retention.enabled=false"));
        command.addAll(List.of(arguments));
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(logDir.resolve(id + ".log").toFile());
            builder.environment().putAll(environment);
            Process process = builder.start();
            processes.put(id, process);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start replica " + id, e);
        }
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
    void stop(String id) throws InterruptedException {
        Process process = processes.get(id);
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** SIGKILL: no shutdown hook, no Quartz shutdown, no transaction end. */
    void kill(String id) throws InterruptedException {
        Process process = processes.get(id);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** @return replicas started and still running: none was ever restarted, as {@link #start} makes a new one */
    long aliveCount() {
        return processes.values().stream().filter(Process::isAlive).count();
    }

    boolean isAlive(String id) {
        return processes.get(id).isAlive();
    }

    /** Waits for a replica to exit by itself, and returns its exit status. */
    int awaitExit(String id, Duration timeout) throws InterruptedException {
        Process process = processes.get(id);
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("replica " + id + " still running after " + timeout);
        }
        return process.exitValue();
    }

    /** @return whether the replica's log has a line containing {@code text} */
    boolean logged(String id, String text) {
        try (var lines = Files.lines(logDir.resolve(id + ".log"))) {
            return lines.anyMatch(line -> line.contains(text));
        } catch (IOException e) {
            return false;
        }
    }

    /** @return the lines of a replica's log containing {@code text} */
    List<String> logLines(String id, String text) {
        try (var lines = Files.lines(logDir.resolve(id + ".log"))) {
            return lines.filter(line -> line.contains(text)).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** @return the folder of the replicas' logs, where a test may keep files its replicas read */
    Path logDir() {
        return logDir;
    }

    /** Lines of a replica's log containing {@code text}. */
    long countLogLines(String text) {
        long count = 0;
        for (String id : processes.keySet()) {
            try (var lines = Files.lines(logDir.resolve(id + ".log"))) {
                count += lines.filter(line -> line.contains(text)).count();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return count;
    }

    /** @return {@code http://127.0.0.1:<port>} of a started replica, once its web server has said its port */
    String baseUrl(String id) {
        Pattern started = Pattern.compile("started on port (\\d+)");
        return await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() -> {
            try (var lines = Files.lines(logDir.resolve(id + ".log"))) {
                return lines.map(started::matcher).filter(Matcher::find).findFirst()
                        .map(port -> "http://127.0.0.1:" + port.group(1)).orElse(null);
            } catch (IOException e) {
                return null;
            }
        }, Objects::nonNull);
    }

    @Override
    public void close() throws InterruptedException {
        for (Process process : processes.values()) {
            process.destroy();
        }
        for (Process process : processes.values()) {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
