package dev.onebeat.scheduler.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * One chaos run: starts a {@link ChaosCluster}, waits for its first fires, inflicts the options' faults at seeded random
 * moments (each round of faults takes every fault once, in a shuffled order, 2–6 s apart), leaves the cluster alone
 * for the calm, and then reads what became of every instant of the faults ({@link ChaosTally}). The same random
 * choices follow from the same seed; when they happen still depends on the machine.
 *
 * <p>Shared by {@code bench/chaos.sh} ({@link ChaosBenchmark}, which prints the result) and the short run of the test
 * suite ({@code ChaosIT}, which asserts it).
 */
public final class ChaosRun {

    // generous: on a loaded machine a replica has taken minutes to start
    private static final Duration START_TIMEOUT = Duration.ofMinutes(15);
    private static final Duration FIRST_FIRES_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration TICK = Duration.ofMillis(200);

    private final ChaosOptions options;
    private final PrintStream out;
    private final Random random;
    private final Map<ChaosFault, Integer> inflicted = new EnumMap<>(ChaosFault.class);
    private int sessionsTerminated;
    private long startNanos;

    private ChaosRun(ChaosOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        this.random = new Random(options.seed());
    }

    /**
     * @param logDir where the replicas' logs are written, kept after the run
     * @param out where each fault is reported as it is inflicted
     */
    public static ChaosResult run(ChaosOptions options, Path logDir, PrintStream out) throws IOException,
            InterruptedException {
        return new ChaosRun(options, out).run(logDir);
    }

    private ChaosResult run(Path logDir) throws IOException, InterruptedException {
        try (ChaosCluster cluster = ChaosCluster.start(options, logDir)) {
            out.printf(Locale.ROOT, "chaos run, seed %d: %d replicas%s, faults %s for %d s, then %d s calm; "
                            + "jobs: %s every 1s, %d jobs every 2s; database %s; broker %s; logs %s%n",
                    options.seed(), options.replicas(), options.skew().isZero() ? "" : ", the last one's clock +"
                            + options.skew().toMillis() + " ms", options.faults().stream().map(ChaosFault::option)
                            .sorted().toList(), options.duration().toSeconds(), options.calm().toSeconds(),
                    ChaosCluster.SINGLE_JOB, options.groupJobs(), options.externalAdminUrl() == null
                            ? "private PostgreSQL " + cluster.database().name() : cluster.database().name(),
                    cluster.broker().url(), logDir.toAbsolutePath());
            cluster.startReplicas(START_TIMEOUT);
            Long skewSeen = cluster.skewSeen().orElse(null);
            awaitFirstFires(cluster);
            Instant from = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
            startNanos = System.nanoTime();
            inflictFaults(cluster);
            Instant to = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            waitSupervising(cluster, options.calm());
            // the instants API needs one replica: those killed near the end may still be starting
            cluster.awaitAnyStarted(START_TIMEOUT);
            return new ChaosTally(cluster, options).tally(from, to, inflicted, sessionsTerminated, skewSeen);
        }
    }

    private void inflictFaults(ChaosCluster cluster) throws IOException, InterruptedException {
        long end = startNanos + options.duration().toNanos();
        List<ChaosFault> round = new ArrayList<>();
        while (true) {
            Duration gap = Duration.ofMillis(2000 + random.nextInt(4000));
            Duration left = Duration.ofNanos(end - System.nanoTime());
            if (left.compareTo(gap) <= 0) {
                waitSupervising(cluster, left);
                return;
            }
            waitSupervising(cluster, gap);
            if (round.isEmpty()) {
                round.addAll(options.faults().stream().sorted().toList());
                Collections.shuffle(round, random);
            }
            if (!round.isEmpty()) {
                inflict(cluster, round.remove(0));
            }
        }
    }

    private void inflict(ChaosCluster cluster, ChaosFault fault) throws IOException, InterruptedException {
        inflicted.merge(fault, 1, Integer::sum);
        switch (fault) {
            case REPLICA_KILL -> {
                String id = cluster.ids().get(random.nextInt(cluster.ids().size()));
                report(fault, id + (cluster.skewed(id) ? " (the skewed one)" : ""));
                cluster.killReplica(id);
            }
            case SESSIONS -> {
                Duration during = Duration.ofMillis(1000 + random.nextInt(2000));
                int killed = cluster.killSessions(during);
                sessionsTerminated += killed;
                report(fault, killed + " sessions terminated over " + during.toMillis() + " ms");
            }
            case BROKER -> {
                Duration down = Duration.ofMillis(1000 + random.nextInt(3000));
                report(fault, "kill -9, down " + down.toMillis() + " ms");
                cluster.killBroker();
                waitSupervising(cluster, down);
                cluster.startBroker();
            }
            case POSTGRES_RESTART -> {
                Duration down = Duration.ofMillis(1000 + random.nextInt(3000));
                report(fault, "pg_ctl stop -m fast, down " + down.toMillis() + " ms");
                cluster.stopPostgres();
                waitSupervising(cluster, down);
                cluster.startPostgres();
            }
        }
    }

    private void report(ChaosFault fault, String detail) {
        out.printf(Locale.ROOT, "  %6.1f s  %-16s %s%n", (System.nanoTime() - startNanos) / 1e9, fault.option(), detail);
    }

    /** Passes {@code duration}, meanwhile launching again every replica that exited by itself. */
    private static void waitSupervising(ChaosCluster cluster, Duration duration) throws InterruptedException {
        long end = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < end) {
            cluster.supervise();
            Thread.sleep(Math.max(1, Math.min(TICK.toMillis(), (end - System.nanoTime()) / 1_000_000)));
        }
        cluster.supervise();
    }

    private static void awaitFirstFires(ChaosCluster cluster) throws InterruptedException {
        JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(cluster.database().url()));
        long deadline = System.nanoTime() + FIRST_FIRES_TIMEOUT.toNanos();
        while (jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ?").param(ChaosCluster.SINGLE_JOB)
                .query(Long.class).single() < 3) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(ChaosCluster.SINGLE_JOB + " did not fire 3 times within "
                        + FIRST_FIRES_TIMEOUT);
            }
            waitSupervising(cluster, Duration.ofMillis(500));
        }
    }
}
