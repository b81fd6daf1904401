package dev.onebeat.scheduler.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What {@link StartUpBenchmark} runs. Arguments are {@code --name=value}; the server comes from
 * {@value BenchOptions#URL_VARIABLE}, the JDK of the AOT cache variant from
 * {@value #AOT_JAVA_VARIABLE}, the replicas' JVM options from {@value FireOptions#REPLICA_OPTS_VARIABLE}.
 *
 * @param adminUrl JDBC URL of a database on the server the benchmark databases are created on
 * @param jar the packaged application, extracted once before the first start
 * @param jobs runtime jobs the first start stores, and the restarts find
 * @param rounds cold starts measured for each restart, without jobs and with them
 * @param aotJava the {@code java} of the AOT cache variant; {@code null} leaves that variant out
 * @param jvmOptions JVM options of every replica of both variants (none by default, as
 *        {@code java -jar} is run by a user)
 */
record StartUpOptions(String adminUrl, Path jar, int jobs, int rounds, Path aotJava, List<String> jvmOptions) {

    static final String AOT_JAVA_VARIABLE = "ONEBEAT_BENCH_AOT_JAVA";
    static final Path DEFAULT_AOT_JAVA = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
    static final Path DEFAULT_JAR = Path.of("scheduler-app", "target", "scheduler-app.jar");

    static final String USAGE = """
            usage: startup.sh [--jobs=10000] [--rounds=3] [--aot-java=PATH | --no-aot] [--jar=PATH] [--help]
            --aot-java: the java of a JDK 24 or later for the AOT cache variant (default %s
                        when it exists); --no-aot leaves that variant out
            --jar: the packaged application (default %s, built by bench/run.sh)
            environment: %s (default %s), %s (same as --aot-java),
                         %s (JVM options of every replica, default none)
            """.formatted(DEFAULT_AOT_JAVA, DEFAULT_JAR, BenchOptions.URL_VARIABLE, BenchOptions.DEFAULT_ADMIN_URL,
            AOT_JAVA_VARIABLE, FireOptions.REPLICA_OPTS_VARIABLE);

    StartUpOptions {
        if (!adminUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException(BenchOptions.URL_VARIABLE + " must be a jdbc:postgresql: URL");
        }
        BenchOptions.requireAtLeast("jobs", jobs, 1);
        BenchOptions.requireAtLeast("rounds", rounds, 1);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("jar: no file " + jar.toAbsolutePath() + "; build it with bench/run.sh"
                    + " or ./mvnw -DskipTests install");
        }
        if (aotJava != null && !Files.isExecutable(aotJava)) {
            throw new IllegalArgumentException("aot-java: " + aotJava + " is not an executable file");
        }
        jvmOptions = List.copyOf(jvmOptions);
    }

    /** @throws IllegalArgumentException naming the argument that is unknown or malformed */
    static StartUpOptions parse(String[] args, Map<String, String> environment) {
        String adminUrl = environment.getOrDefault(BenchOptions.URL_VARIABLE, BenchOptions.DEFAULT_ADMIN_URL).strip();
        String aotJava = environment.get(AOT_JAVA_VARIABLE);
        Path jar = DEFAULT_JAR;
        int jobs = 10_000;
        int rounds = 3;
        boolean aot = true;
        for (String arg : args) {
            String name = BenchOptions.argName(arg);
            String value = BenchOptions.argValue(arg);
            switch (name) {
                case "--jobs" -> jobs = BenchOptions.number(name, value);
                case "--rounds" -> rounds = BenchOptions.number(name, value);
                case "--aot-java" -> aotJava = value;
                case "--no-aot" -> aot = false;
                case "--jar" -> jar = Path.of(value);
                default -> throw new IllegalArgumentException("unknown argument " + arg);
            }
        }
        Path aotPath = null;
        if (aot && aotJava != null && !aotJava.isBlank()) {
            aotPath = Path.of(aotJava.strip());
        } else if (aot && Files.isExecutable(DEFAULT_AOT_JAVA)) {
            aotPath = DEFAULT_AOT_JAVA;
        }
        List<String> jvmOptions = ReplicaCommand.options(environment.getOrDefault(FireOptions.REPLICA_OPTS_VARIABLE, ""));
        return new StartUpOptions(adminUrl, jar, jobs, rounds, aotPath, jvmOptions);
    }
}
