package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.scheduler.boot.database.StatementChunks;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * What the ledger, the attempts and the job locks say about the schedule's own instants of jobs: the ledger's
 * read-only statements for the monitor, backfills, re-runs and lost-fire checks (the locks' are {@link JobLockTable}'s,
 * the faults' {@link FireFaults}'), for one job's range (the API, a backfill's plan) or for many jobs'
 * ranges at once (a check of the detector, two statements per 10,000 jobs).
 */
@Component
public class InstantRecords {

    /** Jobs' ranges per statement of {@link #slots}. */
    static final int RANGES_PER_STATEMENT = 10_000;

    // the schedule's own fires only: run_id '' (a manual run has its own key space)

    private static final String FIRES = """
            SELECT f.job_name, f.scheduled_at, f.fired_at, f.duration_ms, f.trigger_kind, f.attempt, f.node
            FROM unnest(?::varchar[], ?::timestamptz[], ?::timestamptz[]) AS r(job, since, until)
            JOIN onebeat_fire f ON f.job_name = r.job AND f.run_id = '' AND f.scheduled_at >= r.since
                 AND f.scheduled_at < r.until
            """;

    // the latest attempt of each instant that did not commit; a duplicate says nothing of the instant
    private static final String ATTEMPTS = """
            SELECT DISTINCT ON (a.job_name, a.scheduled_at) a.job_name, a.scheduled_at, a.outcome, a.reason,
                   a.error_class, a.error_message, a.retry_at, a.attempt, a.attempted_at
            FROM unnest(?::varchar[], ?::timestamptz[], ?::timestamptz[]) AS r(job, since, until)
            JOIN onebeat_fire_attempt a ON a.job_name = r.job AND a.run_id = '' AND a.scheduled_at >= r.since
                 AND a.scheduled_at < r.until AND a.outcome <> 'duplicate'
            ORDER BY a.job_name, a.scheduled_at, a.attempted_at DESC, a.id DESC
            """;

    /**
     * @return the database's time: instants are judged missed by it, as locks expire by it, whatever the replica's
     *     clock says
     */
    public Instant databaseNow() {
        return jdbc.sql("SELECT now()").query(Timestamp.class).single().toInstant();
    }

    /**
     * A committed fire of the schedule's instant.
     *
     * @param firedAt when its attempt began
     * @param committedAt when its transaction ended, as near as the ledger tells ({@code fired_at + duration})
     */
    public record Fire(Instant firedAt, Instant committedAt, String trigger, int attempt, String node) {
    }

    /**
     * The latest attempt of an instant that did not commit.
     *
     * @param outcome {@code failed} or {@code skipped}
     * @param reason a skip's reason, or null
     * @param retryAt when the next attempt of a failed one is armed for, or null if none is
     */
    public record Attempt(String outcome, String reason, String errorClass, String errorMessage, Instant retryAt,
                          int attempt, Instant attemptedAt) {
    }

    /** What is recorded of one instant: its committed fire, or else its latest other attempt; either may be null. */
    public record Slot(Fire fire, Attempt attempt) {

        public static final Slot EMPTY = new Slot(null, null);
    }

    /**
     * A range of one job's instants.
     *
     * @param from inclusive
     * @param to exclusive
     */
    public record Range(String job, Instant from, Instant to) {
    }

    /**
     * A run outside the schedule ("trigger now") committed in a range.
     *
     * @param run its request id
     */
    public record Run(Instant scheduledAt, String run, String trigger, Instant firedAt, Instant committedAt,
                      String node) {
    }

    /**
     * A period in which a replica's fires could not reach the database ({@code onebeat_fire_fault}, written by
     * {@link FireFaults}).
     *
     * @param stage what failed: {@code quartz} (acquiring or marking triggers), {@code members} (reading a schedule's
     *     jobs) or {@code fire} (a fire's lock or transaction)
     * @param error the last failure's error
     */
    public record Fault(String node, String stage, Instant since, Instant until, int failures, String error) {
    }

    private final JdbcTemplate jdbcTemplate;
    private final JdbcClient jdbc;
    private final JobLockTable locks;
    private final FireFaults faults;

    InstantRecords(JdbcTemplate jdbcTemplate, JdbcClient jdbc, JobLockTable locks, FireFaults faults) {
        this.jdbcTemplate = jdbcTemplate;
        this.jdbc = jdbc;
        this.locks = locks;
        this.faults = faults;
    }

