package dev.onebeat.scheduler.engine.registry;

import dev.onebeat.scheduler.boot.database.StatementChunks;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Every job of the cluster, {@code onebeat_job}: the schedule it fires on (by schedule key, the name of
 * the one Quartz trigger all jobs of that schedule share), whether an operator paused it, and whether
 * it is orphaned (no replica registers it). Replicas write it when they start and the admin API when it
 * changes a job, both under the job's change lock ({@link RuntimeJobStore#lock}); a schedule's fire
 * reads its members through {@link ScheduleMembers}. Whether a job is orphaned is decided from the live
 * cluster ({@link #judgeOrphans}).
 *
 * <p>A job that moves to another schedule keeps the key it left and when, so that an instant of the old
 * schedule that is due before the move but fired after it (a late fire, a recovery) still includes it:
 * every instant belongs to the schedule the job had at that instant.
 */
@Component
public class JobCatalog {

    /** Jobs judged per statement by {@link #judgeOrphans}: about a third of a second each at 1,000,000 jobs. */
    static final int ORPHAN_BATCH = 50_000;

    private final JdbcClient jdbc;

    JobCatalog(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * A job as stored.
     *
     * @param name job name
     * @param scheduleKey the schedule it fires on
     * @param schedule that schedule, as {@link dev.onebeat.job.Schedule#describe()} writes it, with the misfire policy
     * @param paused whether an operator paused it
     * @param orphaned whether no replica registers it (it does not fire meanwhile)
     * @param pauseReason why it was paused, or null
     * @param pausedUntil when the pause ends by itself, or null if only a resume ends it
     */
    public record Job(String name, String scheduleKey, String schedule, boolean paused, boolean orphaned,
                      String pauseReason, Instant pausedUntil) {
    }

    /**
     * A pause that ran out.
     *
     * @param name job name
     * @param reason why it had been paused, or null
     * @param until when the pause ended
     */
    public record ExpiredPause(String name, String reason, Instant until) {
    }

    /**
     * What to store for a job.
     *
     * @param name job name
     * @param scheduleKey its schedule's key
     * @param schedule its schedule, described
     * @param namespace the namespace it belongs to
     */
    public record Entry(String name, String scheduleKey, String schedule, String namespace) {
    }

    /**
     * A job stored anew or moved to another schedule.
     *
     * @param name job name
     * @param fromKey the schedule it left, null for a new job
     * @param toKey the schedule it fires on now
     */
    public record Move(String name, String fromKey, String toKey) {
    }

    /**
     * Stores the jobs in the caller's transaction: a new one joins its schedule from {@code now}, one on
     * another schedule moves; one on the same schedule is left as it is (its pause kept).
     *
     * @return the jobs stored anew or moved
     */
    public List<Move> store(Collection<Entry> entries, Instant now) {
        if (entries.isEmpty()) {
            return List.of();
        }
        List<String> names = new ArrayList<>(entries.size());
        List<String> keys = new ArrayList<>(entries.size());
        List<String> schedules = new ArrayList<>(entries.size());
        List<String> namespaces = new ArrayList<>(entries.size());
        for (Entry entry : entries) {
            names.add(entry.name());
            keys.add(entry.scheduleKey());
            schedules.add(entry.schedule());
            namespaces.add(entry.namespace());
        }
        Timestamp at = Timestamp.from(now);
        // a job that moved to another namespace on the same schedule: no move, its namespace only (rows locked in
        // name order, as the insert below locks them)
        jdbc.sql("""
                        UPDATE onebeat_job AS j SET namespace = u.namespace, updated_at = now()
                        FROM (SELECT * FROM unnest(?::varchar[], ?::varchar[]) AS v(name, namespace) ORDER BY name) u
                        WHERE j.name = u.name AND j.namespace <> u.namespace
                        """)
                .params(names.toArray(String[]::new), namespaces.toArray(String[]::new))
                .update();
        return jdbc.sql("""
                        INSERT INTO onebeat_job AS j (name, schedule_key, schedule, member_since, namespace)
                        SELECT u.name, u.schedule_key, u.schedule, ?, u.namespace
                        FROM unnest(?::varchar[], ?::varchar[], ?::text[], ?::varchar[])
                             AS u(name, schedule_key, schedule, namespace)
                        ORDER BY u.name
                        ON CONFLICT (name) DO UPDATE SET previous_key = j.schedule_key, left_at = EXCLUDED.member_since,
                            member_since = EXCLUDED.member_since, schedule_key = EXCLUDED.schedule_key,
                            schedule = EXCLUDED.schedule, updated_at = now()
                        WHERE j.schedule_key <> EXCLUDED.schedule_key
                        RETURNING name, CASE WHEN left_at = member_since THEN previous_key END, schedule_key
                        """)
                .params(at, names.toArray(String[]::new), keys.toArray(String[]::new), schedules.toArray(String[]::new),
                        namespaces.toArray(String[]::new))
                .query((rs, row) -> new Move(rs.getString(1), rs.getString(2), rs.getString(3)))
                .list();
    }

    /**
     * Reads, without locking a row, which of the entries are stored exactly as given: on the same schedule, in the same
     * namespace and not orphaned, so that {@link #store} and {@code setOrphaned(…, false)} would change nothing for
     * them. A statement per 10,000 entries.
     *
     * @return the names of those entries
     */
    public Set<String> unchanged(Collection<Entry> entries) {
        Set<String> unchanged = new HashSet<>();
        for (List<Entry> chunk : StatementChunks.of(new ArrayList<>(entries), 10_000)) {
            Map<String, Entry> byName = new HashMap<>();
            chunk.forEach(entry -> byName.put(entry.name(), entry));
            // name = ANY: an index probe a name. A join with the names unnested was planned as a merge join over the
            // name index from its first entry: half the catalog read per statement on average, 10 s at a million
            jdbc.sql("SELECT name, schedule_key, namespace FROM onebeat_job WHERE name = ANY(?::varchar[]) AND NOT orphaned")
                    .param(byName.keySet().toArray(String[]::new))
                    .query((ResultSet rs) -> {
                        Entry entry = byName.get(rs.getString(1));
                        if (entry != null && Objects.equals(entry.scheduleKey(), rs.getString(2))
                                && Objects.equals(entry.namespace(), rs.getString(3))) {
                            unchanged.add(entry.name());
                        }
                    });
        }
        return unchanged;
    }

    /** @return the job, if stored */
    public Optional<Job> find(String name) {
        return jdbc.sql("""
                        SELECT name, schedule_key, schedule, paused, orphaned, pause_reason, paused_until
                        FROM onebeat_job WHERE name = ?
                        """)
                .param(name)
                .query((rs, row) -> {
                    Timestamp until = rs.getTimestamp(7);
                    return new Job(rs.getString(1), rs.getString(2), rs.getString(3), rs.getBoolean(4),
                            rs.getBoolean(5), rs.getString(6), until == null ? null : until.toInstant());
                })
                .optional();
    }

    /**
     * A job's standing, as the missed-fire detector needs it.
     *
     * @param memberSince when the job began firing on its current schedule: no earlier instant of it is expected
     * @param paused whether an operator paused it: its instants are not expected meanwhile
     * @param orphaned whether no live replica registers it
     * @param schedule its schedule as stored ({@link dev.onebeat.job.Schedule#describe()}), from which a replica that
     *     does not register the job can still compute its instants
     */
    public record Standing(String name, Instant memberSince, boolean paused, boolean orphaned, String schedule) {
    }

    /**
     * A row of {@code qrtz_scheduler_state} whose replica is alive for the orphan judgement: checked in within two of
     * its intervals, by the database's stamp, at the transaction's start ({@link #orphanInputs}, {@link #checkedIn},
     * {@link #judgeOrphans}, which must agree).
     */
    private static final String ALIVE_AT_START =
            "onebeat_checked_in_at + 2 * checkin_interval * interval '1 millisecond' >= now()";
    private static final String STANDINGS = "SELECT name, member_since, paused, orphaned, schedule FROM onebeat_job";

    private static Standing standing(ResultSet rs) throws SQLException {
        return new Standing(rs.getString(1), rs.getTimestamp(2).toInstant(), rs.getBoolean(3), rs.getBoolean(4),
                rs.getString(5));
    }

    /** @return every stored job's standing, by name */
    public Map<String, Standing> standings() {
        Map<String, Standing> standings = new HashMap<>();
        jdbc.sql(STANDINGS).query((ResultSet rs) -> {
            standings.put(rs.getString(1), standing(rs));
        });
        return standings;
    }

    /** @return the standings of those jobs that are stored, by name, a statement per 10,000 names */
    public Map<String, Standing> standings(Collection<String> names) {
        Map<String, Standing> standings = new HashMap<>();
        for (List<String> chunk : StatementChunks.of(new ArrayList<>(names), 10_000)) {
            jdbc.sql(STANDINGS + " WHERE name = ANY(?::varchar[])").param(chunk.toArray(String[]::new))
                    .query((ResultSet rs) -> {
                        standings.put(rs.getString(1), standing(rs));
                    });
        }
        return standings;
    }

    /** @return the jobs whose catalog row was written at or after {@code since} (database time) */
    public List<String> changedSince(Instant since) {
        return jdbc.sql("SELECT name FROM onebeat_job WHERE updated_at >= ?").param(Timestamp.from(since))
                .query(String.class).list();
    }

    /**
     * @param after the name to go on from, null for the first
     * @return up to {@code limit} names after it, in name order
     */
    public List<String> namesAfter(String after, int limit) {
        return after == null
                ? jdbc.sql("SELECT name FROM onebeat_job ORDER BY name LIMIT ?").param(limit).query(String.class)
                        .list()
                : jdbc.sql("SELECT name FROM onebeat_job WHERE name > ? ORDER BY name LIMIT ?").params(after, limit)
                        .query(String.class).list();
    }

    /** @return when the job began firing on its current schedule, if it is stored */
    public Optional<Instant> memberSince(String name) {
        return jdbc.sql("SELECT member_since FROM onebeat_job WHERE name = ?").param(name)
                .query((rs, row) -> rs.getTimestamp(1).toInstant()).optional();
    }

    /** @return every stored job's name */
    public List<String> names() {
        return jdbc.sql("SELECT name FROM onebeat_job ORDER BY name").query(String.class).list();
    }

    /**
     * Pauses or resumes the job, in the caller's transaction.
     *
     * @return whether that changed anything
     */
    public boolean setPaused(String name, boolean paused) {
        return paused ? pause(name, null, null) : jdbc.sql("""
                        UPDATE onebeat_job SET paused = false, pause_reason = NULL, paused_until = NULL, updated_at = now()
                        WHERE name = ? AND paused
                        """)
                .param(name)
                .update() == 1;
    }

    /**
     * Pauses a job, or changes the reason or end of its pause, in the caller's transaction.
     *
     * @param reason why, or null
     * @param until when the pause ends by itself, or null
     * @return whether anything changed
     */
    public boolean pause(String name, String reason, Instant until) {
        Timestamp end = until == null ? null : Timestamp.from(until);
        return jdbc.sql("""
                        UPDATE onebeat_job SET paused = true, pause_reason = ?, paused_until = ?, updated_at = now()
                        WHERE name = ? AND (NOT paused OR pause_reason IS DISTINCT FROM ?
                                            OR paused_until IS DISTINCT FROM CAST(? AS timestamptz))
                        """)
                .params(reason, end, name, reason, end)
                .update() == 1;
    }

    /**
     * Ends the pauses whose time has come, in the caller's transaction. Two replicas doing it at once end
     * each pause once: the second waits for the first's row lock and then finds the job no longer paused.
     *
     * @return the pauses ended
     */
    public List<ExpiredPause> endPausesDue(Instant now) {
        return jdbc.sql("""
                        UPDATE onebeat_job j SET paused = false, pause_reason = NULL, paused_until = NULL, updated_at = now()
                        FROM (SELECT name, pause_reason, paused_until FROM onebeat_job
                              WHERE paused AND paused_until <= ? ORDER BY name FOR UPDATE) AS due
                        WHERE j.name = due.name AND j.paused
                        RETURNING j.name, due.pause_reason, due.paused_until
                        """)
                .param(Timestamp.from(now))
                .query((rs, row) -> new ExpiredPause(rs.getString(1), rs.getString(2), rs.getTimestamp(3).toInstant()))
                .list();
    }

    /**
     * Marks jobs orphaned (no replica registers them) or registered again, in the caller's transaction.
     *
     * @return the names whose state changed
     */
    public List<String> setOrphaned(Collection<String> names, boolean orphaned) {
        if (names.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                        UPDATE onebeat_job SET orphaned = ?, updated_at = now()
                        WHERE name = ANY(?::varchar[]) AND orphaned <> ?
                        RETURNING name
                        """)
                .params(orphaned, names.toArray(String[]::new), orphaned)
                .query(String.class)
                .list();
    }

    /**
     * A job whose orphaned state a judgement changed.
     *
     * @param orphaned whether it is orphaned now
     */
    public record OrphanChange(String name, boolean orphaned) {
    }

    /**
     * What {@link #judgeOrphans} depends on besides the catalog's own rows, read in a few index lookups: the live
     * replicas, when each recorded replica last wrote its registrations, and the runtime jobs' version. While it reads
     * the same, a judgement would change nothing that the last one did not. Liveness is judged at the transaction's
     * start ({@code now()}), as {@link #judgeOrphans} judges it, and registrations are read as epoch seconds: the
     * text of a {@code timestamptz} follows the session's time zone, and replicas in different zones must read the
     * same inputs.
     */
    public String orphanInputs() {
        return jdbc.sql("""
                        SELECT coalesce((SELECT string_agg(instance_name, ',' ORDER BY instance_name)
                                         FROM qrtz_scheduler_state WHERE %s), '')
                            || '|' || coalesce((SELECT string_agg(instance_id || '@'
                                                                      || coalesce(extract(epoch FROM registered_at)::text, ''),
                                                                  ',' ORDER BY instance_id) FROM onebeat_node), '')
                            || '|' || coalesce((SELECT version::text FROM onebeat_runtime_job_version), '')"""
                        .formatted(ALIVE_AT_START))
                .query(String.class).single();
    }

    /**
     * @return whether {@code instance} checked in to the Quartz cluster within two of its intervals, judged at the
     *     transaction's start as {@link #orphanInputs} judges every replica
     */
    public boolean checkedIn(String instance) {
        return jdbc.sql("""
                        SELECT count(*) FROM qrtz_scheduler_state
                        WHERE instance_name = ? AND %s""".formatted(ALIVE_AT_START))
                .param(instance)
                .query(Long.class).single() > 0;
    }

    /**
     * Decides, from the live cluster, which jobs are orphaned, in the caller's transaction: a job is orphaned when no
     * replica alive registers it, alive meaning that its Quartz scheduler checked in within two of its check-in
     * intervals in database time ({@code qrtz_scheduler_state.onebeat_checked_in_at}, stamped by the database: the
     * rule that judges a lock holder alive, applied here at the transaction's start), so a replica whose Quartz does
     * not run never counts. The replica judging counts alive too. A runtime job (kind {@code job}) is never orphaned:
     * every replica builds it from the database.
     *
     * @param self this replica's instance id
     * @return the jobs whose state changed, by name
     */
    public List<OrphanChange> judgeOrphans(String self) {
        return judgeOrphans(self, ORPHAN_BATCH);
    }

    /** {@link #judgeOrphans(String)} {@code batch} jobs per statement. */
    List<OrphanChange> judgeOrphans(String self, int batch) {
        // a batch of names at a time, each bounded by the name a batch further on: at a million jobs one statement
        // over the whole catalog ran past the driver's socket timeout (5 s). Batches go in name order, and so do the
        // row locks within each: two replicas judging at once cannot deadlock
        List<OrphanChange> changes = new ArrayList<>();
        String after = null;
        while (true) {
            String upTo = jdbc.sql("SELECT name FROM onebeat_job" + (after == null ? "" : " WHERE name > :after")
                            + " ORDER BY name OFFSET :batch LIMIT 1")
                    .params(after == null ? Map.of("batch", batch - 1) : Map.of("after", after, "batch", batch - 1))
                    .query(String.class).optional().orElse(null);
            changes.addAll(judgeOrphans(self, after, upTo));
            if (upTo == null) {
                return changes;
            }
            after = upTo;
        }
    }

    /** Judges the jobs named after {@code after} up to {@code upTo} included; null: no bound on that side. */
    private List<OrphanChange> judgeOrphans(String self, String after, String upTo) {
        Map<String, Object> parameters = new HashMap<>();
        parameters.put("self", self);
        if (after != null) {
            parameters.put("after", after);
        }
        if (upTo != null) {
            parameters.put("upTo", upTo);
        }
        // The batch's range bounds each table read, not the catalog's alone: with the registrations and runtime jobs
        // bounded too, PostgreSQL hashes each NOT EXISTS once (a range scan of each table) instead of probing both
        // indexes for every job, and locks the changing rows through a range scan of the catalog, not a scan of all of
        // it: 0.21 s for a batch of 50,000 jobs at a million, against 0.9 s (EXPLAIN ANALYZE, BENCHMARKS.md)
        return jdbc.sql("""
                        WITH live AS (
                            -- database time on both sides, as JobLockTable judges a holder: Quartz writes
                            -- last_checkin_time from the replica's clock, the database stamps each check-in
                            -- (migration 017); a replica that never started Quartz has no row. At the transaction's
                            -- start, so that every batch of a judgement counts the same replicas alive (a check-in
                            -- committed meanwhile can only add one, and Quartz's recovery of a dead replica remove
                            -- one, which a second read of orphanInputs shows)
                            SELECT instance_name AS instance_id FROM qrtz_scheduler_state
                            WHERE %s
                            UNION SELECT CAST(:self AS varchar)
                        ), judged AS (
                            SELECT j.name, NOT EXISTS (SELECT 1 FROM onebeat_node_job r JOIN live l USING (instance_id)
                                                      WHERE r.job_name = j.name AND %s)
                                           AND NOT EXISTS (SELECT 1 FROM onebeat_runtime_job rt
                                                           WHERE rt.name = j.name AND rt.kind = 'job' AND %s) AS orphan
                            FROM onebeat_job j WHERE %s
                        ), changing AS (
                            SELECT j.name, judged.orphan FROM onebeat_job j JOIN judged USING (name)
                            WHERE j.orphaned <> judged.orphan AND %s ORDER BY j.name FOR UPDATE OF j
                        )
                        UPDATE onebeat_job j SET orphaned = changing.orphan, updated_at = now()
                        FROM changing WHERE j.name = changing.name AND j.orphaned <> changing.orphan
                        RETURNING j.name, j.orphaned
                        """.formatted(ALIVE_AT_START, range("r.job_name", after, upTo),
                        range("rt.name", after, upTo), range("j.name", after, upTo), range("j.name", after, upTo)))
                .params(parameters)
                .query((rs, row) -> new OrphanChange(rs.getString(1), rs.getBoolean(2)))
                .list();
    }

    /** @return the condition that {@code column} lies after {@code after} and up to {@code upTo}; null: unbounded */
    private static String range(String column, String after, String upTo) {
        return "true" + (after == null ? "" : " AND " + column + " > :after")
                + (upTo == null ? "" : " AND " + column + " <= :upTo");
    }

    /** Removes the job, in the caller's transaction. @return the schedule it fired on, if it was stored */
    public Optional<String> delete(String name) {
        return jdbc.sql("DELETE FROM onebeat_job WHERE name = ? RETURNING schedule_key")
                .param(name)
                .query(String.class)
                .optional();
    }
}
