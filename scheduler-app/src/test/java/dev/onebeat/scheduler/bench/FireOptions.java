package dev.onebeat.scheduler.bench;

import java.time.Duration;
import java.util.Map;

/**
 * What {@link FireBenchmark} runs. Arguments are {@code --name=value}; the server comes from
 * {@value BenchOptions#URL_VARIABLE}, the replicas' JVM options from {@value #REPLICA_OPTS_VARIABLE}.
 *
 * @param adminUrl JDBC URL of a database on the server the benchmark databases are created on
 * @param mode {@code burst}, {@code spread} or {@code all} (both, burst first)
 * @param jobs runtime jobs of the burst, all due on the same instants
 * @param replicas scheduler replicas, each a separate JVM
 * @param instants bursts measured, one per period
 * @param period the burst jobs' interval ({@code every})
 * @param spreadJobs runtime jobs of the spread mode
 * @param spreadSchedules distinct schedules the spread jobs are divided among
 * @param spreadWindow how long the spread mode is measured
 * @param rawJobs one-shot triggers raw Quartz fires per batch size; 0 leaves raw Quartz out
 * @param rawThreads raw Quartz's worker threads
 * @param burstSpread the burst jobs' {@code spread}: zero fires them all at the instant, a window lays them over it
 *     and the burst's report shows the fires per second
 */
record FireOptions(String adminUrl, String mode, int jobs, int replicas, int instants, Duration period,
                   int spreadJobs, int spreadSchedules, Duration spreadWindow, int rawJobs, int rawThreads,
                   Duration burstSpread) {

    static final String REPLICA_OPTS_VARIABLE = "ONEBEAT_BENCH_REPLICA_OPTS";
    /** The spread schedules fall on the seconds of a 10 s period: 10 offsets times this many zones. */
    static final int SPREAD_PERIOD_SECONDS = 10;

    static final String USAGE = """
            usage: fire.sh [--mode=all|burst|spread] [--jobs=10000] [--replicas=3] [--instants=2] [--period=60]
                           [--spread-jobs=1000] [--spread-schedules=100] [--spread-window=60]
                           [--raw-jobs=<jobs>] [--raw-threads=20] [--burst-spread=0] [--help]
            --period, --spread-window and --burst-spread are seconds; --raw-jobs=0 leaves raw Quartz out;
            --burst-spread=60 --period=120 lays the burst's jobs over a minute (their spread) and shows its histogram
            environment: %s (default %s), %s (replica JVM options, default -Xmx1g),
            %s (cores each replica may use, such as 0.5: a cgroup CPU quota, as root; default uncapped)
            """.formatted(BenchOptions.URL_VARIABLE, BenchOptions.DEFAULT_ADMIN_URL, REPLICA_OPTS_VARIABLE,
            CpuCap.VARIABLE);

    FireOptions {
        if (!adminUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException(BenchOptions.URL_VARIABLE + " must be a jdbc:postgresql: URL");
        }
        if (!mode.equals("all") && !mode.equals("burst") && !mode.equals("spread")) {
            throw new IllegalArgumentException("mode must be all, burst or spread, was " + mode);
        }
        BenchOptions.requireAtLeast("jobs", jobs, 1);
        BenchOptions.requireAtLeast("replicas", replicas, 1);
        BenchOptions.requireAtLeast("instants", instants, 1);
        // an idle window of 12 s is measured before each instant, and a burst may take that long
        BenchOptions.requireAtLeast("period", (int) period.toSeconds(), 30);
        BenchOptions.requireAtLeast("spread-schedules", spreadSchedules, SPREAD_PERIOD_SECONDS);
        BenchOptions.requireAtLeast("spread-jobs", spreadJobs, spreadSchedules);
        BenchOptions.requireAtLeast("spread-window", (int) spreadWindow.toSeconds(), 20);
        BenchOptions.requireAtLeast("raw-jobs", rawJobs, 0);
        BenchOptions.requireAtLeast("raw-threads", rawThreads, 1);
        BenchOptions.requireAtLeast("burst-spread", (int) burstSpread.toSeconds(), 0);
        if (burstSpread.plus(Duration.ofSeconds(30)).compareTo(period) > 0) {
            throw new IllegalArgumentException("burst-spread must leave at least 30 s of the period, was "
                    + burstSpread.toSeconds() + " of " + period.toSeconds());
        }
        if (spreadSchedules % SPREAD_PERIOD_SECONDS != 0) {
            throw new IllegalArgumentException("spread-schedules must be a multiple of " + SPREAD_PERIOD_SECONDS
                    + " (offsets of the " + SPREAD_PERIOD_SECONDS + " s period times zones), was " + spreadSchedules);
        }
    }

    boolean burst() {
        return !mode.equals("spread");
    }

    boolean spread() {
        return !mode.equals("burst");
    }

    /** @throws IllegalArgumentException naming the argument that is unknown or malformed */
    static FireOptions parse(String[] args, Map<String, String> environment) {
        String adminUrl = environment.getOrDefault(BenchOptions.URL_VARIABLE, BenchOptions.DEFAULT_ADMIN_URL).strip();
        String mode = "all";
        int jobs = 10_000;
        int replicas = 3;
        int instants = 2;
        int period = 60;
        int spreadJobs = 1000;
        int spreadSchedules = 100;
        int spreadWindow = 60;
        Integer rawJobs = null;
        int rawThreads = 20;
        int burstSpread = 0;
        for (String arg : args) {
            String name = BenchOptions.argName(arg);
            String value = BenchOptions.argValue(arg);
            switch (name) {
                case "--mode" -> mode = value;
                case "--jobs" -> jobs = BenchOptions.number(name, value);
                case "--replicas" -> replicas = BenchOptions.number(name, value);
                case "--instants" -> instants = BenchOptions.number(name, value);
                case "--period" -> period = BenchOptions.number(name, value);
                case "--spread-jobs" -> spreadJobs = BenchOptions.number(name, value);
                case "--spread-schedules" -> spreadSchedules = BenchOptions.number(name, value);
                case "--spread-window" -> spreadWindow = BenchOptions.number(name, value);
                case "--raw-jobs" -> rawJobs = BenchOptions.number(name, value);
                case "--raw-threads" -> rawThreads = BenchOptions.number(name, value);
                case "--burst-spread" -> burstSpread = BenchOptions.number(name, value);
                default -> throw new IllegalArgumentException("unknown argument " + arg);
            }
        }
        return new FireOptions(adminUrl, mode, jobs, replicas, instants, Duration.ofSeconds(period), spreadJobs,
                spreadSchedules, Duration.ofSeconds(spreadWindow), rawJobs == null ? jobs : rawJobs, rawThreads,
                Duration.ofSeconds(burstSpread));
    }
}
