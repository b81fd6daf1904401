package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.engine.fire.FireAttempts;
import dev.onebeat.scheduler.engine.quartz.TimetableTrigger;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Reads and checks what replicas recorded for {@link ReplicaMain#JOB}. */
final class Ledger {

    record Fire(Instant scheduledAt, Instant firedAt, String node, String trigger, int tasks) {
    }

    private final JdbcClient jdbc;
    private final String job;
    private final Duration interval;
    private final int entities;

    Ledger(DataSource dataSource) {
        this(dataSource, ReplicaMain.JOB, Duration.ofSeconds(1), ReplicaMain.ENTITIES);
    }

    Ledger(DataSource dataSource, String job, Duration interval, int entities) {
        this.jdbc = JdbcClient.create(dataSource);
        this.job = job;
        this.interval = interval;
        this.entities = entities;
    }

    List<Fire> fires() {
        return jdbc.sql("""
                        SELECT scheduled_at, fired_at, node, trigger_kind, task_count FROM onebeat_fire
                        WHERE job_name = ? ORDER BY scheduled_at
                        """)
                .param(job)
                .query((rs, row) -> new Fire(rs.getTimestamp(1).toInstant(), rs.getTimestamp(2).toInstant(),
                        rs.getString(3), rs.getString(4), rs.getInt(5)))
                .list();
    }

    long firesScheduledAfter(Instant after) {
        return fires().stream().filter(fire -> fire.scheduledAt().isAfter(after)).count();
    }

    /** Replicas in Quartz's cluster table; a table that Liquibase has not created yet counts as none. */
    int clusterSize() {
        try {
            return jdbc.sql("SELECT count(*) FROM qrtz_scheduler_state").query(Integer.class).single();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /** Checks the exactly-once claims and returns the fires, oldest first. */
    List<Fire> assertEverySecondFiredExactlyOnceWithAllTasks() {
        return assertEverySecondFiredExactlyOnceWithAllTasks(Instant.MIN);
    }

    /**
     * Checks the exactly-once claims, with no instant missing among those after {@code contiguousFrom} (before it, an
     * instant may be skipped by the overlap policy while a JVM's first fires run slowly), and returns the fires.
     */
    List<Fire> assertEverySecondFiredExactlyOnceWithAllTasks(Instant contiguousFrom) {
        List<Fire> fires = fires();
        assertThat(fires).isNotEmpty();
        for (int i = 1; i < fires.size(); i++) {
            if (fires.get(i - 1).scheduledAt().isBefore(contiguousFrom)) {
                assertThat(fires.get(i).scheduledAt()).as("no repeated instant").isAfter(fires.get(i - 1).scheduledAt());
                continue;
            }
            Instant previous = fires.get(i - 1).scheduledAt();
            Instant next = fires.get(i).scheduledAt();
            assertThat(next).as("no repeated instant").isAfter(previous);
            assertThat(unaccounted(previous, next)).as("no missing instant between the fires of %s and %s: neither "
                    + "fired nor recorded skipped by the overlap policy", previous, next).isEmpty();
            assertThat(Duration.between(previous, next).toMillis() % interval.toMillis()).as("on the grid").isZero();
        }
        assertThat(fires).allSatisfy(fire -> assertThat(fire.tasks()).isEqualTo(entities));
        long tasks = jdbc.sql("SELECT count(*) FROM onebeat_task WHERE job_name = ?").param(job)
                .query(Long.class).single();
        long keys = jdbc.sql("SELECT count(DISTINCT idempotency_key) FROM onebeat_task WHERE job_name = ?")
                .param(job).query(Long.class).single();
        long tasksPerFire = jdbc.sql("""
                        SELECT count(*) FROM (SELECT scheduled_at FROM onebeat_task WHERE job_name = ?
                        GROUP BY scheduled_at HAVING count(*) <> ?) wrong
                        """)
                .params(job, entities).query(Long.class).single();
        assertThat(tasks).isEqualTo((long) fires.size() * entities);
        assertThat(keys).isEqualTo(tasks);
        assertThat(tasksPerFire).as("fires whose task rows are not exactly %d", entities).isZero();
        return fires;
    }

    /**
     * @return the instants after {@code contiguousFrom}, between two fires, that neither fired nor were recorded skipped
     *     by the overlap policy: a fire that failed and waits for its next attempt is one until that attempt commits
     */
    List<Instant> unaccounted(Instant contiguousFrom) {
        List<Fire> fires = fires();
        List<Instant> unaccounted = new ArrayList<>();
        for (int i = 1; i < fires.size(); i++) {
            if (!fires.get(i - 1).scheduledAt().isBefore(contiguousFrom)) {
                unaccounted.addAll(unaccounted(fires.get(i - 1).scheduledAt(), fires.get(i).scheduledAt()));
            }
        }
        return unaccounted;
    }

    // an instant between two fires is accounted for when the job's overlap policy recorded it skipped (a fire still
    // running, one waiting: buffer-one): every instant has one outcome, fired or skipped
    private List<Instant> unaccounted(Instant previous, Instant next) {
        List<Instant> skipped = skippedByOverlap();
        List<Instant> unaccounted = new ArrayList<>();
        for (Instant at = previous.plus(interval); at.isBefore(next); at = at.plus(interval)) {
            if (!skipped.contains(at)) {
                unaccounted.add(at);
            }
        }
        return unaccounted;
    }

    private List<Instant> skippedByOverlap() {
        return jdbc.sql("""
                        SELECT scheduled_at FROM onebeat_fire_attempt
                        WHERE job_name = ? AND outcome = 'skipped' AND reason = ?""")
                .params(job, FireAttempts.SkipReason.OVERLAP.text()).query(Timestamp.class).list().stream().map(Timestamp::toInstant).toList();
    }

    static Map<String, Long> firesByNode(List<Fire> fires) {
        Map<String, Long> byNode = new TreeMap<>();
        fires.forEach(fire -> byNode.merge(fire.node(), 1L, Long::sum));
        return byNode;
    }

    /** A fire of the job in progress: the replica running it and the instant it fires. */
    record Executing(String node, Instant scheduledAt) {
    }

    Executing fireExecuting() {
        // Quartz fires the trigger its lead before the instant, and the fire waits for the instant: only then is
        // it inside its transaction, holding the job's lock. Only a fire at most 600 ms into its instant counts:
        // the slow job sleeps 1.5 s before its commit, so a kill sent now lands inside the fire even on a loaded
        // machine, not after a commit the caller took for a fire still running
        List<Executing> fires = jdbc.sql("""
                        SELECT instance_name, sched_time FROM qrtz_fired_triggers
                        WHERE trigger_name = (SELECT schedule_key FROM onebeat_job WHERE name = ?) AND state = 'EXECUTING'
                          AND extract(epoch FROM clock_timestamp()) * 1000 - sched_time BETWEEN ? AND ?
                        """)
                .params(job, TimetableTrigger.LEAD.toMillis() + 100, TimetableTrigger.LEAD.toMillis() + 600)
                .query((rs, row) -> new Executing(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2))
                        .plus(TimetableTrigger.LEAD))).list();
        return fires.isEmpty() ? null : fires.get(0);
    }

    String nodeHoldingNextTrigger() {
        List<String> holders = jdbc.sql("""
                        SELECT instance_name FROM qrtz_fired_triggers
                        WHERE trigger_name = (SELECT schedule_key FROM onebeat_job WHERE name = ?) AND state = 'ACQUIRED'
                        """)
                .param(job).query(String.class).list();
        return holders.isEmpty() ? null : holders.get(0);
    }
}
