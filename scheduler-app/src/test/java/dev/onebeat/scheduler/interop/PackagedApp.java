package dev.onebeat.scheduler.interop;

import dev.onebeat.testsupport.jvm.JavaLauncher;
import dev.onebeat.testsupport.jvm.JavaProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The packaged application ({@code target/scheduler-app.jar}, built by {@code package} before the
 * integration tests) in a JVM of its own, configured as a user configures it: environment variables
 * and command-line properties, nothing else. The test JVM's own {@code ONEBEAT_*} and
 * {@code SPRING_*} variables are not passed on. Its output goes to {@code target/interop/<name>.log}.
 */
final class PackagedApp implements AutoCloseable {

    static final Path JAR = Path.of("target", "scheduler-app.jar");
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    private static final int LOG_TAIL_LINES = 80;

    private final JavaProcess process;

    private PackagedApp(JavaProcess process) {
        this.process = process;
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
        return new PackagedApp(JavaLauncher.jar(name, JAR)
                .jvmOptions("-Xmx256m")
                .arguments(arguments)
                .noInput()
                .dropInheritedVariables(variable -> variable.startsWith("ONEBEAT_") || variable.startsWith("SPRING_"))
                .environment(environment)
                .log(Path.of("target", "interop", name + ".log"))
                .start());
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** @return the last lines of its output */
    String logTail() {
        return process.logTail(LOG_TAIL_LINES);
    }

    /** Stops it as an orchestrator does (SIGTERM), and kills it if it has not exited in time. */
    @Override
    public void close() {
        process.stop(STOP_GRACE);
    }

    @Override
    public String toString() {
        return "application " + process;
    }
}
