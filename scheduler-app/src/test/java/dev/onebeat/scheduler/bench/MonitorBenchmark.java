package dev.onebeat.scheduler.bench;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.fire.FireOutcome;
import dev.onebeat.scheduler.engine.fire.FirePath;
import dev.onebeat.scheduler.engine.fire.FireRequest;
import dev.onebeat.scheduler.engine.fire.FireResult;
import dev.onebeat.scheduler.engine.fire.FireTrigger;
import dev.onebeat.scheduler.operate.monitor.MonitorCheck;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bench/monitor.sh}: what the missed-fire detector costs per check with many jobs, and how fast the retention
 * job deletes, each beside a raw statement of the same work on the same database in the same run.
 *
 * <ul>
 *   <li>Detector: N runtime jobs every 60 s (default 10,000), Quartz stopped. Each round writes the ledger rows of
 *       one instant for all jobs but every hundredth (one multi-row insert: the baseline, about what a batch fire of
 *       them writes) and runs one check 40 s after the instant, past the 30 s grace: it judges N instants and writes
 *       N/100 missed events. Then a check with nothing new.</li>
 *   <li>Retention: N/10 jobs ({@code --retention-jobs}) with 600 fires each ({@code --retention-fires}) spread over
 *       600 days (daily by default: the oldest 510 past the 90-day age) and as many attempts; the retention job fired
 *       through the fire path until it deletes nothing, against a copy of the ledger deleted by a plain batched
 *       {@code DELETE ... WHERE fired_at < ?} with no rows kept per job. A million jobs with two fires each, the
 *       older past the age, each job keeping only its newest ({@code --retention-jobs=1000000 --retention-fires=2
 *       --retention-keep-last=1}), is a large catalog's ledger in the shape retention meets once it has more than
 *       {@code keep-last-fires} fires a job.</li>
 * </ul>
 */
public final class MonitorBenchmark {

    static final String USAGE = """
            usage: monitor.sh [--jobs=10000] [--rounds=5] [--retention-jobs=<jobs/10>] [--retention-fires=600]
                              [--retention-keep-last=100] [--help]
            environment: %s (default %s)
            """.formatted(BenchOptions.URL_VARIABLE, BenchOptions.DEFAULT_ADMIN_URL);

    private record Options(String adminUrl, int jobs, int rounds, int retentionJobs, int retentionFires,
                           int retentionKeepLast) {

        static Options parse(String[] args, Map<String, String> environment) {
            int jobs = 10_000;
            int rounds = 5;
            int retentionJobs = -1;
            int retentionFires = 600;
            int retentionKeepLast = 100;
            for (String arg : args) {
                String name = BenchOptions.argName(arg);
                String value = BenchOptions.argValue(arg);
                switch (name) {
                    case "--jobs" -> jobs = BenchOptions.number(name, value);
                    case "--rounds" -> rounds = BenchOptions.number(name, value);
                    case "--retention-jobs" -> retentionJobs = BenchOptions.number(name, value);
                    case "--retention-fires" -> retentionFires = BenchOptions.number(name, value);
                    case "--retention-keep-last" -> retentionKeepLast = BenchOptions.number(name, value);
                    default -> throw new IllegalArgumentException("unknown argument " + arg);
                }
            }
            BenchOptions.requireAtLeast("jobs", jobs, 100);
            BenchOptions.requireAtLeast("rounds", rounds, 1);
            retentionJobs = retentionJobs < 0 ? jobs / 10 : retentionJobs;
            BenchOptions.requireAtLeast("retention-jobs", retentionJobs, 1);
            BenchOptions.requireAtLeast("retention-fires", retentionFires, 2);
            BenchOptions.requireAtLeast("retention-keep-last", retentionKeepLast, 1);
            return new Options(environment.getOrDefault(BenchOptions.URL_VARIABLE, BenchOptions.DEFAULT_ADMIN_URL).strip(),
                    jobs, rounds, retentionJobs, retentionFires, retentionKeepLast);
        }
    }

    /** Retention fires at most, the first this many ten-minute steps in the past. */
    private static final int MAX_RETENTION_FIRES = 300;

