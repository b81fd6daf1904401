package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.scheduler.boot.database.BatchDelete;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The retention horizon of each job, {@code onebeat_fire_horizon}: the newest instant whose ledger row the retention
 * job has deleted. At or before it the ledger cannot prove that an instant never committed, so nothing fires it
 * again: the ledger's claim takes such an instant as fired ({@link FireLedger#claim}), and backfills and re-runs
 * refuse it. A horizon only moves forward and is never purged, so "at most once" holds for the life of the
 * database, not for the retention window.
 *
 * <p>A retention pass commits the moved horizon before it deletes the rows below it ({@link #advance}); a claim reads
 * the horizon after its insert. So a claim that found its instant's row gone reads a horizon covering it, and no lock
 * is shared between the fire path and the pass.
 */
@Component
public class FireHorizon {

    private final JdbcClient jdbc;

    FireHorizon(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** @return the job's horizon: instants at or before it are beyond retention; empty if none was purged */
    public Optional<Instant> of(String job) {
        return jdbc.sql("""
                        SELECT purged_through FROM onebeat_fire_horizon
                        WHERE job_name = ? AND purged_through > '-infinity'""").param(job)
                .query(Timestamp.class).optional().map(Timestamp::toInstant);
    }

    /** @return whether {@code instant} is at or before the job's horizon */
    public static boolean beyond(Optional<Instant> horizon, Instant instant) {
        return horizon.isPresent() && !instant.isAfter(horizon.get());
    }

    /**
     * Moves each job's horizon to the newest of its ledger rows before its bound, if that is later, on a connection
     * that commits at once: before the pass deletes those rows. A claim that then finds a row gone (or waits for its
     * delete) reads the moved horizon after its insert and gives the claim back ({@link FireLedger#claim}). A pass that
     * does not finish leaves the horizon ahead of its deletes, which refuses no more than the kept rows already do.
     *
     * @param bounds per job, the instant before which the pass deletes its ledger rows
     */
    public static void advance(Connection autoCommit, Map<String, Timestamp> bounds) throws SQLException {
        // greatest(): a horizon never moves back, whatever order passes commit in
        try (PreparedStatement upsert = autoCommit.prepareStatement("""
                INSERT INTO onebeat_fire_horizon (job_name, purged_through, updated_at)
                SELECT u.job, n.newest, now() FROM unnest(?::varchar[], ?::timestamptz[]) AS u(job, bound)
                CROSS JOIN LATERAL (SELECT max(f.scheduled_at) AS newest FROM onebeat_fire f
                                    WHERE f.job_name = u.job AND f.scheduled_at < u.bound) n
                WHERE n.newest IS NOT NULL
                ON CONFLICT (job_name) DO UPDATE
                    SET purged_through = greatest(onebeat_fire_horizon.purged_through, excluded.purged_through),
                        updated_at = now()""")) {
            upsert.setArray(1, autoCommit.createArrayOf("varchar", bounds.keySet().toArray()));
            upsert.setArray(2, autoCommit.createArrayOf("timestamptz", bounds.values().toArray()));
            upsert.executeUpdate();
        }
    }

    /**
     * One slice of the ledger's jobs, in name order, with the bounds of those that have rows to delete.
     *
     * @param bounds per job of the slice with fires to delete, the instant before which they go
     * @param last the slice's last job, where the next slice starts after; null when the ledger has no more jobs
     *     (up to {@code until})
     */
    public record Bounds(Map<String, Timestamp> bounds, String last) {
    }

    /**
     * @param horizon the retention horizon: rows of instants before it may go
     * @param keepLastFires how many of each job's newest fires are kept whatever their age
     * @param after the job after which the slice starts, in name order; empty for the first
     * @param until the last job a slice may hold, or null: the ledger's last. Compared in the database, in its
     *     collation, as the walk's order is (Java's order of strings is not the database's)
     * @param jobs the most jobs the slice reads: a statement over a million jobs ran past the pool's socket timeout
     * @return the slice: per job with fires to delete, the instant before which they go (the horizon, or the instant
     *     of the job's {@code keepLastFires}-th newest fire if that is earlier)
     */
    public static Bounds purgeBounds(Connection connection, Timestamp horizon, int keepLastFires, String after,
                                     String until, int jobs) throws SQLException {
        // the distinct jobs of the ledger after the last slice's, one index probe each (PostgreSQL has no loose index
        // scan of its own), which lands on the job's oldest instant; then, only for a job whose oldest instant is
        // before the horizon, its cut-off by a short backward scan of the same index. A job with nothing that old has
        // nothing to delete whatever it keeps: its backward scan (keep-last-fires entries) is skipped, about 5 s of a
        // 9-11 s fire that deleted nothing in the ledger over a million jobs (BENCHMARKS.md)
        Map<String, Timestamp> bounds = new LinkedHashMap<>();
        String last = null;
        int read = 0;
        // two texts, with and without the upper end: "? IS NULL OR job_name <= ?" made every slice of a walk with
        // none slower (11 s instead of 7 s a fire over a million jobs)
        String upTo = until == null ? "" : " AND job_name <= ?";
        try (PreparedStatement select = connection.prepareStatement("""
                WITH RECURSIVE jobs(job_name, oldest, n) AS (
                    (SELECT job_name, scheduled_at, 1 FROM onebeat_fire WHERE job_name > ?%s
                     ORDER BY job_name, scheduled_at LIMIT 1)
                    UNION ALL
                    SELECT next.job_name, next.scheduled_at, jobs.n + 1
                    FROM jobs CROSS JOIN LATERAL (SELECT f.job_name, f.scheduled_at FROM onebeat_fire f
                                                  WHERE f.job_name > jobs.job_name%s
                                                  ORDER BY f.job_name, f.scheduled_at LIMIT 1) next
                    WHERE jobs.n < ?)
                SELECT j.job_name, b.bound FROM jobs j
                LEFT JOIN LATERAL (
                    SELECT least(?::timestamptz, k.scheduled_at) AS bound
                    FROM (SELECT scheduled_at FROM onebeat_fire f WHERE f.job_name = j.job_name
                          ORDER BY f.scheduled_at DESC, f.run_id DESC OFFSET ? LIMIT 1) k
                    WHERE j.oldest < ?::timestamptz
                      AND EXISTS (SELECT 1 FROM onebeat_fire o WHERE o.job_name = j.job_name
                                  AND o.scheduled_at < least(?::timestamptz, k.scheduled_at))) b ON true
                ORDER BY j.n""".formatted(upTo, upTo.replace("job_name", "f.job_name")))) {
            int parameter = 1;
            select.setString(parameter++, after);
            if (until != null) {
                select.setString(parameter++, until);
                select.setString(parameter++, until);
            }
            select.setInt(parameter++, jobs);
            select.setTimestamp(parameter++, horizon);
            select.setInt(parameter++, keepLastFires - 1);
            select.setTimestamp(parameter++, horizon);
            select.setTimestamp(parameter, horizon);
            try (var rs = select.executeQuery()) {
                while (rs.next()) {
                    read++;
                    last = rs.getString(1);
                    Timestamp bound = rs.getTimestamp(2);
                    if (bound != null) {
                        bounds.put(last, bound);
                    }
                }
            }
        }
        return new Bounds(bounds, read < jobs ? null : last);
    }

    /**
     * Deletes up to {@code limit} ledger rows of the jobs of {@code bounds}, each job's before its bound, on the
     * caller's connection: the jobs in the map's order, a short range of UNIQUE(job_name, scheduled_at, run_id) each,
     * in one statement (a statement a job cost a round trip each: 100,000 for a slice of one-row jobs). The jobs'
     * horizons are moved over them first ({@link #advance}), so that none of them is fired again. Rows another
     * transaction holds are skipped.
     *
     * @return the rows deleted, fewer than {@code limit} when no job of the slice has more to delete now; and the
     *     furthest job in the map's order that lost one (the jobs before it have none left to delete)
     */
    public static Purged purgeFires(Connection connection, Map<String, Timestamp> bounds, int limit)
            throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement("""
                DELETE FROM onebeat_fire WHERE id IN (
                    SELECT f.id FROM unnest(?::varchar[], ?::timestamptz[]) AS u(job, bound)
                    CROSS JOIN LATERAL (SELECT id FROM onebeat_fire
                                        WHERE job_name = u.job AND scheduled_at < u.bound
                                        LIMIT ? FOR UPDATE SKIP LOCKED) f
                    LIMIT ?)
                RETURNING job_name""")) {
            delete.setArray(1, connection.createArrayOf("varchar", bounds.keySet().toArray()));
            delete.setArray(2, connection.createArrayOf("timestamptz", bounds.values().toArray()));
            delete.setInt(3, limit);
            delete.setInt(4, limit);
            int rows = 0;
            Set<String> lost = new HashSet<>();
            try (var rs = delete.executeQuery()) {
                while (rs.next()) {
                    rows++;
                    lost.add(rs.getString(1));
                }
            }
            String furthest = null;
            for (String job : bounds.keySet()) {
                if (lost.contains(job)) {
                    furthest = job;
                }
            }
            return new Purged(rows, furthest);
        }
    }

    /**
     * @param rows ledger rows deleted
     * @param furthest of the jobs given, the furthest in their order that lost a row; null when none did
     */
    public record Purged(int rows, String furthest) {
    }

    /**
     * @return the ledger's job after which the retention walk goes on ({@code onebeat_retention_walk}): where the last
     *     committed fire's cap stopped it; empty to start from the first job
     */
    public static String walkResumesAfter(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT resume_after FROM onebeat_retention_walk WHERE id = 1");
             var rs = select.executeQuery()) {
            return rs.next() ? rs.getString(1) : "";
        }
    }

    /**
     * Records where the retention walk goes on, on the fire's connection: it commits with the fire's deletes, so a
     * fire that rolls back leaves the walk where the last committed one stopped it. Never waits: while another fire's
     * transaction holds the row (one that outlived its lock), this one leaves it to that fire, as its deletes skip
     * that fire's rows; any starting point deletes the same rows.
     *
     * @param after the job after which the next fire's walk starts; empty for the first job
     */
    public static void walkResumes(Connection connection, String after) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement("""
                UPDATE onebeat_retention_walk SET resume_after = ?, updated_at = now()
                WHERE id IN (SELECT id FROM onebeat_retention_walk WHERE id = 1 FOR UPDATE SKIP LOCKED)""");
             // a row another transaction holds is seen here, so no insert waits on it
             PreparedStatement insert = connection.prepareStatement("""
                     INSERT INTO onebeat_retention_walk (id, resume_after) SELECT 1, ?
                     WHERE NOT EXISTS (SELECT 1 FROM onebeat_retention_walk) ON CONFLICT (id) DO NOTHING""")) {
            update.setString(1, after);
            if (update.executeUpdate() == 0) {
                insert.setString(1, after);
                insert.executeUpdate();
            }
        }
    }

    /** Deletes up to {@code limit} attempts made before {@code before}, on the caller's connection. */
    public static int purgeAttempts(Connection connection, Timestamp before, int limit) throws SQLException {
        return BatchDelete.rows(connection, """
                DELETE FROM onebeat_fire_attempt WHERE id IN (
                    SELECT id FROM onebeat_fire_attempt WHERE attempted_at < ? LIMIT ? FOR UPDATE SKIP LOCKED)""",
                before, limit);
    }
}
