package dev.onebeat.scheduler.operate.retention;

import dev.onebeat.job.JobContext;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.fire.FireHorizon;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@value #NAME}: deletes what the scheduler's tables no longer need to keep ({@link Purge}), a batch per statement,
 * each table's rows older than its age counted back from the fire's scheduled instant, so a late or re-run fire
 * deletes the same rows. Its deletes run on the fire's connection and commit with its ledger row: a fire that fails
 * deletes nothing and is retried; at most {@code max-rows-per-fire} rows go per fire, and a backlog is worked off over
 * the next ones. Rows another transaction holds are skipped, so a fire of another job is never waited for.
 *
 * <p>The ledger's rows say which instants have committed; before a job's rows are deleted, the newest of them becomes
 * its horizon ({@link FireHorizon}), committed on its own, and nothing at or before it is fired again.
 */
final class RetentionJob implements PeriodicJob {

    static final String NAME = "onebeat-retention";
    private static final Logger log = LoggerFactory.getLogger(RetentionJob.class);

    private final RetentionProperties properties;
    private final Schedule schedule;
    private final MeterRegistry meters;
    private final DataSource dataSource;

    RetentionJob(RetentionProperties properties, MeterRegistry meters, DataSource dataSource) {
        this.dataSource = dataSource;
        this.properties = properties;
        try {
            this.schedule = Schedule.unixCron(properties.cron(), ZoneOffset.UTC);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("onebeat.retention.cron: '" + properties.cron() + "': " + e.getMessage(), e);
        }
        this.meters = meters;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Schedule schedule() {
        return schedule;
    }

    @Override
    public Duration lockAtMostFor() {
        return Duration.ofMinutes(10);
    }

    @Override
    public void run(JobContext context) throws SQLException {
        Map<Purge, Long> deleted = purge(context.connection(), context.scheduledAt());
        deleted.forEach((purge, rows) -> Counter.builder("onebeat.retention.deleted")
                .description("Rows the retention job deleted, by table").tag("table", purge.table())
                .register(meters).increment(rows));
        long total = deleted.values().stream().mapToLong(Long::longValue).sum();
        log.info("retention deleted rows={} limitReached={} byTable={} scheduledAt={}", total,
                total >= properties.maxRowsPerFire(), deleted, context.scheduledAt());
    }

    /** @return the rows deleted per table, on {@code connection}, for a fire of {@code scheduledAt} */
    Map<Purge, Long> purge(Connection connection, Instant scheduledAt) throws SQLException {
        Map<Purge, Long> deleted = new EnumMap<>(Purge.class);
        long[] remaining = {properties.maxRowsPerFire()};
        for (Purge purge : Purge.values()) {
            Timestamp cutoff = Timestamp.from(scheduledAt.minus(purge.age(properties)));
            long count;
            if (purge == Purge.FIRES) {
                count = purgeFires(connection, remaining, cutoff);
            } else {
                count = batches(connection, purge, remaining, null, cutoff);
            }
            deleted.put(purge, count);
        }
        return deleted;
    }

    /** Deletes each job's ledger rows before its bound, after moving its horizon to the newest of them. */
    private long purgeFires(Connection connection, long[] remaining, Timestamp cutoff) throws SQLException {
        Map<String, Timestamp> bounds = fireBounds(connection, cutoff);
        if (bounds.isEmpty()) {
            return 0;
        }
        // committed before anything is deleted: a claim that finds a deleted row then reads the moved horizon
        try (Connection own = dataSource.getConnection()) {
            own.setAutoCommit(true);
            FireHorizon.advance(own, bounds);
        }
        long count = 0;
        for (Map.Entry<String, Timestamp> bound : bounds.entrySet()) {
            count += batches(connection, Purge.FIRES, remaining, bound.getKey(), bound.getValue());
        }
        return count;
    }

    /**
     * @return per job with fires to delete, the instant before which they go: the horizon, or the instant of the job's
     *     {@code keep-last-fires}-th newest fire if that is earlier
     */
    private Map<String, Timestamp> fireBounds(Connection connection, Timestamp horizon) throws SQLException {
        // the distinct jobs of the ledger, one index probe each (PostgreSQL has no loose index scan of its own), then
        // each job's cut-off by a short backward scan of the same index
        Map<String, Timestamp> bounds = new LinkedHashMap<>();
        try (PreparedStatement select = connection.prepareStatement("""
                WITH RECURSIVE jobs(job_name) AS (
                    (SELECT job_name FROM onebeat_fire ORDER BY job_name LIMIT 1)
                    UNION ALL
                    SELECT (SELECT f.job_name FROM onebeat_fire f WHERE f.job_name > jobs.job_name
                            ORDER BY f.job_name LIMIT 1)
                    FROM jobs WHERE jobs.job_name IS NOT NULL)
                SELECT j.job_name, least(?::timestamptz, k.scheduled_at) FROM jobs j
                CROSS JOIN LATERAL (SELECT scheduled_at FROM onebeat_fire f WHERE f.job_name = j.job_name
                                    ORDER BY f.scheduled_at DESC, f.run_id DESC OFFSET ? LIMIT 1) k
                WHERE EXISTS (SELECT 1 FROM onebeat_fire o WHERE o.job_name = j.job_name
                              AND o.scheduled_at < least(?::timestamptz, k.scheduled_at))""")) {
            select.setTimestamp(1, horizon);
            select.setInt(2, properties.keepLastFires() - 1);
            select.setTimestamp(3, horizon);
            try (var rs = select.executeQuery()) {
                while (rs.next()) {
                    bounds.put(rs.getString(1), rs.getTimestamp(2));
                }
            }
        }
        return bounds;
    }

    /**
     * Deletes batches of one table (of one job's fires, when {@code job} is set) until none is left or the cap.
     */
    private long batches(Connection connection, Purge purge, long[] remaining, String job, Timestamp before)
            throws SQLException {
        long count = 0;
        int batch;
        int limit;
        try (PreparedStatement delete = connection.prepareStatement(purge.sql())) {
            do {
                limit = (int) Math.min(properties.batchSize(), remaining[0]);
                if (limit == 0) {
                    return count;
                }
                int i = 1;
                if (job != null) {
                    delete.setString(i++, job);
                }
                delete.setTimestamp(i++, before);
                delete.setInt(i, limit);
                batch = delete.executeUpdate();
                count += batch;
                remaining[0] -= batch;
            } while (batch == limit);
        }
        return count;
    }
}
