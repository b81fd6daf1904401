package dev.onebeat.scheduler.bench;

import dev.onebeat.testsupport.jvm.JavaProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Scheduler replicas of the benchmarks, each in its own JVM launched by a {@link ReplicaCommand}
 * (by default the application's main class on the benchmark's class path), its web server on a free
 * port, its log in a file kept after the run.
 */
final class ReplicaProcesses implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofMinutes(5);
    private static final Pattern STARTED = Pattern.compile(
            "Started OnebeatApplication in ([0-9.]+) seconds(?: \\(process running for ([0-9.]+)\\))?");

    private final BenchDatabase database;
    private final Path logDir;
    private final ReplicaCommand launcher;
    private final Map<String, Replica> replicas = new LinkedHashMap<>();
    private final List<Path> logs = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** One running replica and what its start took; {@code cgroup} is its CPU cap's ({@link CpuCap}), or null. */
    record Replica(String id, JavaProcess process, int port, Path log, long launchedNanos, Path cgroup) {
    }

    /**
     * How long a replica took to start.
     *
     * @param wall from launching the JVM until {@code /actuator/health} answered UP
     * @param application Spring Boot's own figure: from {@code main} until the context was started
     *        (Liquibase, storing the jobs and their triggers included; the JVM's start is not), null if
     *        the log lacks it; Spring Boot takes it from the wall clock, which a machine may adjust
     * @param process Spring Boot's "process running for": the JVM's uptime when the context was
     *        started, from its monotonic clock; null if the log lacks it
     */
    record StartUp(Duration wall, Duration application, Duration process) {
    }

    /** Replicas on the benchmark's class path: {@link ReplicaCommand#classPath()}. */
    ReplicaProcesses(BenchDatabase database, Path logDir) {
        this(database, logDir, ReplicaCommand.classPath());
    }

    /** Replicas launched by {@code launcher}, each with its database, port and instance id as arguments. */
    ReplicaProcesses(BenchDatabase database, Path logDir, ReplicaCommand launcher) {
        this.database = database;
        this.logDir = logDir;
        this.launcher = launcher;
        try {
            Files.createDirectories(logDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Launches replica {@code id} (its Quartz instance id) and returns without waiting for it. */
    void launch(String id) {
        launch(id, List.of());
    }

    /** Launches replica {@code id} with further {@code --name=value} arguments after its own. */
    void launch(String id, List<String> arguments) {
        launch(id, arguments, List.of(), Map.of());
    }

    /**
     * Launches replica {@code id} with its command line run by {@code wrapper} (such as {@code faketime -f +2s}),
     * with {@code environment} added to the inherited one.
     */
    void launch(String id, List<String> arguments, List<String> wrapper, Map<String, String> environment) {
        int port = freePort();
        Path log = logDir.resolve(id + "-" + System.currentTimeMillis() + ".log");
        List<String> own = new ArrayList<>(List.of(
                "--spring.datasource.url=" + database.url(),
                "--spring.quartz.properties.org.quartz.scheduler.instanceId=" + id,
                "--server.port=" + port,
                "--onebeat.demo.enabled=false", "--onebeat.retention.enabled=false",
                "--onebeat.jobs-dir=" + logDir.resolve("no-jobs")));
        own.addAll(arguments);
        long launched = System.nanoTime();
        JavaProcess process = launcher.launcher(id).prefix(wrapper).environment(environment).arguments(own).log(log)
                .start();
        // under a wrapper (faketime), the wrapper is capped, and what it starts from then on
        Double cores = CpuCap.cores();
        Path cgroup = cores == null ? null : CpuCap.cap(process.process().pid(), cores);
        replicas.put(id, new Replica(id, process, port, log, launched, cgroup));
        logs.add(log);
    }

    /** Waits until replica {@code id} answers UP on {@code /actuator/health}. */
    StartUp awaitUp(String id) {
        Replica replica = replicas.get(id);
        long deadline = replica.launchedNanos() + START_TIMEOUT.toNanos();
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + replica.port() + "/actuator/health"))
                .timeout(Duration.ofSeconds(2)).build();
        while (true) {
            if (!replica.process().isAlive()) {
                throw new IllegalStateException("replica " + id + " exited during start-up, see " + replica.log());
            }
            try {
                HttpResponse<String> response = http.send(health, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("\"UP\"")) {
                    Duration wall = Duration.ofNanos(System.nanoTime() - replica.launchedNanos());
                    return startUp(wall, replica);
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("replica " + id + " not up after " + START_TIMEOUT + ", see " + replica.log());
            }
            BenchDatabase.sleep(Duration.ofMillis(50));
        }
    }

    /**
     * @return whether replica {@code id} has started: its web server answers {@code /actuator/health}, UP or not (a
     *     replica's health may be DOWN for a while under faults, and a loaded machine answers slowly)
     */
    boolean hasStarted(String id) {
        Replica replica = replicas.get(id);
        if (replica == null || !replica.process().isAlive()) {
            return false;
        }
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + replica.port() + "/actuator/health"))
                .timeout(Duration.ofSeconds(10)).build();
        try {
            int status = http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode();
            return status == 200 || status == 503;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Launches replica {@code id} and waits until it is up. */
    StartUp start(String id) {
        launch(id);
        return awaitUp(id);
    }

    /** SIGTERM, as an orchestrator stops a replica; waits for the JVM to exit. */
    void stop(String id) {
        Replica replica = replicas.remove(id);
        if (replica == null) {
            return;
        }
        // the launcher's stop reaches the JVM under a wrapper such as faketime too
        replica.process().stop(Duration.ofSeconds(60));
        CpuCap.remove(replica.cgroup());
    }

    /** SIGKILL of the replica's JVM (and of its wrapper): no shutdown hook runs; waits for the process to end. */
    void kill(String id) {
        Replica replica = replicas.remove(id);
        if (replica == null) {
            return;
        }
        replica.process().kill();
        CpuCap.remove(replica.cgroup());
    }

    /**
     * @return each running replica's peak resident memory so far ({@code VmHWM} of {@code /proc/<pid>/status}), in
     *     MiB, by id; a replica whose figure cannot be read (not Linux, exited) is left out
     */
    Map<String, Long> peakRssMiB() {
        Map<String, Long> peaks = new java.util.TreeMap<>();
        for (String id : ids()) {
            Process process = process(id);
            if (process == null || !process.isAlive()) {
                continue;
            }
            try {
                for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "status"))) {
                    if (line.startsWith("VmHWM:")) {
                        peaks.put(id, Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024);
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // not Linux, or gone meanwhile
            }
        }
        return peaks;
    }

    /** @return the process of a launched replica that was neither stopped nor killed since, or null */
    Process process(String id) {
        Replica replica = replicas.get(id);
        return replica == null ? null : replica.process().process();
    }

    /** @return the log of the replica's latest launch */
    Path log(String id) {
        return replicas.get(id).log();
    }

    /** @return {@code http://127.0.0.1:<port>} of a running replica */
    String baseUrl(String id) {
        return "http://127.0.0.1:" + replicas.get(id).port();
    }

    /** @return the log of every replica launched so far, stopped ones included */
    List<Path> logs() {
        return List.copyOf(logs);
    }

    List<String> ids() {
        return List.copyOf(replicas.keySet());
    }

    @Override
    public void close() {
        ids().forEach(this::stop);
    }

    private static StartUp startUp(Duration wall, Replica replica) {
        try {
            Matcher started = STARTED.matcher(Files.readString(replica.log()));
            return started.find() ? new StartUp(wall, seconds(started.group(1)), seconds(started.group(2)))
                    : new StartUp(wall, null, null);
        } catch (IOException e) {
            return new StartUp(wall, null, null);
        }
    }

    private static Duration seconds(String seconds) {
        return seconds == null ? null : Duration.ofMillis(Math.round(Double.parseDouble(seconds) * 1000));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }
}
