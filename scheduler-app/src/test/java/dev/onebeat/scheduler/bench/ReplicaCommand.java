package dev.onebeat.scheduler.bench;

import dev.onebeat.scheduler.OnebeatApplication;
import dev.onebeat.testsupport.jvm.JavaLauncher;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How {@link ReplicaProcesses} launches a replica's JVM: which {@code java}, with which JVM options,
 * running what. The replica's own arguments (database, port, instance id) come after these. A benchmark
 * measures the application as users run it: full JIT and the default collector, none of the test
 * launcher's fast-start options.
 *
 * @param java the {@code java} launcher
 * @param jvmOptions options before the class path or {@code -jar}
 * @param jar what {@code java -jar} runs; null for {@link OnebeatApplication} on the benchmark's class path
 */
record ReplicaCommand(Path java, List<String> jvmOptions, Path jar) {

    ReplicaCommand {
        if (java == null) {
            throw new IllegalArgumentException("java must name a java launcher");
        }
        jvmOptions = List.copyOf(jvmOptions);
    }

    /**
     * The benchmark's own JVM and class path with {@link OnebeatApplication} as main class: no jar to
     * build or extract, but not how a user runs onebeat. JVM options from
     * {@value FireOptions#REPLICA_OPTS_VARIABLE}, {@code -Xmx1g} when it is not set.
     */
    static ReplicaCommand classPath() {
        return new ReplicaCommand(Path.of(System.getProperty("java.home"), "bin", "java"),
                options(System.getenv().getOrDefault(FireOptions.REPLICA_OPTS_VARIABLE, "-Xmx1g")), null);
    }

    /**
     * {@code java [options] -jar <jar>}, as a user runs the packaged application.
     *
     * @param jar the packaged jar, or the launcher jar of its extracted layout
     */
    static ReplicaCommand packagedJar(Path java, Path jar, List<String> jvmOptions) {
        return new ReplicaCommand(java, jvmOptions, jar);
    }

    /** @return the same launch with {@code more} JVM options after the present ones */
    ReplicaCommand withOptions(List<String> more) {
        List<String> options = new ArrayList<>(jvmOptions);
        options.addAll(more);
        return new ReplicaCommand(java, options, jar);
    }

    /** @return a launcher of replica {@code name}, to which the replica's own arguments are added */
    JavaLauncher launcher(String name) {
        JavaLauncher launcher = jar == null ? JavaLauncher.mainClass(name, OnebeatApplication.class)
                : JavaLauncher.jar(name, jar);
        return launcher.java(java).plainJvm().jvmOptions(jvmOptions);
    }

    /** Splits JVM options given as one string on whitespace, as a shell would without quotes. */
    static List<String> options(String options) {
        return Arrays.stream(options.split("\\s+")).filter(option -> !option.isEmpty()).toList();
    }
}
