package dev.onebeat.scheduler.bench;

import dev.onebeat.job.Durations;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a {@link ChaosRun} does.
 *
 * @param seed seeds every random choice: which fault, when, which replica, how long a server stays down
 * @param duration how long faults are inflicted
 * @param calm how long the cluster is left alone afterwards, before the outcomes are read
 * @param replicas scheduler replicas, each a JVM of its own
 * @param skew how far the last replica's clock is ahead (libfaketime); zero runs every replica on the true clock
 * @param faults the faults inflicted; {@link ChaosFault#POSTGRES_RESTART} needs the private server
 * @param externalAdminUrl a JDBC URL of the user's own PostgreSQL server to create the run's database on, or null
 *     for a private server started from the system's PostgreSQL binaries
 * @param groupJobs jobs of the batched group, due every 2 s beside the single job due every second
 * @param replicaJvmOptions the replicas' JVM options
 */
public record ChaosOptions(long seed, Duration duration, Duration calm, int replicas, Duration skew,
                           Set<ChaosFault> faults, String externalAdminUrl, int groupJobs,
                           List<String> replicaJvmOptions) {

    // C1 only and the serial collector: three replicas, PostgreSQL and the broker share the machine's cores
    static final String DEFAULT_REPLICA_OPTS = "-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

    public ChaosOptions {
        requirePositive("duration", duration);
        requirePositive("calm", calm);
        BenchOptions.requireAtLeast("replicas", replicas, 1);
        BenchOptions.requireAtLeast("group-jobs", groupJobs, 0);
        Objects.requireNonNull(skew, "skew must not be null");
        if (skew.isNegative()) {
            throw new IllegalArgumentException("skew: '" + skew + "' is negative; the skewed clock runs ahead");
        }
        faults = faults.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(faults));
        if (externalAdminUrl != null && faults.contains(ChaosFault.POSTGRES_RESTART)) {
            throw new IllegalArgumentException("faults: postgres-restart needs the private server, not "
                    + BenchOptions.URL_VARIABLE);
        }
        if (externalAdminUrl != null && !externalAdminUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException(BenchOptions.URL_VARIABLE + ": '" + externalAdminUrl
                    + "' is not a jdbc:postgresql: URL");
        }
        replicaJvmOptions = List.copyOf(replicaJvmOptions);
    }

    /** Every fault, 3 replicas, one ahead by {@code skew}, on a private PostgreSQL server. */
    public static ChaosOptions defaults(long seed, Duration duration, Duration calm, Duration skew) {
        return new ChaosOptions(seed, duration, calm, 3, skew, EnumSet.allOf(ChaosFault.class), null, 20,
                ReplicaCommand.options(DEFAULT_REPLICA_OPTS));
    }

    /**
     * Arguments are {@code --name=value}. With {@value BenchOptions#URL_VARIABLE} set, the run's database is created
     * on that server and PostgreSQL is not restarted.
     *
     * @throws IllegalArgumentException naming the argument that is unknown or malformed
     */
    static ChaosOptions parse(String[] args, Map<String, String> environment) {
        long seed = System.nanoTime();
        Duration duration = Duration.ofMinutes(4);
        Duration calm = Duration.ofSeconds(40);
        int replicas = 3;
        Duration skew = Duration.ofSeconds(2);
        int groupJobs = 20;
        Set<ChaosFault> faults = EnumSet.allOf(ChaosFault.class);
        String external = environment.get(BenchOptions.URL_VARIABLE);
        external = external == null || external.isBlank() ? null : external.strip();
        boolean faultsGiven = false;
        for (String arg : args) {
            String name = BenchOptions.argName(arg);
            String value = BenchOptions.argValue(arg);
            switch (name) {
                case "--seed" -> seed = seed(value);
                case "--duration" -> duration = duration(name, value);
                case "--calm" -> calm = duration(name, value);
                case "--replicas" -> replicas = BenchOptions.number(name, value);
                case "--skew" -> skew = duration(name, value);
                case "--group-jobs" -> groupJobs = BenchOptions.number(name, value);
                case "--faults" -> {
                    faults = EnumSet.noneOf(ChaosFault.class);
                    Arrays.stream(value.split(",")).map(String::strip).filter(fault -> !fault.isEmpty())
                            .map(ChaosFault::of).forEach(faults::add);
                    faultsGiven = true;
                }
                default -> throw new IllegalArgumentException("unknown argument " + arg);
            }
        }
        if (external != null && !faultsGiven) {
            faults.remove(ChaosFault.POSTGRES_RESTART);
        }
        String jvmOptions = environment.getOrDefault(FireOptions.REPLICA_OPTS_VARIABLE, DEFAULT_REPLICA_OPTS);
        return new ChaosOptions(seed, duration, calm, replicas, skew, faults, external, groupJobs,
                ReplicaCommand.options(jvmOptions));
    }

    private static long seed(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--seed: '" + value + "' is not a whole number", e);
        }
    }

    private static Duration duration(String name, String value) {
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new IllegalArgumentException(name + ": '" + value + "' is not a duration such as 4m or 30s", e);
        }
    }

    private static void requirePositive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + ": '" + value + "' is not a positive duration");
        }
    }
}
