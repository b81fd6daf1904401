package dev.onebeat.scheduler.interop;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The packaged application ({@code target/scheduler-app.jar}, built by {@code package} before the
 * integration tests) in a JVM of its own, configured as a user configures it: environment variables
 * and command-line properties, nothing else. The test JVM's own {@code ONEBEAT_*} and
 * {@code SPRING_*} variables are not passed on. Its output goes to {@code target/interop/<name>.log}.
 */
final class PackagedApp implements AutoCloseable {

    static final Path JAR = Path.of("target", "scheduler-app.jar");
    private static final long STOP_SECONDS = 20;
    private static final int LOG_TAIL_LINES = 80;

    private final String name;
    private final Process process;
    private final Path log;

    private PackagedApp(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * @param name names the log file
     * @param environment the variables the application gets besides the test JVM's unrelated ones
     * @param arguments its command line
     */
    static PackagedApp start(String name, Map<String, String> environment, List<String> arguments) {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR.toAbsolutePath() + " is missing: the test runs the packaged application;"
                    + " run it with mvn verify, which packages first");
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", JAR.toString()));
        command.addAll(arguments);
        try {
            Path log = Files.createDirectories(Path.of("target", "interop")).resolve(name + ".log");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().keySet().removeIf(variable -> variable.startsWith("ONEBEAT_") || variable.startsWith("SPRING_"));
            builder.environment().putAll(environment);
            return new PackagedApp(name, builder.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + command, e);
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** @return the last lines of its output */
    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }

    /** Stops it as an orchestrator does (SIGTERM), and kills it if it has not exited in time. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Override
    public String toString() {
        return "application " + name + " (pid " + process.pid() + ", log " + log.toAbsolutePath() + ")";
    }
}