    private MonitorBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Options options = BenchOptions.parseOrExit(args, USAGE, Options::parse);
        if (options == null) {
            return;
        }
        try (BenchDatabase database = BenchDatabase.create(options.adminUrl())) {
            System.out.printf("missed-fire detector and retention benchmark %s%n  server: %s%n  settings: %s%n"
                            + "  2 cores shared by the benchmark JVM, its replica and PostgreSQL; Java %s%n",
                    Instant.now().truncatedTo(ChronoUnit.SECONDS), database.serverVersion(), database.settings(),
                    System.getProperty("java.version"));
            OnebeatInstance.bootWith(database).close();
            detector(database, options);
            retention(database, options.retentionJobs(), options.retentionFires(), options.retentionKeepLast());
        }
    }

    private static void detector(BenchDatabase database, Options options) throws SQLException {
        try (Connection connection = DriverManager.getConnection(database.url())) {
            List<String> names = new ArrayList<>();
            List<String> definitions = new ArrayList<>();
            for (int i = 0; i < options.jobs(); i++) {
                String name = String.format(Locale.ROOT, "mon-%05d", i);
                names.add(name);
                definitions.add("{\"name\":\"" + name + "\",\"every\":\"60s\",\"task\":\"mon.tick\"}");
            }
            ListedJobs.insert(connection, names, definitions);
        }
        try (OnebeatInstance instance = OnebeatInstance.bootWith(database, "--onebeat.monitor.enabled=false");
             Connection connection = DriverManager.getConnection(database.url())) {
            analyze(connection);
            MonitorCheck check = instance.bean(MonitorCheck.class);
            // instants in the past, so that each round's fires were written, as a fire writes them, before the checks
            // after it (the detector reads the fires begun since its last check, and a few seconds more); the jobs
            // members of their schedule from before the first
            Instant base = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(options.rounds() + 3));
            try (PreparedStatement members = connection.prepareStatement("UPDATE onebeat_job SET member_since = ?")) {
                members.setTimestamp(1, Timestamp.from(base.minus(Duration.ofMinutes(1))));
                members.executeUpdate();
            }
            MonitorCheck.Result first = check.run(base, "bench");
            System.out.printf("%nmissed-fire detector, %,d jobs every 60 s (first check, every job new: %d ms)%n",
                    first.jobs(), first.took().toMillis());
            System.out.println("| round | ledger insert of the instant (baseline) | check 40 s after it | instants judged "
                    + "| events | per job | check with nothing new |");
            System.out.println("|---|---|---|---|---|---|---|");
            for (int round = 1; round <= options.rounds(); round++) {
                Instant instant = base.plus(Duration.ofMinutes(round));
                long insertNanos = System.nanoTime();
                int rows = insertFires(connection, instant);
                insertNanos = System.nanoTime() - insertNanos;
                MonitorCheck.Result result = check.run(instant.plusSeconds(40), "bench");
                MonitorCheck.Result idle = check.run(instant.plusSeconds(41), "bench");
                System.out.printf("| %d | %,d rows in %.1f ms | %d ms | %,d | %d | %.1f µs | %d ms |%n", round, rows,
                        insertNanos / 1e6, result.took().toMillis(), result.judged(), result.events().size(),
                        result.took().toNanos() / 1e3 / Math.max(1, result.jobs()), idle.took().toMillis());
            }
        }
    }

    private static int insertFires(Connection connection, Instant instant) throws SQLException {
        // every job's fire of the instant but every hundredth: those are missed
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome, duration_ms)
                SELECT name, ?, ?, 'bench', 'scheduled', 'committed', 20 FROM onebeat_job
                WHERE name LIKE 'mon-%' AND right(name, 2) <> '00'""")) {
            insert.setTimestamp(1, Timestamp.from(instant));
            insert.setTimestamp(2, Timestamp.from(instant.plusMillis(50)));
            return insert.executeUpdate();
        }
    }

    private static void retention(BenchDatabase database, int jobs, int firesPerJob, int keepLast)
            throws SQLException {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        try (Connection connection = DriverManager.getConnection(database.url());
             Statement statement = connection.createStatement()) {
            statement.execute("TRUNCATE onebeat_fire, onebeat_fire_attempt, onebeat_job_event");
            long generating = System.nanoTime();
            try (PreparedStatement insert = connection.prepareStatement("""
                    INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome)
                    SELECT 'ret-' || j, ?::timestamptz - d * ? * interval '1 day',
                           ?::timestamptz - d * ? * interval '1 day', 'bench', 'scheduled', 'committed'
                    FROM generate_series(1, ?) AS j, generate_series(0, ? - 1) AS d""")) {
                // the fires spread over 600 days: daily at 600 a job
                double spacingDays = 600.0 / firesPerJob;
                insert.setTimestamp(1, Timestamp.from(now));
                insert.setDouble(2, spacingDays);
                insert.setTimestamp(3, Timestamp.from(now));
                insert.setDouble(4, spacingDays);
                insert.setInt(5, jobs);
                insert.setInt(6, firesPerJob);
                insert.executeUpdate();
            }
            statement.execute("""
                    INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, attempt, outcome, reason, node, trigger_kind,
                                                      attempted_at)
                    SELECT job_name, scheduled_at, 1, 'skipped', 'paused', 'bench', 'scheduled', fired_at FROM onebeat_fire""");
            statement.execute("CREATE TABLE bench_fire_copy AS SELECT * FROM onebeat_fire");
            statement.execute("ALTER TABLE bench_fire_copy ADD PRIMARY KEY (id)");
            statement.execute("CREATE INDEX ON bench_fire_copy (fired_at)");
            analyze(connection);
            statement.execute("ANALYZE bench_fire_copy");
            System.out.printf(Locale.ROOT, "%nretention: %,d jobs x %d fires %.1f days apart and as many attempts"
                    + " written in %.1f s%n", jobs, firesPerJob, 600.0 / firesPerJob,
                    (System.nanoTime() - generating) / 1e9);
        }
        try (OnebeatInstance instance = OnebeatInstance.bootWith(database, "--onebeat.monitor.enabled=false",
                "--onebeat.retention.enabled=true", "--onebeat.retention.keep-last-fires=" + keepLast);
             Connection connection = DriverManager.getConnection(database.url())) {
            PeriodicJob job = instance.bean(JobRegistry.class).find("onebeat-retention").orElseThrow().job();
            FirePath firePath = instance.bean(FirePath.class);
            long deleted = 0;
            long nanos = 0;
            int fires = 0;
            long before = count(connection, "SELECT (SELECT count(*) FROM onebeat_fire) + (SELECT count(*) FROM onebeat_fire_attempt)");
            while (true) {
                long start = System.nanoTime();
                // instants ten minutes apart, all in the past: a fire waits at most a minute for an instant ahead of
                // the database's clock, and refuses one further ahead
                FireResult result = firePath.fire(job, FireRequest.of(now.minus(Duration.ofMinutes(10L
                        * (MAX_RETENTION_FIRES - fires))), FireTrigger.SCHEDULED, "bench"));
                long took = System.nanoTime() - start;
                if (result.outcome() != FireOutcome.COMMITTED) {
                    throw new IllegalStateException("retention fire " + result.outcome(), result.error());
                }
                fires++;
                long after = count(connection, "SELECT (SELECT count(*) FROM onebeat_fire WHERE job_name <> 'onebeat-retention')"
                        + " + (SELECT count(*) FROM onebeat_fire_attempt)");
                long thisFire = before - after;
                before = after;
                if (thisFire == 0) {
                    break;
                }
                if (fires == MAX_RETENTION_FIRES) {
                    throw new IllegalStateException("retention still deleting after " + fires + " fires");
                }
                deleted += thisFire;
                nanos += took;
                System.out.printf("  retention fire %d: %,d rows in %.2f s (%,.0f rows/s)%n", fires, thisFire, took / 1e9,
                        thisFire / (took / 1e9));
            }
            Raw raw = rawDelete(connection, now.minus(Duration.ofDays(90)));
            System.out.printf("retention job: %,d rows (ledger and attempts) in %.2f s over %d fires: %,.0f rows/s%n",
                    deleted, nanos / 1e9, fires - 1, deleted / (nanos / 1e9));
            System.out.printf("kept: %,d fires (%d per job), %,d attempts%n",
                    count(connection, "SELECT count(*) FROM onebeat_fire WHERE job_name LIKE 'ret-%'"),
                    count(connection, "SELECT count(*) FROM onebeat_fire WHERE job_name = 'ret-1'"),
                    count(connection, "SELECT count(*) FROM onebeat_fire_attempt"));
            System.out.printf("baseline, plain batched DELETE of the ledger copy by age (1,000 a statement, no rows kept "
                    + "per job): %,d rows in %.2f s: %,.0f rows/s%n", raw.rows(), raw.nanos() / 1e9,
                    raw.rows() / (raw.nanos() / 1e9));
        }
    }

    private record Raw(long rows, long nanos) {
    }

    private static Raw rawDelete(Connection connection, Instant horizon) throws SQLException {
        long rows = 0;
        long start = System.nanoTime();
        connection.setAutoCommit(false);
        try (PreparedStatement delete = connection.prepareStatement("""
                DELETE FROM bench_fire_copy WHERE id IN (SELECT id FROM bench_fire_copy WHERE fired_at < ? LIMIT 1000)""")) {
            delete.setTimestamp(1, Timestamp.from(horizon));
            int batch;
            long inTransaction = 0;
            do {
                batch = delete.executeUpdate();
                rows += batch;
                inTransaction += batch;
                if (inTransaction >= 100_000) {
                    connection.commit();
                    inTransaction = 0;
                }
            } while (batch > 0);
            connection.commit();
        } finally {
            connection.setAutoCommit(true);
        }
        return new Raw(rows, System.nanoTime() - start);
    }

    private static void analyze(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("ANALYZE onebeat_fire");
            statement.execute("ANALYZE onebeat_fire_attempt");
            statement.execute("ANALYZE onebeat_job");
        }
    }

    private static long count(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); var rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
