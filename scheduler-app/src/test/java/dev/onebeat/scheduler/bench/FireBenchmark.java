package dev.onebeat.scheduler.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Many jobs due on one instant, fired by several scheduler replicas (separate JVMs) on one
 * PostgreSQL: how late the last fire commits, fires per second, whether every (job, instant) fired
 * exactly once, and the write transactions per fire; then jobs spread over a 10 s period (the lag of
 * each fire); the replicas' start-up with the jobs; and, as the same-run baseline, raw Quartz
 * firing as many one-shot triggers with batch acquisition 1 and 100. Run it with
 * {@code bench/fire.sh}; see {@link FireOptions#USAGE}.
 *
 * <p>The jobs are runtime jobs inserted in bulk into {@code onebeat_runtime_job}, as if created
 * through the admin API, so the first replica's start stores them all. Each fires one task into
 * the outbox; the relay publishes to the in-database queue, as by default. Commit times come from
 * {@link CommitTimes}, transaction counts from {@link TransactionMarks}.
 */
public final class FireBenchmark {

    private static final Duration IDLE_WINDOW = Duration.ofSeconds(12);
    private static final Duration LEAD = Duration.ofSeconds(15);
    /** Fires each replica commits before the spread mode is measured. */
    private static final int WARM_UP_FIRES = 300;
    private static final Duration WARM_UP_LIMIT = Duration.ofMinutes(3);
    private static final List<String> SPREAD_ZONES = List.of("UTC", "Europe/Paris", "America/New_York", "Asia/Tokyo",
            "Australia/Sydney", "America/Sao_Paulo", "Africa/Cairo", "Asia/Kolkata", "Europe/London",
            "America/Los_Angeles");
    private static final Pattern BATCH_LINE = Pattern.compile(
            "fires committed scheduledAt=(\\S+) node=\\S+ trigger=\\S+ jobs=(\\d+) tasks=\\d+ duplicates=(\\d+) failed=(\\d+)");

    private final FireOptions options;
    private final Path logDir;
    private final List<String> summary = new ArrayList<>();

    private FireBenchmark(FireOptions options, Path logDir) {
        this.options = options;
        this.logDir = logDir;
    }

    public static void main(String[] args) throws Exception {
        FireOptions options = BenchOptions.parseOrExit(args, FireOptions.USAGE, FireOptions::parse);
        if (options == null) {
            return;
        }
        Path logDir = Path.of("target", "fire-bench", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString()
                .replace(":", ""));
        new FireBenchmark(options, logDir).run();
        System.exit(0);
    }

    private void run() throws Exception {
        try (BenchDatabase probe = BenchDatabase.create(options.adminUrl())) {
            System.out.printf(Locale.ROOT, "fire benchmark %s%n  server: %s%n  settings: %s%n  machine: %d cores, Java %s,"
                            + " load average %.2f at start%n  replicas: %d JVMs (%s), CPU %s, logs in %s%n  options: %s%n",
                    Instant.now().truncatedTo(ChronoUnit.SECONDS), probe.serverVersion(), probe.settings(),
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), loadAverage(),
                    options.replicas(), System.getenv().getOrDefault(FireOptions.REPLICA_OPTS_VARIABLE, "-Xmx1g"),
                    CpuCap.describe(), logDir.toAbsolutePath(), options);
        }
        List<RawQuartzBurst.Result> raw = new ArrayList<>();
        if (options.rawJobs() > 0) {
            for (int batch : List.of(1, 100)) {
                RawQuartzBurst.Result result = new RawQuartzBurst(options.adminUrl())
                        .run(options.rawJobs(), batch, options.rawThreads());
                System.out.println(result.summary());
                raw.add(result);
            }
        }
        List<Double> burstRates = new ArrayList<>();
        if (options.burst()) {
            burstRates = burst();
        }
        if (options.spread()) {
            spread();
        }
        System.out.println();
        System.out.println("summary:");
        summary.forEach(line -> System.out.println("  " + line));
        for (RawQuartzBurst.Result result : raw) {
            System.out.printf(Locale.ROOT, "  raw Quartz batch %d (%d threads, %,d triggers): %.0f fires/s%s%n",
                    result.batch(), result.threads(), result.triggers(), result.firesPerSecond(),
                    burstRates.isEmpty() ? "" : String.format(Locale.ROOT, "; onebeat's slowest burst is %.1f× that",
                            burstRates.stream().mapToDouble(Double::doubleValue).min().orElseThrow()
                                    / result.firesPerSecond()));
        }
    }

    /** @return fires per second of each burst: jobs over the last commit's lag */
    private List<Double> burst() throws Exception {
        List<Double> rates = new ArrayList<>();
        try (BenchDatabase database = BenchDatabase.create(options.adminUrl());
             ReplicaProcesses replicas = new ReplicaProcesses(database, logDir.resolve("burst"))) {
            System.out.printf(Locale.ROOT, "%nburst: %,d runtime jobs every %d s on %d replicas, database %s%n",
                    options.jobs(), options.period().toSeconds(), options.replicas(), database.name());
            ReplicaProcesses.StartUp empty = replicas.start("replica-1");
            replicas.stop("replica-1");
            System.out.println("start-up on an empty database (Liquibase creates the tables): " + describe(empty));
            ReplicaProcesses.StartUp noJobs = replicas.start("replica-1");
            replicas.stop("replica-1");
            System.out.println("restart without jobs (the cost of a start that has no job to store): " + describe(noJobs));
            CommitTimes commits = new CommitTimes(database);
            commits.install();
            List<String> names = new ArrayList<>();
            List<String> definitions = new ArrayList<>();
            for (int i = 0; i < options.jobs(); i++) {
                String name = String.format(Locale.ROOT, "burst-%05d", i);
                names.add(name);
                definitions.add(String.format(Locale.ROOT, "{\"name\":\"%s\",\"every\":\"%ds\",\"task\":\"bench.tick\","
                        + "\"queue\":\"bench\",\"args\":[%d]%s}", name, options.period().toSeconds(), i,
                        options.burstSpread().isZero() ? "" : ",\"spread\":\"" + options.burstSpread().toSeconds() + "s\""));
            }
            insertJobs(database, names, definitions);
            ReplicaProcesses.StartUp first = replicas.start("replica-1");
            long stored = count(database, "SELECT count(*) FROM onebeat_job");
            System.out.printf(Locale.ROOT, "first start, storing %,d new jobs (catalog now %,d): %s%n", options.jobs(),
                    stored, describe(first));
            replicas.stop("replica-1");
            analyze(database);
            ReplicaProcesses.StartUp restart = replicas.start("replica-1");
            System.out.printf(Locale.ROOT, "restart with the %,d jobs stored: %s%n", options.jobs(), describe(restart));
            summary.add(String.format(Locale.ROOT, "start-up: without jobs %s; with %,d jobs, first (storing them) %s,"
                    + " restart %s", describe(noJobs), options.jobs(), describe(first), describe(restart)));
            for (int i = 2; i <= options.replicas(); i++) {
                replicas.launch("replica-" + i);
            }
            for (int i = 2; i <= options.replicas(); i++) {
                System.out.printf(Locale.ROOT, "replica-%d started beside the others: %s%n", i,
                        describe(replicas.awaitUp("replica-" + i)));
            }
            awaitCluster(database);
            Instant after = Instant.now();
            for (int k = 0; k < options.instants(); k++) {
                Instant instant = nextInstant(after, options.period());
                BurstFigures figures = measureBurst(database, commits, replicas, instant);
                rates.add(figures.rate());
                after = Instant.now();
            }
        }
        return rates;
    }

    private record BurstFigures(double rate) {
    }

    private BurstFigures measureBurst(BenchDatabase database, CommitTimes commits, ReplicaProcesses replicas,
                                      Instant instant) throws Exception {
        sleepUntil(instant.minus(IDLE_WINDOW).minusSeconds(1));
        TransactionMarks idleStart = TransactionMarks.read(options.adminUrl(), database);
        sleepUntil(instant.minusSeconds(1));
        TransactionMarks burstStart = TransactionMarks.read(options.adminUrl(), database);
        Instant giveUp = instant.plus(options.period()).minus(LEAD).minusSeconds(2);
        while (commits.committed(instant) < options.jobs() && Instant.now().isBefore(giveUp)) {
            BenchDatabase.sleep(Duration.ofMillis(20));
        }
        String expected = "SELECT name, TIMESTAMPTZ '" + instant + "' FROM onebeat_runtime_job WHERE kind = 'job'";
        CommitTimes.Lags lags = commits.lags(instant, instant.plusMillis(1), expected);
        Duration window = IDLE_WINDOW;
        if (lags.max() != null && lags.max().plusSeconds(3).compareTo(window) > 0) {
            window = lags.max().plusSeconds(3);
        }
        sleepUntil(instant.minusSeconds(1).plus(window));
        TransactionMarks burstEnd = TransactionMarks.read(options.adminUrl(), database);
        double rate = lags.max() == null ? 0 : lags.fires() / (lags.max().toNanos() / 1e9);
        long tasks = count(database, "SELECT count(*) FROM onebeat_task WHERE scheduled_at = TIMESTAMPTZ '" + instant + "'");
        long distinctKeys = count(database, "SELECT count(DISTINCT idempotency_key) FROM onebeat_task"
                + " WHERE scheduled_at = TIMESTAMPTZ '" + instant + "'");
        long[] attempts = batchLines(replicas, instant);
        System.out.printf(Locale.ROOT, "%ninstant %s: %,d of %,d fired, missing %d, doubled %d (ledger rows %,d distinct);"
                        + " by replica %s, by trigger %s%n  last commit %s after the instant: %.0f fires/s; %s%n"
                        + "  tasks %,d (distinct keys %,d); duplicate fires refused by the ledger %d, failed %d%n  %s%n",
                instant, lags.fires(), options.jobs(), lags.missing(), lags.fires() - lags.distinct(), lags.distinct(),
                lags.byNode(), lags.byTrigger(), CommitTimes.millis(lags.max()), rate, lags.summary(), tasks,
                distinctKeys, attempts[1], attempts[2],
                TransactionMarks.perFire(burstEnd.minus(burstStart), window, burstStart.minus(idleStart), IDLE_WINDOW,
                        lags.fires()));
        System.out.printf(Locale.ROOT, "  peak resident memory per replica so far (VmHWM, MiB): %s%n",
                replicas.peakRssMiB());
        if (options.burstSpread().isZero()) {
            printBatches(commits.batches(instant));
        } else {
            System.out.print(SpreadHistogram.of(database, instant, options.burstSpread()));
        }
        summary.add(String.format(Locale.ROOT, "burst of %,d at %s: last commit %s, %.0f fires/s, p50 %s, p99 %s,"
                        + " missing %d, doubled %d, %s", options.jobs(), instant, CommitTimes.millis(lags.max()), rate,
                CommitTimes.millis(lags.p50()), CommitTimes.millis(lags.p99()), lags.missing(),
                lags.fires() - lags.distinct(), TransactionMarks.perFire(burstEnd.minus(burstStart), window,
                        burstStart.minus(idleStart), IDLE_WINDOW, lags.fires())));
        return new BurstFigures(rate);
    }

    /** Where a burst's time went: its transactions, when each began and how long it took. */
    private static void printBatches(List<CommitTimes.Batch> batches) {
        if (batches.isEmpty()) {
            return;
        }
        List<Long> durations = batches.stream().map(batch -> batch.duration().toNanos()).toList();
        Latencies took = new Latencies("batch", durations);
        CommitTimes.Batch first = batches.get(0);
        CommitTimes.Batch last = batches.get(batches.size() - 1);
        int largest = batches.stream().mapToInt(CommitTimes.Batch::fires).max().orElseThrow();
        System.out.printf(Locale.ROOT, "  where the time went: the first transaction began %s after the instant"
                        + " (Quartz's wake-up, acquisition and triggersFired, the schedule's members read), the last"
                        + " %s after; %d transactions of up to %d fires (%s), each from its start to its commit p50 %.0f ms,"
                        + " max %.0f ms%n", CommitTimes.millis(first.startLag()), CommitTimes.millis(last.startLag()),
                batches.size(), largest, batches.stream().map(CommitTimes.Batch::node).distinct().sorted().toList(),
                took.medianMillis(), took.percentileMillis(100));
    }

    /** @return [batch lines, duplicates, failed] the replicas logged for the instant */
    private static long[] batchLines(ReplicaProcesses replicas, Instant instant) {
        long[] totals = new long[3];
        for (Path log : replicas.logs()) {
            try (Stream<String> lines = Files.lines(log)) {
                lines.forEach(line -> {
                    Matcher matcher = BATCH_LINE.matcher(line);
                    if (matcher.find() && Instant.parse(matcher.group(1)).equals(instant)) {
                        totals[0]++;
                        totals[1] += Long.parseLong(matcher.group(3));
                        totals[2] += Long.parseLong(matcher.group(4));
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return totals;
    }

    private void spread() throws Exception {
        int zones = options.spreadSchedules() / FireOptions.SPREAD_PERIOD_SECONDS;
        List<String> zoneIds = spreadZones(zones);
        try (BenchDatabase database = BenchDatabase.create(options.adminUrl());
             ReplicaProcesses replicas = new ReplicaProcesses(database, logDir.resolve("spread"))) {
            System.out.printf(Locale.ROOT, "%nspread: %,d runtime jobs on %d schedules (cron second offsets 0-9 of a"
                            + " %d s period × %d zones), %d replicas, database %s%n", options.spreadJobs(),
                    options.spreadSchedules(), FireOptions.SPREAD_PERIOD_SECONDS, zones, options.replicas(),
                    database.name());
            replicas.start("replica-1");
            replicas.stop("replica-1");
            CommitTimes commits = new CommitTimes(database);
            commits.install();
            List<String> names = new ArrayList<>();
            List<String> definitions = new ArrayList<>();
            for (int i = 0; i < options.spreadJobs(); i++) {
                int schedule = i % options.spreadSchedules();
                int offset = schedule % FireOptions.SPREAD_PERIOD_SECONDS;
                String zone = zoneIds.get(schedule / FireOptions.SPREAD_PERIOD_SECONDS);
                String name = String.format(Locale.ROOT, "spread-o%d-%04d", offset, i);
                names.add(name);
                definitions.add(String.format(Locale.ROOT, "{\"name\":\"%s\",\"cron\":\"%d/%d * * * * ?\",\"zone\":\"%s\","
                                + "\"task\":\"bench.tick\",\"queue\":\"bench\",\"args\":[%d]}", name, offset,
                        FireOptions.SPREAD_PERIOD_SECONDS, zone, i));
            }
            insertJobs(database, names, definitions);
            for (int i = 1; i <= options.replicas(); i++) {
                replicas.launch("replica-" + i);
            }
            for (int i = 1; i <= options.replicas(); i++) {
                replicas.awaitUp("replica-" + i);
            }
            awaitCluster(database);
            analyze(database);
            warmUpEveryReplica(database);
            Instant from = nextInstant(Instant.now().plus(LEAD), Duration.ofSeconds(FireOptions.SPREAD_PERIOD_SECONDS));
            Instant to = from.plus(options.spreadWindow());
            long periods = options.spreadWindow().toSeconds() / FireOptions.SPREAD_PERIOD_SECONDS;
            long expectedFires = periods * options.spreadJobs();
            sleepUntil(to);
            Instant giveUp = to.plusSeconds(30);
            while (commits.committed(from, to) < expectedFires && Instant.now().isBefore(giveUp)) {
                BenchDatabase.sleep(Duration.ofMillis(100));
            }
            String expected = String.format(Locale.ROOT, "SELECT name, TIMESTAMPTZ '%s' + make_interval(secs =>"
                    + " substring(name from 'spread-o(\\d)')::int + %d * g) FROM onebeat_runtime_job,"
                    + " generate_series(0, %d) AS g WHERE kind = 'job'", from, FireOptions.SPREAD_PERIOD_SECONDS,
                    periods - 1);
            CommitTimes.Lags lags = commits.lags(from, to, expected);
            long late = count(database, "SELECT count(*) FROM bench_fire_commit WHERE scheduled_at >= TIMESTAMPTZ '" + from
                    + "' AND scheduled_at < TIMESTAMPTZ '" + to + "' AND committed_at - scheduled_at >= interval '100 ms'");
            System.out.printf(Locale.ROOT, "window %s to %s: %,d of %,d expected fires, missing %d, doubled %d;"
                            + " by replica %s, by trigger %s%n  %s; %,d fires at or over 100 ms%n", from, to, lags.fires(),
                    expectedFires, lags.missing(), lags.fires() - lags.distinct(), lags.byNode(), lags.byTrigger(),
                    lags.summary(), late);
            summary.add(String.format(Locale.ROOT, "spread, %,d jobs on %d schedules, %,d fires in %d s: commit lag p50 %s,"
                            + " p99 %s, max %s, missing %d, doubled %d", options.spreadJobs(), options.spreadSchedules(),
                    lags.fires(), options.spreadWindow().toSeconds(), CommitTimes.millis(lags.p50()),
                    CommitTimes.millis(lags.p99()), CommitTimes.millis(lags.max()), lags.missing(),
                    lags.fires() - lags.distinct()));
        }
    }

    /**
     * Waits until every replica has committed {@link #WARM_UP_FIRES} fires, at most {@link #WARM_UP_LIMIT}: Quartz
     * shares the schedules out at random, and a replica's first fires after start-up run its code cold (they
     * took 100-150 ms instead of 20-30 ms when a replica first fired inside the measured window).
     */
    private void warmUpEveryReplica(BenchDatabase database) throws SQLException {
        Instant start = Instant.now();
        Instant giveUp = start.plus(WARM_UP_LIMIT);
        long warm;
        do {
            BenchDatabase.sleep(Duration.ofSeconds(1));
            warm = count(database, "SELECT count(*) FROM (SELECT node FROM onebeat_fire GROUP BY node HAVING count(*) >= "
                    + WARM_UP_FIRES + ") AS warm");
        } while (warm < options.replicas() && Instant.now().isBefore(giveUp));
        System.out.printf(Locale.ROOT, "warm-up: %d of %d replicas had committed %d fires after %d s%n", warm,
                options.replicas(), WARM_UP_FIRES, Duration.between(start, Instant.now()).toSeconds());
    }

    private static List<String> spreadZones(int count) {
        List<String> zones = new ArrayList<>(SPREAD_ZONES);
        ZoneId.getAvailableZoneIds().stream().sorted().filter(zone -> !zones.contains(zone)).forEach(zones::add);
        return zones.subList(0, count);
    }

    private static void insertJobs(BenchDatabase database, List<String> names, List<String> definitions)
            throws SQLException {
        long start = System.nanoTime();
        try (Connection connection = database.connect()) {
            ListedJobs.insert(connection, names, definitions);
        }
        analyze(database);
        System.out.printf(Locale.ROOT, "%,d rows inserted into onebeat_runtime_job and analyzed in %.1f s%n", names.size(),
                (System.nanoTime() - start) / 1e9);
    }

    private void awaitCluster(BenchDatabase database) throws SQLException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (count(database, "SELECT count(*) FROM qrtz_scheduler_state") < options.replicas()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the Quartz cluster did not reach " + options.replicas() + " replicas");
            }
            BenchDatabase.sleep(Duration.ofMillis(200));
        }
    }

    /** ANALYZE, as autovacuum would soon after a bulk insert (the benchmark server may have it off). */
    private static void analyze(BenchDatabase database) throws SQLException {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            statement.execute("ANALYZE");
        }
    }

    /** @return the first multiple of {@code period} since the epoch at least {@link #LEAD} after {@code after} */
    private static Instant nextInstant(Instant after, Duration period) {
        long earliest = after.plus(LEAD).toEpochMilli();
        long step = period.toMillis();
        return Instant.ofEpochMilli(Math.floorDiv(earliest + step - 1, step) * step);
    }

    private static long count(BenchDatabase database, String sql) throws SQLException {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    private static String describe(ReplicaProcesses.StartUp startUp) {
        return String.format(Locale.ROOT, "%.1f s until healthy (Spring Boot: started in %s)", startUp.wall().toMillis() / 1e3,
                startUp.application() == null ? "?" : String.format(Locale.ROOT, "%.1f s",
                        startUp.application().toMillis() / 1e3));
    }

    private static void sleepUntil(Instant moment) {
        Duration left = Duration.between(Instant.now(), moment);
        if (!left.isNegative()) {
            BenchDatabase.sleep(left);
        }
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
