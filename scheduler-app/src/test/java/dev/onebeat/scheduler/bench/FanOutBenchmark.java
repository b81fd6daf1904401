package dev.onebeat.scheduler.bench;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.bench.RawMultiRowInsert.Commit;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.json.JsonMapper;

/**
 * Measures one fire fanning out to many entities against the raw multi-row insert of the same rows,
 * on a fresh database, and prints the figures of {@code PERFORMANCE.md}: tasks/s, rows/s, their
 * ratio, and commits per task. Run it with {@code bench/fanout.sh}; see {@link BenchOptions#USAGE}.
 *
 * <p>For each batch size, on an emptied table after a checkpoint: fires alone, with the commits
 * counted over them (only onebeat's sessions connected, so that the counter sees onebeat alone);
 * then fires and raw rounds in turn, which give the ratio: on a shared machine the load changes
 * from one minute to the next, and rounds in turn meet the same load. Then the raw baseline alone
 * (its commits counted too), with every row a conflict, and, optionally, the stages of a fire
 * timed apart ({@link FireBreakdown}).
 */
public final class FanOutBenchmark {

    private static final String RAW_JOB = "fan-out-raw";
    private static final Instant FIRST_INSTANT = Instant.parse("2030-01-01T00:00:00Z");

    private final BenchOptions options;
    private final BenchDatabase database;
    private final CommitCounter commits;
    private long instants;

    private FanOutBenchmark(BenchOptions options, BenchDatabase database) {
        this.options = options;
        this.database = database;
        this.commits = new CommitCounter(database);
    }

    public static void main(String[] args) throws Exception {
        BenchOptions options = BenchOptions.parseOrExit(args, BenchOptions.USAGE, BenchOptions::parse);
        if (options == null) {
            return;
        }
        try (BenchDatabase database = BenchDatabase.create(options.adminUrl())) {
            new FanOutBenchmark(options, database).run();
        }
    }

    private void run() throws Exception {
        printHeader();
        List<OnebeatFigures> onebeat = new ArrayList<>();
        for (int batchSize : options.batchSizes()) {
            onebeat.add(onebeatPhase(batchSize));
        }
        PhaseResult raw;
        Rates conflicts;
        try (RawSession session = new RawSession(database, options.rowsPerStatement())) {
            raw = rawPhase(session);
            conflicts = rawConflictPhase(session);
        }
        if (options.breakdown()) {
            try (OnebeatInstance instance = OnebeatInstance.boot(database, options.batchSizes().get(0))) {
                emptyTables();
                new FireBreakdown(options, database, instance, this::nextInstant).run(onebeat.get(0).inTurn());
            }
        }
        printSummary(onebeat, raw, conflicts);
    }

    /**
     * Counts commits over onebeat's fires alone, then times fires and raw rounds in turn; the raw
     * connection opens only after the count, which must see onebeat's sessions alone.
     */
    private OnebeatFigures onebeatPhase(int batchSize) throws SQLException {
        try (OnebeatInstance instance = OnebeatInstance.boot(database, batchSize)) {
            ReminderTasks.requireSameRowsAsOnebeat(instance.bean(JsonMapper.class));
            emptyTables();
            PeriodicJob job = ReminderTasks.job("fan-out-b" + batchSize, options.entities());
            Rounds.Round fire = index -> instance.fire(job, nextInstant());
            PhaseResult alone = phase("onebeat fire, batch-size " + batchSize, fire, instance.pooledSessions());
            try (RawSession session = new RawSession(database, options.rowsPerStatement())) {
                Comparison inTurn = Comparison.alternate(options.warmups(), options.rounds(), fire, rawRound(session));
                printInTurn(inTurn);
                return new OnebeatFigures(batchSize, alone, inTurn);
            }
        }
    }

    private static void printInTurn(Comparison inTurn) {
        System.out.printf(Locale.ROOT, "  in turn with the raw baseline: onebeat median %s tasks/s (best %s),"
                        + " raw median %s rows/s (best %s), ratio %.0f%% (median of per-round ratios %.0f%%)%n"
                        + "    onebeat [%s]%n    raw     [%s]%n", Rates.grouped(inTurn.onebeat().median()),
                Rates.grouped(inTurn.onebeat().best()), Rates.grouped(inTurn.raw().median()),
                Rates.grouped(inTurn.raw().best()), 100 * inTurn.ratio(), 100 * inTurn.medianPairRatio(),
                inTurn.onebeat().rounds(), inTurn.raw().rounds());
    }

    private Rounds.Round rawRound(RawSession session) {
        return index -> requireRows(options.entities(),
                session.insert().insert(RAW_JOB, nextInstant(), options.entities(), Commit.PER_STATEMENT));
    }

