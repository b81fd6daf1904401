package dev.onebeat.worker.journal;

import static org.awaitility.Awaitility.await;

import dev.onebeat.testsupport.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Starts {@link JournalWorkerMain} processes on a database, watches their output and kills them. */
final class WorkerProcesses implements AutoCloseable {

    private final TestDatabase database;
    private final Path dir;
    private final Map<String, Process> processes = new LinkedHashMap<>();

    WorkerProcesses(TestDatabase database, String testName) {
        this.database = database;
        this.dir = Path.of("target", "worker-processes", testName);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path dir() {
        return dir;
    }

    void start(String id, String... modeAndArgs) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"),
                JournalWorkerMain.class.getName(),
                database.jdbcUrl(), database.username(), database.password()));
        command.addAll(List.of(modeAndArgs));
        try {
            processes.put(id, new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log(id).toFile())
                    .start());
        } catch (IOException e) {
            throw new UncheckedIOException("could not start worker " + id, e);
        }
    }

    /** Waits until the worker printed a line starting with {@code prefix}, and returns that line. */
    String awaitLine(String id, String prefix) {
        return await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> line(id, prefix), line -> line != null);
    }

    /** SIGKILL: no shutdown hook, no rollback, no commit; the database sees the socket close. */
    void kill(String id) throws InterruptedException {
        Process process = processes.get(id);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    boolean exited(String id) throws InterruptedException {
        return processes.get(id).waitFor(60, TimeUnit.SECONDS);
    }

    private String line(String id, String prefix) throws IOException {
        try (var lines = Files.lines(log(id))) {
            return lines.filter(line -> line.startsWith(prefix)).findFirst().orElse(null);
        }
    }

    private Path log(String id) {
        return dir.resolve(id + ".log");
    }

    @Override
    public void close() throws InterruptedException {
        for (Process process : processes.values()) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
