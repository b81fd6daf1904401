package dev.onebeat.scheduler.bench;

import dev.onebeat.scheduler.OnebeatApplication;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How {@link ReplicaProcesses} launches a replica's JVM: which {@code java}, with which JVM options,
 * running what. The replica's own arguments (database, port, instance id) come after these.
 *
 * @param java the {@code java} launcher
 * @param jvmOptions options before the class path or {@code -jar}
 * @param target what the JVM runs: {@code -cp <path> <main class>} or {@code -jar <jar>}
 */
record ReplicaCommand(Path java, List<String> jvmOptions, List<String> target) {

    ReplicaCommand {
        if (target.isEmpty()) {
            throw new IllegalArgumentException("target must name a class path and main class or a jar");
        }
        jvmOptions = List.copyOf(jvmOptions);
        target = List.copyOf(target);
    }

    /**
     * The benchmark's own JVM and class path with {@link OnebeatApplication} as main class: no jar to
     * build or extract, but not how a user runs onebeat. JVM options from
     * {@value FireOptions#REPLICA_OPTS_VARIABLE}, {@code -Xmx1g} when it is not set.
     */
    static ReplicaCommand classPath() {
        return new ReplicaCommand(Path.of(System.getProperty("java.home"), "bin", "java"),
                options(System.getenv().getOrDefault(FireOptions.REPLICA_OPTS_VARIABLE, "-Xmx1g")),
                List.of("-cp", System.getProperty("java.class.path"), OnebeatApplication.class.getName()));
    }

    /**
     * {@code java [options] -jar <jar>}, as a user runs the packaged application.
     *
     * @param jar the packaged jar, or the launcher jar of its extracted layout
     */
    static ReplicaCommand packagedJar(Path java, Path jar, List<String> jvmOptions) {
        return new ReplicaCommand(java, jvmOptions, List.of("-jar", jar.toString()));
    }

    /** @return the same launch with {@code more} JVM options after the present ones */
    ReplicaCommand withOptions(List<String> more) {
        List<String> options = new ArrayList<>(jvmOptions);
        options.addAll(more);
        return new ReplicaCommand(java, options, target);
    }

    /** @return the whole command line, {@code arguments} last */
    List<String> command(List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmOptions);
        command.addAll(target);
        command.addAll(arguments);
        return command;
    }

    /** Splits JVM options given as one string on whitespace, as a shell would without quotes. */
    static List<String> options(String options) {
        return Arrays.stream(options.split("\\s+")).filter(option -> !option.isEmpty()).toList();
    }
}
