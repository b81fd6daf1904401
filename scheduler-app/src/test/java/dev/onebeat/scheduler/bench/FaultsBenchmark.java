package dev.onebeat.scheduler.bench;

import dev.onebeat.job.Durations;
import dev.onebeat.scheduler.SecurityTestUsers;
import dev.onebeat.scheduler.engine.cluster.DatabaseFaults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The database-fault scenario: R scheduler replicas (default 3) as separate JVMs on one database, a job due every
 * second, every session of the database terminated every 0.3 s for 70 s, then 20 s of calm; then what the instants
 * API says of every instant of the fault (committed, skipped by reason, failed, retrying, missed and why, pending
 * inside its grace, none), the commits made twice, and what the replicas logged and counted. Run by
 * {@code bench/faults.sh}; the replicas' logs stay in {@code target/faults-bench/<time>/}.
 */
public final class FaultsBenchmark {

    static final String USAGE = """
            usage: faults.sh [--replicas=3] [--faults=70s] [--calm=20s] [--kill-every=300ms] [--help]
            environment: %s (default %s), %s (the replicas' JVM options, default -Xmx1g)
            """.formatted(BenchOptions.URL_VARIABLE, BenchOptions.DEFAULT_ADMIN_URL, FireOptions.REPLICA_OPTS_VARIABLE);
    private static final String JOB = "faults-1s";

    private record Options(String adminUrl, int replicas, Duration faults, Duration calm, Duration killEvery) {

        static Options parse(String[] args, Map<String, String> environment) {
            int replicas = 3;
            Duration faults = Duration.ofSeconds(70);
            Duration calm = Duration.ofSeconds(20);
            Duration killEvery = Duration.ofMillis(300);
            for (String arg : args) {
                String name = BenchOptions.argName(arg);
                String value = BenchOptions.argValue(arg);
                switch (name) {
                    case "--replicas" -> replicas = BenchOptions.number(name, value);
                    case "--faults" -> faults = duration(name, value);
                    case "--calm" -> calm = duration(name, value);
                    case "--kill-every" -> killEvery = duration(name, value);
                    default -> throw new IllegalArgumentException("unknown argument " + arg);
                }
            }
            BenchOptions.requireAtLeast("replicas", replicas, 1);
            if (killEvery.isNegative() || killEvery.isZero()) {
                throw new IllegalArgumentException("--kill-every: '" + killEvery + "' is not positive");
            }
            return new Options(environment.getOrDefault(BenchOptions.URL_VARIABLE, BenchOptions.DEFAULT_ADMIN_URL)
                    .strip(), replicas, faults, calm, killEvery);
        }

        private static Duration duration(String name, String value) {
            try {
                return Durations.parse(value);
            } catch (IllegalArgumentException | DateTimeParseException e) {
                throw new IllegalArgumentException(name + ": '" + value + "' is not a duration such as 70s or 300ms", e);
            }
        }
    }

    private FaultsBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Options options = BenchOptions.parseOrExit(args, USAGE, Options::parse);
        if (options == null) {
            return;
        }
        Path logDir = Path.of("target", "faults-bench", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString()
                .replace(':', '-'));
        String viewer = SecurityTestUsers.token("viewer");
        List<String> arguments = new ArrayList<>(List.of("--onebeat.jobs[0].name=" + JOB, "--onebeat.jobs[0].every=1s",
                "--onebeat.jobs[0].task=faults.tick"));
        arguments.addAll(DatabaseFaults.tokens());
        try (BenchDatabase database = BenchDatabase.create(options.adminUrl());
             ReplicaProcesses replicas = new ReplicaProcesses(database, logDir)) {
            System.out.printf("database-fault benchmark %s%n  server: %s%n  %d replicas, job %s every 1s, every session "
                            + "terminated every %d ms for %d s, then %d s calm; Java %s%n",
                    Instant.now().truncatedTo(ChronoUnit.SECONDS), database.serverVersion(), options.replicas(), JOB,
                    options.killEvery().toMillis(), options.faults().toSeconds(), options.calm().toSeconds(),
                    System.getProperty("java.version"));
            List<String> ids = new ArrayList<>();
            for (int i = 1; i <= options.replicas(); i++) {
                ids.add("replica-" + i);
                replicas.launch("replica-" + i, arguments);
            }
            ids.forEach(replicas::awaitUp);
            JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(database.url()));
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ?").param(JOB).query(Long.class)
                    .single() < 3) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(JOB + " did not fire 3 times within 2 minutes, see " + logDir);
                }
                BenchDatabase.sleep(Duration.ofMillis(200));
            }
            Instant from = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
            int killed = DatabaseFaults.killSessions(database::connect, options.faults(), options.killEvery());
            Instant end = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
            System.out.printf("  faults from %s to %s: %d sessions terminated%n", from, end, killed);
            BenchDatabase.sleep(options.calm());

            String api = replicas.baseUrl(ids.get(0));
            Instant now = Instant.now();
            List<DatabaseFaults.Judged> instants = DatabaseFaults.instants(api, viewer, JOB, from, end);
            System.out.printf("%nat %s, %d s after the faults, the %d instants of the faults (instants API):%n",
                    now.truncatedTo(ChronoUnit.SECONDS), options.calm().toSeconds(), instants.size());
            DatabaseFaults.counts(instants, now).forEach((outcome, count) -> System.out.printf("  %5d %s%n", count,
                    outcome));
            System.out.printf("%nduplicate commits (ledger): %d%n", DatabaseFaults.duplicateCommits(jdbc));
            double failures = 0;
            for (String id : ids) {
                failures += DatabaseFaults.fireFailures(replicas.baseUrl(id), SecurityTestUsers.token("admin"));
            }
            System.out.printf("onebeat_fire_failed_total{reason=\"database\"}, all replicas: %.0f%n", failures);
            for (String text : List.of("fires cannot reach the database", "fires reached the database again",
                    "fire failed", "instant missed")) {
                System.out.printf("log lines \"%s\": %d%n", text, countLines(replicas.logs(), text));
            }
            System.out.printf("replicas' logs: %s%n", logDir.toAbsolutePath());
        }
    }

    private static long countLines(List<Path> logs, String text) {
        long count = 0;
        for (Path log : logs) {
            try (var lines = Files.lines(log)) {
                count += lines.filter(line -> line.contains(text)).count();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return count;
    }
}
