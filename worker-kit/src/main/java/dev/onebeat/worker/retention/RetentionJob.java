package dev.onebeat.worker.retention;

import dev.onebeat.job.JobContext;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import java.time.Duration;
import java.util.Objects;

/**
 * {@link Retention} as a onebeat periodic job, for services whose worker tables live in the
 * scheduler's database.
 *
 * <p>A fire purges on the fire's own connection, so all its deletes commit in the fire's single
 * transaction; that is why a fire deletes at most {@code maxRowsPerFire} rows. A backlog larger
 * than that is worked off over the following fires (or once, by {@link Retention#purge(
 * javax.sql.DataSource, Duration, int)}). The horizon is the fire's scheduled instant minus
 * {@code olderThan}, not the wall clock, so a late or re-run fire deletes the same rows.
 *
 * @param olderThan the age past which rows go; positive
 * @param batchSize rows per delete statement, 1 to 100,000
 * @param maxRowsPerFire the most rows one fire deletes; positive
 * @param schedule when the job fires
 */
public record RetentionJob(Duration olderThan, int batchSize, long maxRowsPerFire, Schedule schedule)
        implements PeriodicJob {

    /** The job's name. */
    public static final String NAME = "onebeat-retention";

    /** Every day at 03:30 UTC. */
    public static final Schedule DAILY = Schedule.cron("0 30 3 * * ?");

    public RetentionJob {
        Retention.checkAge(olderThan);
        Retention.checkBatchSize(batchSize);
        if (maxRowsPerFire < 1) {
            throw new IllegalArgumentException("maxRowsPerFire must be positive, was " + maxRowsPerFire);
        }
        Objects.requireNonNull(schedule, "schedule must not be null");
    }

    /**
     * @param olderThan the age past which rows go
     * @return a job firing {@link #DAILY}, deleting up to 100,000 rows per fire in batches of 1,000
     */
    public static RetentionJob daily(Duration olderThan) {
        return new RetentionJob(olderThan, 1_000, 100_000, DAILY);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Duration lockAtMostFor() {
        return Duration.ofMinutes(10);
    }

    @Override
    public void run(JobContext context) {
        Retention.purge(context.connection(), context.scheduledAt().minus(olderThan), batchSize, maxRowsPerFire);
    }
}
