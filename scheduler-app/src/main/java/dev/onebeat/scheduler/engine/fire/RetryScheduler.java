package dev.onebeat.scheduler.engine.fire;

import java.time.Instant;

/**
 * Arms the next attempt of a failed fire where every replica can see it, so that it runs even if the
 * replica that failed dies first. Quartz's job store does it ({@code dev.onebeat.scheduler.engine.quartz.Retries}).
 */
public interface RetryScheduler {

    /**
     * Arms attempt {@code attempt} of (job, instant, run), in the caller's transaction.
     *
     * @param run the run outside the schedule, or null for the schedule's fire
     * @param at when it may start
     * @param byOperator whether the failed attempt was one an operator asked for (a re-run or a backfill of the
     *     instant): the next one fires as such too ({@link FireTrigger#BACKFILL}), not as a retry of the schedule's fire
     */
    void schedule(String job, Instant scheduledAt, String run, int attempt, Instant at, boolean byOperator);
}
