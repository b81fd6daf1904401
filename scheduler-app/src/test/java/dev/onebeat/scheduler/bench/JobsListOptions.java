package dev.onebeat.scheduler.bench;

import java.util.Map;

/**
 * What {@link JobsListBenchmark} runs. Arguments are {@code --name=value}; the server comes from
 * {@value BenchOptions#URL_VARIABLE}.
 *
 * @param adminUrl JDBC URL of a database on the server the benchmark database is created on
 * @param jobs runtime jobs loaded before the replica starts
 * @param warmups unmeasured rounds; a round is one request of each kind
 * @param rounds measured rounds
 * @param breakdownRounds measured rounds of the in-process stages (as many again warm them up)
 * @param analyze whether to {@code ANALYZE} the tables once the jobs are stored, as autovacuum
 *        would soon after; without it, a server with autovacuum off plans with the statistics of
 *        empty Quartz tables
 * @param lostJobs runtime jobs added last whose recent instants a database server change lost, for the look that hands
 *        them back; 0 for none
 */
record JobsListOptions(String adminUrl, int jobs, int warmups, int rounds, int breakdownRounds, boolean analyze,
                       int lostJobs) {

    static final String USAGE = """
            usage: jobs.sh [--jobs=10000] [--warmups=100] [--rounds=500] [--breakdown-rounds=100]
                           [--no-analyze] [--lost-jobs=0] [--help]
            environment: %s (default %s)
            """.formatted(BenchOptions.URL_VARIABLE, BenchOptions.DEFAULT_ADMIN_URL);

    JobsListOptions {
        // page 150 of 50 is among the timed requests
        BenchOptions.requireAtLeast("jobs", jobs, 151 * 50);
        BenchOptions.requireAtLeast("warmups", warmups, 0);
        BenchOptions.requireAtLeast("rounds", rounds, 1);
        BenchOptions.requireAtLeast("breakdown-rounds", breakdownRounds, 0);
        BenchOptions.requireAtLeast("lost-jobs", lostJobs, 0);
        if (!adminUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException(BenchOptions.URL_VARIABLE + " must be a jdbc:postgresql: URL");
        }
    }

    /** @throws IllegalArgumentException naming the argument that is unknown or malformed */
    static JobsListOptions parse(String[] args, Map<String, String> environment) {
        String adminUrl = environment.getOrDefault(BenchOptions.URL_VARIABLE, BenchOptions.DEFAULT_ADMIN_URL).strip();
        int jobs = 10_000;
        int warmups = 100;
        int rounds = 500;
        int breakdownRounds = 100;
        boolean analyze = true;
        int lostJobs = 0;
        for (String arg : args) {
            String name = BenchOptions.argName(arg);
            String value = BenchOptions.argValue(arg);
            switch (name) {
                case "--jobs" -> jobs = BenchOptions.number(name, value);
                case "--warmups" -> warmups = BenchOptions.number(name, value);
                case "--rounds" -> rounds = BenchOptions.number(name, value);
                case "--breakdown-rounds" -> breakdownRounds = BenchOptions.number(name, value);
                case "--no-analyze" -> analyze = false;
                case "--lost-jobs" -> lostJobs = BenchOptions.number(name, value);
                default -> throw new IllegalArgumentException("unknown argument " + arg);
            }
        }
        return new JobsListOptions(adminUrl, jobs, warmups, rounds, breakdownRounds, analyze, lostJobs);
    }
}
