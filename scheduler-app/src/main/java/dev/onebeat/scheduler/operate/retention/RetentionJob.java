package dev.onebeat.scheduler.operate.retention;

import dev.onebeat.job.JobContext;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.fire.FireHorizon;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
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
 * deletes rows by the same ages. Its deletes run on the fire's connection and commit with its ledger row: a fire that
 * fails deletes nothing and is retried; at most {@code max-rows-per-fire} rows go per fire, and a backlog is worked off
 * over the next ones (in the ledger, from the job where the last committed fire, on any replica, stopped). Rows another
 * transaction holds are skipped, so a fire of another job is never waited for.
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
    /** The ledger's jobs read, and their horizons moved, a statement: 10,000 took 135-220 ms at a million. */
    private final int jobsPerSlice;

    RetentionJob(RetentionProperties properties, MeterRegistry meters, DataSource dataSource) {
        this(properties, meters, dataSource, 10_000);
    }

    RetentionJob(RetentionProperties properties, MeterRegistry meters, DataSource dataSource, int jobsPerSlice) {
        this.dataSource = dataSource;
        this.jobsPerSlice = jobsPerSlice;
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
                count = batches(connection, purge, remaining, cutoff);
            }
            deleted.put(purge, count);
        }
        return deleted;
    }

    /**
     * Deletes each job's ledger rows before its bound, after moving its horizon to the newest of them: the ledger's
     * jobs {@link #jobsPerSlice} at a time, in name order, until the fire's cap. The walk starts where the last
     * committed fire's cap stopped it, on whichever replica ({@link FireHorizon#walkResumesAfter}), and goes round to
     * where it began: every job has its turn, however much the jobs early in name order have to delete, and a fire
     * does not read again the jobs the last one purged. Where it stops is written in the fire's transaction.
     */
    private long purgeFires(Connection connection, long[] remaining, Timestamp cutoff) throws SQLException {
        String start = FireHorizon.walkResumesAfter(connection);
        Walk walk = walk(connection, remaining, cutoff, start, null);
        long count = walk.deleted();
        if (walk.stoppedAfter() == null && !start.isEmpty()) {
            // round to the first job, up to where this fire began
            walk = walk(connection, remaining, cutoff, "", start);
            count += walk.deleted();
        }
        String resumeAfter = walk.stoppedAfter() == null ? "" : walk.stoppedAfter();
        if (!resumeAfter.equals(start)) {
            FireHorizon.walkResumes(connection, resumeAfter);
        }
        return count;
    }

    /**
     * @param deleted the ledger rows deleted
     * @param stoppedAfter where the next walk starts, when the cap stopped this one: after the last slice finished;
     *     null when it went through
     */
    private record Walk(long deleted, String stoppedAfter) {
    }

    /** The ledger's jobs after {@code after} and up to {@code until} (null: to the last), a slice at a time. */
    private Walk walk(Connection connection, long[] remaining, Timestamp cutoff, String after, String until)
            throws SQLException {
        long count = 0;
        while (after != null) {
            if (remaining[0] == 0) {
                return new Walk(count, after);
            }
            FireHorizon.Bounds slice = FireHorizon.purgeBounds(connection, cutoff, properties.keepLastFires(), after,
                    until, jobsPerSlice);
            Map<String, Timestamp> bounds = new LinkedHashMap<>(slice.bounds());
            if (!bounds.isEmpty()) {
                // committed before anything is deleted: a claim that finds a deleted row then reads the moved horizon
                try (Connection own = dataSource.getConnection()) {
                    own.setAutoCommit(true);
                    FireHorizon.advance(own, bounds);
                }
                Map<String, Timestamp> left = new LinkedHashMap<>(bounds);
                FireHorizon.Purged purged;
                int limit;
                do {
                    limit = (int) Math.min(properties.batchSize(), remaining[0]);
                    purged = FireHorizon.purgeFires(connection, left, limit);
                    count += purged.rows();
                    remaining[0] -= purged.rows();
                    // the jobs before the furthest one have nothing left that is not held: the next statement does
                    // not walk their rows (deleted, but still in the index until this transaction ends) again
                    dropBefore(left, purged.furthest());
                } while (purged.rows() == limit && remaining[0] > 0);
                if (remaining[0] == 0) {
                    // stopped inside the slice, at the furthest job that lost a row: the next fire starts there
                    return new Walk(count, resumePoint(bounds, purged.furthest(), after));
                }
            }
            after = slice.last();
        }
        return new Walk(count, null);
    }

    /** Removes the jobs before {@code furthest} from {@code jobs}, in their order; none when it is null. */
    private static void dropBefore(Map<String, Timestamp> jobs, String furthest) {
        if (furthest == null) {
            return;
        }
        var names = jobs.keySet().iterator();
        while (names.hasNext() && !names.next().equals(furthest)) {
            names.remove();
        }
    }

    /**
     * @return the job after which a walk stopped at {@code furthest} goes on, so that {@code furthest} is read again:
     *     the job of {@code bounds} before it, or the slice's start when it is the first (or none lost a row)
     */
    private static String resumePoint(Map<String, Timestamp> bounds, String furthest, String sliceStart) {
        String previous = sliceStart;
        for (String job : bounds.keySet()) {
            if (job.equals(furthest)) {
                return previous;
            }
            previous = job;
        }
        return sliceStart;
    }

    /** Deletes batches of one table until none is left or the cap. */
    private long batches(Connection connection, Purge purge, long[] remaining, Timestamp before) throws SQLException {
        long count = 0;
        int batch;
        int limit;
        do {
            limit = (int) Math.min(properties.batchSize(), remaining[0]);
            if (limit == 0) {
                return count;
            }
            batch = purge.delete(connection, before, limit);
            count += batch;
            remaining[0] -= batch;
        } while (batch == limit);
        return count;
    }
}
