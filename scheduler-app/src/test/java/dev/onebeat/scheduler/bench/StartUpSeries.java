package dev.onebeat.scheduler.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The cold starts of {@link StartUpBenchmark}'s variants, each start a new JVM, each variant on a fresh
 * database of its own (dropped afterwards): on the empty database (Liquibase creates the tables);
 * {@code rounds} restarts with no job; the first start after the runtime jobs were inserted (storing
 * each in the job catalog and its schedule's trigger); {@code rounds} restarts with them stored.
 * The variants take turns at each step (a, b, a, b, …), so that a shared machine's load falls on
 * them alike; one replica runs at a time and is stopped with SIGTERM before the next is launched.
 * Every start is printed as it ends.
 */
final class StartUpSeries {

    /** The starts of one variant, in the order they ran. */
    record Figures(ReplicaProcesses.StartUp empty, List<ReplicaProcesses.StartUp> noJob,
                   ReplicaProcesses.StartUp first, List<ReplicaProcesses.StartUp> withJobs) {

        /** @return the restarts' median wall time with the jobs less that without: the jobs' own share */
        Duration jobsShare() {
            return Summary.of(withJobs).wall().median().minus(Summary.of(noJob).wall().median());
        }
    }

    /** Median and maximum of some durations, by the nearest-rank method (of 3, the 2nd slowest). */
    record Spread(Duration median, Duration max) {

        static Spread of(List<Duration> durations) {
            List<Duration> sorted = new ArrayList<>(durations);
            sorted.sort(null);
            return new Spread(sorted.get((sorted.size() + 1) / 2 - 1), sorted.get(sorted.size() - 1));
        }
    }

    /**
     * The wall times and Spring Boot's two figures of some starts (each of those null if a log lacked it).
     */
    record Summary(int starts, Spread wall, Spread application, Spread process) {

        static Summary of(List<ReplicaProcesses.StartUp> starts) {
            return new Summary(starts.size(), Spread.of(starts.stream().map(ReplicaProcesses.StartUp::wall).toList()),
                    spread(starts.stream().map(ReplicaProcesses.StartUp::application).toList()),
                    spread(starts.stream().map(ReplicaProcesses.StartUp::process).toList()));
        }

        private static Spread spread(List<Duration> durations) {
            return durations.contains(null) ? null : Spread.of(durations);
        }

        /**
         * {@code 7.1 s (Boot in 6.0 s, process 6.4 s)}; with several starts the wall time's
         * {@code p50 / max} and Spring Boot's medians.
         */
        String describe() {
            String wallTime = starts == 1 ? seconds(wall.median())
                    : seconds(wall.median()) + " / " + seconds(wall.max());
            return String.format(Locale.ROOT, "%s s (Boot in %s, process %s)", wallTime, median(application),
                    median(process));
        }

        private static String median(Spread spread) {
            return spread == null ? "?" : seconds(spread.median()) + " s";
        }
    }

    /**
     * One way of launching a replica.
     *
     * @param label how the variant is printed, such as {@code a}
     * @param check a problem found in a replica's log (such as a refused AOT cache), printed after its
     *        start; {@code null} when the log is fine
     */
    record Variant(String label, ReplicaCommand launcher, Path logDir, Function<Path, String> check) {
    }

    private final String adminUrl;
    private final int rounds;
    private final int jobs;
    private final AotCache.JobLoader loader;

    /**
     * @param jobs runtime jobs {@code loader} inserts, for the printed lines
     * @param loader inserts the runtime jobs once the tables exist
     */
    StartUpSeries(String adminUrl, int rounds, int jobs, AotCache.JobLoader loader) {
        this.adminUrl = adminUrl;
        this.rounds = rounds;
        this.jobs = jobs;
        this.loader = loader;
    }

    /** @return the figures of each variant, in the order given */
    List<Figures> measure(List<Variant> variants) throws Exception {
        List<BenchDatabase> databases = new ArrayList<>();
        List<ReplicaProcesses> replicas = new ArrayList<>();
        try {
            for (Variant variant : variants) {
                BenchDatabase database = BenchDatabase.create(adminUrl);
                databases.add(database);
                replicas.add(new ReplicaProcesses(database, variant.logDir(), variant.launcher()));
                System.out.printf(Locale.ROOT, "  %s: database %s, logs in %s%n", variant.label(), database.name(),
                        variant.logDir().toAbsolutePath());
            }
            List<ReplicaProcesses.StartUp> empty = inTurn(variants, replicas,
                    "start on an empty database (Liquibase creates the tables)");
            List<List<ReplicaProcesses.StartUp>> noJob = rounds(variants, replicas, "restart with no job");
            for (int i = 0; i < variants.size(); i++) {
                long loading = System.nanoTime();
                loader.load(databases.get(i));
                System.out.printf(Locale.ROOT, "  %s: %,d runtime jobs inserted and analyzed in %.1f s%n",
                        variants.get(i).label(), jobs, (System.nanoTime() - loading) / 1e9);
            }
            List<ReplicaProcesses.StartUp> first = inTurn(variants, replicas,
                    String.format(Locale.ROOT, "first start storing %,d new jobs", jobs));
            for (int i = 0; i < variants.size(); i++) {
                System.out.printf(Locale.ROOT, "  %s: job catalog now holds %,d jobs%n", variants.get(i).label(),
                        count(databases.get(i), "onebeat_job"));
                analyze(databases.get(i));
            }
            List<List<ReplicaProcesses.StartUp>> withJobs = rounds(variants, replicas,
                    String.format(Locale.ROOT, "restart with the %,d jobs", jobs));
            List<Figures> figures = new ArrayList<>();
            for (int i = 0; i < variants.size(); i++) {
                figures.add(new Figures(empty.get(i), noJob.get(i), first.get(i), withJobs.get(i)));
            }
            return figures;
        } finally {
            replicas.forEach(ReplicaProcesses::close);
            databases.forEach(BenchDatabase::close);
        }
    }

    /** @return for each variant, its {@code rounds} starts */
    private List<List<ReplicaProcesses.StartUp>> rounds(List<Variant> variants, List<ReplicaProcesses> replicas,
                                                        String what) {
        List<List<ReplicaProcesses.StartUp>> starts = new ArrayList<>();
        variants.forEach(variant -> starts.add(new ArrayList<>()));
        for (int round = 1; round <= rounds; round++) {
            List<ReplicaProcesses.StartUp> turn = inTurn(variants, replicas, what + ", round " + round);
            for (int i = 0; i < variants.size(); i++) {
                starts.get(i).add(turn.get(i));
            }
        }
        return starts;
    }

    /** @return one start of each variant, one after the other */
    private static List<ReplicaProcesses.StartUp> inTurn(List<Variant> variants, List<ReplicaProcesses> replicas,
                                                         String what) {
        List<ReplicaProcesses.StartUp> starts = new ArrayList<>();
        for (int i = 0; i < variants.size(); i++) {
            starts.add(start(variants.get(i), replicas.get(i), what));
        }
        return starts;
    }

    private static ReplicaProcesses.StartUp start(Variant variant, ReplicaProcesses replicas, String what) {
        ReplicaProcesses.StartUp startUp = replicas.start("replica");
        replicas.stop("replica");
        System.out.printf(Locale.ROOT, "  %s: %s: %s%n", variant.label(), what, Summary.of(List.of(startUp)).describe());
        List<Path> logs = replicas.logs();
        String problem = variant.check().apply(logs.get(logs.size() - 1));
        if (problem != null) {
            System.out.println("    " + problem);
        }
        return startUp;
    }

    /** ANALYZE, as autovacuum would soon after bulk inserts (the benchmark server may have it off). */
    static void analyze(BenchDatabase database) throws Exception {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            statement.execute("ANALYZE");
        }
    }

    private static long count(BenchDatabase database, String table) throws Exception {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT count(*) FROM " + table)) {
            row.next();
            return row.getLong(1);
        }
    }

    static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f", duration.toMillis() / 1e3);
    }
}