    /** @return the recorded instants of one job in {@code [from, to)}; an instant with no record is absent */
    public Map<Instant, Slot> slots(String job, Instant from, Instant to) {
        return slots(List.of(new Range(job, from, to))).getOrDefault(job, Map.of());
    }

    /** @return per job, its recorded instants in its range; a job with none is absent */
    public Map<String, Map<Instant, Slot>> slots(List<Range> ranges) {
        Map<String, Map<Instant, Fire>> fires = new HashMap<>();
        Map<String, Map<Instant, Attempt>> attempts = new HashMap<>();
        if (ranges.isEmpty()) {
            return Map.of();
        }
        query(FIRES, ranges, (job, rs) -> fires.computeIfAbsent(job, key -> new HashMap<>()).put(instant(rs, 2),
                fire(rs)));
        query(ATTEMPTS, ranges, (job, rs) -> attempts.computeIfAbsent(job, key -> new HashMap<>())
                .put(instant(rs, 2), attempt(rs)));
        Map<String, Map<Instant, Slot>> slots = new HashMap<>();
        fires.forEach((job, byInstant) -> byInstant.forEach((at, fire) ->
                slots.computeIfAbsent(job, key -> new HashMap<>()).put(at, new Slot(fire, null))));
        attempts.forEach((job, byInstant) -> byInstant.forEach((at, attempt) ->
                slots.computeIfAbsent(job, key -> new HashMap<>()).merge(at, new Slot(null, attempt),
                        (committed, other) -> new Slot(committed.fire(), other.attempt()))));
        return slots;
    }

    /**
     * Where the ledger stands: the highest row ids of fires and of attempts committed so far.
     *
     * @param fire the highest {@code onebeat_fire.id}, 0 if none
     * @param attempt the highest {@code onebeat_fire_attempt.id}, 0 if none
     */
    public record LedgerMark(long fire, long attempt) {
    }

    /** @return the highest ids of the ledger's fires and attempts, read in one statement */
    public LedgerMark ledgerMark() {
        return jdbc.sql("""
                        SELECT (SELECT coalesce(max(id), 0) FROM onebeat_fire),
                               (SELECT coalesce(max(id), 0) FROM onebeat_fire_attempt)""")
                .query((rs, row) -> new LedgerMark(rs.getLong(1), rs.getLong(2))).single();
    }

    /**
     * @return the jobs with fires or attempts written after the mark (by row id), or begun since {@code since}: a
     *     batch's rows take their ids before it commits and its locks are not seen as running, so a row committed
     *     after the mark can have an id below it
     */
    public Set<String> writtenAfter(LedgerMark mark, Instant since) {
        return new HashSet<>(jdbc.sql("""
                        SELECT job_name FROM onebeat_fire WHERE id > ? OR fired_at >= ?
                        UNION SELECT job_name FROM onebeat_fire_attempt WHERE id > ? OR attempted_at >= ?""")
                .params(mark.fire(), Timestamp.from(since), mark.attempt(), Timestamp.from(since))
                .query(String.class).list());
    }

    /** @return the instants whose single fire holds one of the job's locks now (a batch's locks are not seen) */
    public Set<Instant> running(String job) {
        return runningAll().getOrDefault(job, Set.of());
    }

    /** @return per job, the instants whose single fire holds one of the job's locks now */
    public Map<String, Set<Instant>> runningAll() {
        return locks.running();
    }

    /**
     * @return the job's latest {@code limit} runs outside the schedule committed for instants in {@code [from, to)},
     *     oldest first
     */
    public List<Run> runs(String job, Instant from, Instant to, int limit) {
        // newest first through UNIQUE(job_name, scheduled_at, run_id), so a range from the year 1 reads limit rows
        List<Run> runs = new ArrayList<>(jdbc.sql("""
                        SELECT scheduled_at, run_id, trigger_kind, fired_at, duration_ms, node FROM onebeat_fire
                        WHERE job_name = ? AND run_id <> '' AND scheduled_at >= ? AND scheduled_at < ?
                        ORDER BY scheduled_at DESC, run_id DESC LIMIT ?""")
                .params(job, Timestamp.from(from), Timestamp.from(to), limit)
                .query((rs, row) -> {
                    Instant firedAt = rs.getTimestamp(4).toInstant();
                    return new Run(rs.getTimestamp(1).toInstant(), rs.getString(2), rs.getString(3), firedAt,
                            firedAt.plusMillis(rs.getLong(5)), rs.getString(6));
                })
                .list());
        Collections.reverse(runs);
        return runs;
    }

