package dev.onebeat.scheduler.engine.registry;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Which jobs of the catalog ({@code onebeat_job}) are members of a schedule at an instant: what a schedule's fire
 * reads to know whom it fires, and what the trigger's removal reads to know whether any job still needs it. With
 * {@link JobCatalog} and {@link JobListing}, the owner of {@code onebeat_job}.
 *
 * <p>A job that moved to another schedule keeps the key it left and when, so an instant of the old schedule due
 * before the move is still its own, however late it fires.
 */
@Component
public class ScheduleMembers {

    private final JdbcClient jdbc;

    ScheduleMembers(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The jobs of one instant of a schedule.
     *
     * @param firing those that fire, by name
     * @param paused those an operator's pause keeps from firing it, by name
     * @param since by name, when each that is on the schedule now joined it (its first instant); a job that has
     *     since left it for another is not in it (it was a member of every instant before it left); empty unless
     *     asked for
     */
    public record Members(List<String> firing, List<String> paused, Map<String, Instant> since) {
    }

    /**
     * @param withSince whether to read when each member joined the schedule, which only a fire settling missed
     *     instants needs: a timestamp parsed and kept per member (the read took a third less without it at 100,000
     *     members, BENCHMARKS.md)
     * @return the members of that instant of that schedule that are not orphaned, those that fire and those
     *         paused (a job paused until a time fires the instants from that time on)
     */
    public Members membersAt(String scheduleKey, Instant scheduledAt, boolean withSince) {
        Timestamp at = Timestamp.from(scheduledAt);
        List<String> firing = new ArrayList<>();
        List<String> paused = new ArrayList<>();
        Map<String, Instant> since = new HashMap<>();
        jdbc.sql("""
                        SELECT name, paused AND (paused_until IS NULL OR paused_until > ?),
                               CASE WHEN ? AND schedule_key = ? THEN member_since END
                        FROM onebeat_job
                        WHERE NOT orphaned
                          AND ((schedule_key = ? AND member_since <= ?) OR (previous_key = ? AND left_at > ?))
                        ORDER BY name
                        """)
                .params(at, withSince, scheduleKey, scheduleKey, at, scheduleKey, at)
                .query(rs -> {
                    (rs.getBoolean(2) ? paused : firing).add(rs.getString(1));
                    Instant joined = instant(rs.getTimestamp(3));
                    if (joined != null) {
                        since.put(rs.getString(1), joined);
                    }
                });
        return new Members(firing, paused, since);
    }

    /**
     * A job's membership of one schedule over a range of its instants.
     *
     * @param since the first instant it is a member of, or null when it left the schedule (it was a member of every
     *     instant before it left)
     * @param until when it left the schedule (the first instant it is no member of), or null while it is on it
     * @param paused whether an operator paused it
     * @param pausedUntil when the pause ends by itself, or null
     */
    public record Membership(String name, Instant since, Instant until, boolean paused, Instant pausedUntil) {

        /** @return whether the job is a member of the schedule's instant {@code at} */
        public boolean memberAt(Instant at) {
            return (since == null || !since.isAfter(at)) && (until == null || until.isAfter(at));
        }

        /** @return whether an operator's pause keeps it from firing the instant {@code at} */
        public boolean pausedAt(Instant at) {
            return paused && (pausedUntil == null || pausedUntil.isAfter(at));
        }
    }

    /**
     * @return the jobs, not orphaned, that were members of the schedule at some instant in {@code [from, to]}, each
     *         with when it joined or left it, by name: what a fire settling missed instants plans each one with
     */
    public List<Membership> memberships(String scheduleKey, Instant from, Instant to) {
        return jdbc.sql("""
                        SELECT name, CASE WHEN schedule_key = :key THEN member_since END,
                               CASE WHEN schedule_key = :key THEN NULL ELSE left_at END, paused, paused_until
                        FROM onebeat_job
                        WHERE NOT orphaned
                          AND ((schedule_key = :key AND member_since <= :to) OR (previous_key = :key AND left_at > :from))
                        ORDER BY name
                        """)
                .param("key", scheduleKey).param("from", Timestamp.from(from)).param("to", Timestamp.from(to))
                .query((rs, row) -> new Membership(rs.getString(1), instant(rs.getTimestamp(2)),
                        instant(rs.getTimestamp(3)), rs.getBoolean(4), instant(rs.getTimestamp(5))))
                .list();
    }

    private static Instant instant(Timestamp at) {
        return at == null ? null : at.toInstant();
    }

    /**
     * @param scheduleKey a schedule
     * @param scheduledAt one of its instants
     * @return the jobs that fire at that instant of that schedule, by name: members at the instant, neither
     *         orphaned nor paused (a job paused until a time fires the instants from that time on)
     */
    public List<String> members(String scheduleKey, Instant scheduledAt) {
        Timestamp at = Timestamp.from(scheduledAt);
        return jdbc.sql("""
                        SELECT name FROM onebeat_job
                        WHERE (NOT paused OR paused_until <= ?) AND NOT orphaned
                          AND ((schedule_key = ? AND member_since <= ?) OR (previous_key = ? AND left_at > ?))
                        ORDER BY name
                        """)
                .params(at, scheduleKey, at, scheduleKey, at)
                .query(String.class)
                .list();
    }

    /** @return whether any job fires on the schedule, or left it so recently that it may still owe it an instant */
    public boolean inUse(String scheduleKey, Instant since) {
        return jdbc.sql("""
                        SELECT EXISTS (SELECT 1 FROM onebeat_job WHERE schedule_key = ?)
                            OR EXISTS (SELECT 1 FROM onebeat_job WHERE previous_key = ? AND left_at > ?)
                        """)
                .params(scheduleKey, scheduleKey, Timestamp.from(since))
                .query(Boolean.class)
                .single();
    }
}
