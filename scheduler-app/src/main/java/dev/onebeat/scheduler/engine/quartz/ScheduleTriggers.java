package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.registry.ScheduleMembers;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Creates and removes the one Quartz trigger of each schedule. A schedule's trigger is created when
 * its first job is stored and removed by its own fire once no job fires on it any more. A job joining a
 * schedule and the schedule's removal both hold the schedule's lock ({@code pg_advisory_xact_lock}, until
 * the transaction ends) from before they look at the trigger or the catalog until they commit, so they
 * never cross. The remover cannot see a joiner's catalog row before it commits: a joiner that found the
 * trigger keeps the lock until its row is committed, and the remover, waiting for it, then finds the
 * schedule in use; a joiner that waited for a remover finds the trigger gone and creates it again.
 */
@Component
public class ScheduleTriggers {

    private static final Logger log = LoggerFactory.getLogger(ScheduleTriggers.class);

    private final Scheduler scheduler;
    private final JdbcClient jdbc;
    private final ScheduleMembers members;
    private final TransactionTemplate transactions;
    private final Clock clock;

    ScheduleTriggers(Scheduler scheduler, JdbcClient jdbc, ScheduleMembers members, TransactionTemplate transactions,
                     Clock clock) {
        this.scheduler = scheduler;
        this.jdbc = jdbc;
        this.members = members;
        this.transactions = transactions;
        this.clock = clock;
    }

    /**
     * Makes sure the schedule {@code job} fires on has its trigger, in the caller's Spring transaction.
     * Take the jobs' change locks first: the schedule's lock comes after them.
     */
    void ensure(String scheduleKey, PeriodicJob job) throws SchedulerException {
        lock(scheduleKey);
        if (scheduler.checkExists(QuartzTriggers.scheduleTrigger(scheduleKey))) {
            return;
        }
        // a job written in code fires from its own trigger, but through the same Quartz job as the schedules: instants
        // of one job may meet in Quartz, and the job's overlap policy (JobLocks) says what becomes of them
        Date first = scheduler.scheduleJob(QuartzTriggers.schedule(scheduleKey, job, QuartzTriggers.SCHEDULE_JOB,
                clock.instant()));
        log.info("schedule created schedule={} key={} nextFire={}", job.schedule().describe(), scheduleKey,
                first == null ? null : first.toInstant().plus(TimetableTrigger.LEAD));
    }

    /**
     * Takes the locks of the schedules until the caller's transaction ends, in key order (two callers locking
     * overlapping sets in one order cannot deadlock), then looks for their triggers. Call it in the transaction
     * that stores the jobs joining them, after storing them and after the jobs' change locks: a trigger found
     * here cannot be removed before the joiners commit.
     *
     * @return the keys, of those given, whose schedule has no trigger, in order
     */
    List<String> missing(Collection<String> scheduleKeys) throws SchedulerException {
        if (scheduleKeys.isEmpty()) {
            return List.of();
        }
        List<String> sorted = scheduleKeys.stream().distinct().sorted().toList();
        jdbc.sql("""
                        SELECT count(pg_advisory_xact_lock(hashtextextended('onebeat.schedule:' || u.key, 0)))
                        FROM (SELECT key FROM unnest(?::text[]) WITH ORDINALITY AS k(key, position) ORDER BY position) u
                        """)
                .param(sorted.toArray(String[]::new))
                .query(Long.class).single();
        Set<String> present = new HashSet<>(jdbc.sql("""
                        SELECT trigger_name FROM qrtz_triggers
                        WHERE sched_name = ? AND trigger_group = ? AND trigger_name = ANY(?::varchar[])
                        """)
                .params(scheduler.getSchedulerName(), QuartzTriggers.SCHEDULE_GROUP, scheduleKeys.toArray(String[]::new))
                .query(String.class)
                .list());
        return sorted.stream().filter(key -> !present.contains(key)).toList();
    }

    /**
     * Puts the triggers of one group and Quartz job that Quartz left in its ERROR state (a replica could not load the
     * job's class) back to WAITING, to fire at {@code at}: one statement, so atomic (Spring's job store runs a Quartz
     * call made outside a transaction in auto-commit, statement by statement), by Quartz's index on the group and
     * state ({@code idx_qrtz_t_n_g_state}), and only while the trigger is still in ERROR. What
     * {@code Scheduler.resetTriggerFromErrorState} writes, with a new fire time: one past the misfire threshold would
     * go to the misfire handling, which loads the job's class too.
     *
     * @return how many were put back
     */
    int putBackFromError(String group, JobKey job, Instant at) throws SchedulerException {
        return jdbc.sql("""
                        UPDATE qrtz_triggers SET trigger_state = 'WAITING', next_fire_time = ?
                        WHERE sched_name = ? AND trigger_group = ? AND trigger_state = 'ERROR'
                          AND job_name = ? AND job_group = ?""")
                .params(at.toEpochMilli(), scheduler.getSchedulerName(), group, job.getName(), job.getGroup())
                .update();
    }

    /** A schedule trigger's times, as Quartz stores them; null where it has none. */
    record Times(Instant nextFire, Instant start) {
    }

    /**
     * @return the schedule triggers' times, by key, of those keys that have one, read from Quartz's table in one
     *     statement (what {@code Scheduler.getTrigger} reads for one trigger, in several)
     */
    Map<String, Times> times(List<String> scheduleKeys) throws SchedulerException {
        Map<String, Times> times = new HashMap<>();
        if (scheduleKeys.isEmpty()) {
            return times;
        }
        jdbc.sql("""
                        SELECT trigger_name, next_fire_time, start_time FROM qrtz_triggers
                        WHERE sched_name = ? AND trigger_group = ? AND trigger_name = ANY(?::varchar[])
                        """)
                .params(scheduler.getSchedulerName(), QuartzTriggers.SCHEDULE_GROUP,
                        scheduleKeys.toArray(String[]::new))
                .query((ResultSet rs) -> {
                    times.put(rs.getString(1), new Times(epochMillis(rs, 2), epochMillis(rs, 3)));
                });
        return times;
    }

    /**
     * Quartz stores a time as epoch milliseconds, a next fire time the trigger does not have as -1, and reads one of 0
     * or less as none.
     */
    private static Instant epochMillis(ResultSet rs, int column) throws SQLException {
        long millis = rs.getLong(column);
        return rs.wasNull() || millis <= 0 ? null : Instant.ofEpochMilli(millis);
    }

    /**
     * Removes the schedule's trigger if no job fires on it and none left it after {@code firedFor}.
     *
     * @param firedFor the instant of the schedule's fire that found no job to fire
     */
    void removeIfUnused(String scheduleKey, Instant firedFor) {
        QuartzWork.inTransaction(transactions, () -> {
            // a joiner holds this lock until its catalog row is committed: the check below sees it
            lock(scheduleKey);
            if (!members.inUse(scheduleKey, firedFor)) {
                Trigger trigger = scheduler.getTrigger(QuartzTriggers.scheduleTrigger(scheduleKey));
                if (trigger != null && scheduler.unscheduleJob(trigger.getKey())) {
                    log.info("schedule removed, no job fires on it key={} schedule={}", scheduleKey,
                            QuartzTriggers.describe(trigger));
                }
            }
            return scheduleKey;
        });
    }

    private void lock(String scheduleKey) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))").param("onebeat.schedule:" + scheduleKey)
                .query((rs, row) -> true).single();
    }
}