    /** @return the periods in which a replica's fires could not reach the database overlapping {@code [from, to]} */
    public List<Fault> faults(Instant from, Instant to) {
        return faults.recorded(from, to);
    }

    /**
     * The latest attempt of the schedule's instant that did not commit.
     *
     * @param retryAt when its next attempt is armed for, or null if none is
     */
    public record LatestAttempt(int attempt, Instant retryAt) {
    }

    /** @return the attempt that committed the schedule's instant, if one did */
    public Optional<Integer> committedAttempt(String job, Instant instant) {
        return jdbc.sql("""
                        SELECT attempt FROM onebeat_fire WHERE job_name = ? AND scheduled_at = ? AND run_id = ''
                        """)
                .params(job, Timestamp.from(instant)).query(Integer.class).optional();
    }

    /** @return the latest recorded attempt of the schedule's instant that did not commit, if there is one */
    public Optional<LatestAttempt> latestAttempt(String job, Instant instant) {
        return jdbc.sql("""
                        SELECT attempt, retry_at FROM onebeat_fire_attempt
                        WHERE job_name = ? AND scheduled_at = ? AND run_id = '' ORDER BY attempt DESC, id DESC LIMIT 1
                        """)
                .params(job, Timestamp.from(instant))
                .query((rs, row) -> new LatestAttempt(rs.getInt(1), instant(rs, 2))).optional();
    }

    /**
     * @return whether the schedule's instant has committed, or may have: it is at or before the job's retention
     *     horizon, where its ledger row may have been purged
     */
    public boolean committedOrBeyondHorizon(String job, Instant instant) {
        return jdbc.sql("""
                        SELECT EXISTS (SELECT 1 FROM onebeat_fire WHERE job_name = ? AND scheduled_at = ? AND run_id = '')
                            OR EXISTS (SELECT 1 FROM onebeat_fire_horizon WHERE job_name = ? AND purged_through >= ?)""")
                .params(job, Timestamp.from(instant), job, Timestamp.from(instant)).query(Boolean.class).single();
    }

    /** @return the attempt a new fire of the schedule's instant makes: one more than any recorded */
    public int nextAttempt(String job, Instant instant) {
        return jdbc.sql("""
                        SELECT coalesce(max(attempt), 0) + 1 FROM onebeat_fire_attempt
                        WHERE job_name = ? AND scheduled_at = ? AND run_id = ''""")
                .params(job, Timestamp.from(instant)).query(Integer.class).single();
    }

    /** Takes one row of a statement over many jobs' ranges. */
    private interface RowReader {
        void read(String job, ResultSet rs) throws SQLException;
    }

    /**
     * Runs {@code sql} over the ranges, {@value #RANGES_PER_STATEMENT} a statement: a check of a million jobs in one
     * statement ran past the driver's socket timeout (5 s).
     */
    private void query(String sql, List<Range> ranges, RowReader row) {
        for (List<Range> chunk : StatementChunks.of(ranges, RANGES_PER_STATEMENT)) {
            jdbcTemplate.execute((Connection con) -> {
                try (PreparedStatement ps = con.prepareStatement(sql)) {
                    ps.setArray(1, con.createArrayOf("varchar", chunk.stream().map(Range::job).toArray()));
                    ps.setArray(2, timestamps(con, chunk.stream().map(Range::from).toList()));
                    ps.setArray(3, timestamps(con, chunk.stream().map(Range::to).toList()));
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            row.read(rs.getString(1), rs);
                        }
                    }
                }
                return null;
            });
        }
    }

    private static Array timestamps(Connection con, List<Instant> instants) throws SQLException {
        return con.createArrayOf("timestamptz", instants.stream().map(at -> at == null ? null : Timestamp.from(at))
                .toArray());
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        Timestamp at = rs.getTimestamp(column);
        return at == null ? null : at.toInstant();
    }

    private static Fire fire(ResultSet rs) throws SQLException {
        Instant firedAt = rs.getTimestamp(3).toInstant();
        return new Fire(firedAt, firedAt.plusMillis(rs.getLong(4)), rs.getString(5), rs.getInt(6), rs.getString(7));
    }

    private static Attempt attempt(ResultSet rs) throws SQLException {
        return new Attempt(rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6), instant(rs, 7),
                rs.getInt(8), rs.getTimestamp(9).toInstant());
    }
}
