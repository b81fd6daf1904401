package dev.onebeat.scheduler.bench;

import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The chaos command, {@code bench/chaos.sh}: a {@link ChaosRun} with the options given, its table printed; exits with
 * status 1 when a hard invariant broke. The replicas' logs stay in {@code target/chaos-bench/<time>/}.
 */
public final class ChaosBenchmark {

    static final String USAGE = """
            usage: chaos.sh [--seed=N] [--duration=4m] [--calm=40s] [--replicas=3] [--skew=2s]
                            [--faults=replica-kill,sessions,broker,postgres-restart] [--group-jobs=20] [--help]
              --seed      seeds every random choice (default: the clock; the seed is printed)
              --skew      the last replica's clock is this far ahead (libfaketime's faketime); 0s for none
              --faults    which faults, comma-separated (default all; postgres-restart only on the private server)
            environment: %s: the user's own PostgreSQL server to run on instead of a private one started from the
              system's binaries (then PostgreSQL is not restarted); %s: the replicas' JVM options (default %s)
            """.formatted(BenchOptions.URL_VARIABLE, FireOptions.REPLICA_OPTS_VARIABLE,
            ChaosOptions.DEFAULT_REPLICA_OPTS);

    private ChaosBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        ChaosOptions options = BenchOptions.parseOrExit(args, USAGE, ChaosOptions::parse);
        if (options == null) {
            return;
        }
        Path logDir = Path.of("target", "chaos-bench", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString()
                .replace(':', '-'));
        long started = System.nanoTime();
        ChaosResult result = ChaosRun.run(options, logDir, System.out);
        result.print(System.out);
        System.out.printf("run time %d s; replicas' logs: %s%n", (System.nanoTime() - started) / 1_000_000_000L,
                logDir.toAbsolutePath());
        System.exit(result.hardViolations().isEmpty() ? 0 : 1);
    }
}
