package dev.onebeat.worker.journal;

import static org.awaitility.Awaitility.await;

import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.testsupport.jvm.JavaLauncher;
import dev.onebeat.testsupport.jvm.JavaProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** Starts {@link JournalWorkerMain} processes on a database, watches their output and kills them. */
final class WorkerProcesses implements AutoCloseable {

    private final TestDatabase database;
    private final Path dir;
    private final Map<String, JavaProcess> processes = new LinkedHashMap<>();

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
        processes.put(id, JavaLauncher.mainClass(id, JournalWorkerMain.class)
                .jvmOptions("-Xmx128m")
                .arguments(database.jdbcUrl(), database.username(), database.password())
                .arguments(modeAndArgs)
                .log(log(id))
                .start());
    }

    /** Waits until the worker printed a line starting with {@code prefix}, and returns that line. */
    String awaitLine(String id, String prefix) {
        return await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> line(id, prefix), line -> line != null);
    }

    /** SIGKILL: no shutdown hook, no rollback, no commit; the database sees the socket close. */
    void kill(String id) {
        processes.get(id).kill();
    }

    boolean exited(String id) {
        return processes.get(id).waitFor(Duration.ofSeconds(60));
    }

    private String line(String id, String prefix) {
        return processes.get(id).logLines(line -> line.startsWith(prefix)).stream().findFirst().orElse(null);
    }

    private Path log(String id) {
        return dir.resolve(id + ".log");
    }

    @Override
    public void close() {
        processes.values().forEach(JavaProcess::close);
    }
}