    private PhaseResult rawPhase(RawSession session) throws SQLException {
        emptyTables();
        return phase("raw multi-row insert, " + options.rowsPerStatement() + " rows/statement and /commit",
                rawRound(session), session.sessions());
    }

    /** The same rows again: every row a conflict, nothing inserted. Commits are not counted. */
    private Rates rawConflictPhase(RawSession session) throws SQLException {
        Instant written = nextInstant();
        session.insert().insert(RAW_JOB, written, options.entities(), Commit.PER_STATEMENT);
        return Rounds.time(options.warmups(), options.rounds(), index -> {
            requireRows(0, session.insert().insert(RAW_JOB, written, options.entities(), Commit.PER_STATEMENT));
            return options.entities();
        });
    }

    /**
     * Warms up, then counts commits over a window of the measured rounds plus one untimed round
     * first. The window starts and ends once the sessions have reported (see
     * {@link CommitCounter}), which leaves new connections behind, and the untimed round keeps
     * their first use (server-side statement preparation, cold caches) out of the timings. An
     * idle window measured before shows what reconnecting adds to the count.
     */
    private PhaseResult phase(String label, Rounds.Round round, CommitCounter.Sessions sessions) {
        Rounds.warmUp(options.warmups(), 0, round);
        long idleStart = commits.settled(sessions);
        long start = commits.settled(sessions);
        Rounds.warmUp(1, options.warmups(), round);
        Rates rates = Rounds.measure(options.rounds(), options.warmups() + 1, round);
        long end = commits.settled(sessions);
        PhaseResult result = new PhaseResult(label, rates, (long) (options.rounds() + 1) * options.entities(),
                end - start, start - idleStart);
        System.out.printf(Locale.ROOT, "%s: median %s rows/s, best %s; rounds [%s]%n  commits %d over %d rounds"
                        + " (%.5f per row), %d of them reconnecting (as counted with nothing running);"
                        + " load average %.2f%n", label, Rates.grouped(rates.median()), Rates.grouped(rates.best()),
                rates.rounds(), result.commits(), options.rounds() + 1, result.commitsPerRow(),
                result.idleCommits(), loadAverage());
        return result;
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /** Empties the outbox and ledger and writes dirty pages out, so that every phase starts alike. */
    private void emptyTables() throws SQLException {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            statement.execute("TRUNCATE onebeat_task, onebeat_fire");
            statement.execute("CHECKPOINT");
        }
    }

    private Instant nextInstant() {
        return FIRST_INSTANT.plus(instants++, ChronoUnit.SECONDS);
    }

    /** @throws IllegalStateException if a round did not write what it should, which voids its time */
    private static int requireRows(int expected, int actual) {
        if (actual != expected) {
            throw new IllegalStateException("expected " + expected + " rows inserted, got " + actual);
        }
        return actual;
    }

    private void printHeader() {
        System.out.printf(Locale.ROOT, "fan-out benchmark %s%n  server: %s%n  settings: %s%n  client: %d cores,"
                        + " Java %s, load average %.2f at start%n  database %s; %,d entities per fire; %d warm-up"
                        + " + %d measured rounds per phase%n", Instant.now().truncatedTo(ChronoUnit.SECONDS),
                database.serverVersion(), database.settings(), Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"), loadAverage(),
                database.name(), options.entities(), options.warmups(), options.rounds());
    }

    private void printSummary(List<OnebeatFigures> onebeat, PhaseResult raw, Rates conflicts) {
        System.out.printf(Locale.ROOT, "raw multi-row insert alone: median %s rows/s, best %s; every row a conflict:"
                        + " median %s rows/s, best %s%n", Rates.grouped(raw.rates().median()),
                Rates.grouped(raw.rates().best()), Rates.grouped(conflicts.median()), Rates.grouped(conflicts.best()));
        for (OnebeatFigures figures : onebeat) {
            Comparison inTurn = figures.inTurn();
            System.out.printf(Locale.ROOT, "fan-out %,d: onebeat %s tasks/s (median), raw multi-row insert %s rows/s"
                            + " (median), ratio %.0f%% (target >= 80%%); commits per task %.5f (target <= 0.01)"
                            + " [batch-size %d; rounds in turn; median of per-round ratios %.0f%%; %.5f commits per"
                            + " task net of the counter's reconnections]%n",
                    options.entities(), Rates.grouped(inTurn.onebeat().median()), Rates.grouped(inTurn.raw().median()),
                    100 * inTurn.ratio(), figures.alone().commitsPerRow(), figures.batchSize(),
                    100 * inTurn.medianPairRatio(), figures.alone().netCommitsPerRow());
        }
    }

    /**
     * @param alone onebeat's fires alone, with the commits counted over them
     * @param inTurn onebeat's fires and raw rounds timed in turn
     */
    private record OnebeatFigures(int batchSize, PhaseResult alone, Comparison inTurn) {
    }
}
