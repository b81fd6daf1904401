package dev.onebeat.scheduler.engine.registry;

import dev.onebeat.job.AlertPolicy;
import dev.onebeat.job.CalendarPolicy;
import dev.onebeat.job.JobContext;
import dev.onebeat.job.MisfirePolicy;
import dev.onebeat.job.OverlapPolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.RetryPolicy;
import dev.onebeat.job.Schedule;
import java.time.Duration;

/**
 * A job defined in code or configuration, running on a schedule stored through the admin API instead
 * of its own. Its name, lock, jitter, spread, calendars and body are the original's, so its keys are unchanged.
 */
record Rescheduled(PeriodicJob original, Schedule schedule, MisfirePolicy misfirePolicy) implements PeriodicJob {

    @Override
    public String name() {
        return original.name();
    }

    @Override
    public Duration lockAtMostFor() {
        return original.lockAtMostFor();
    }

    @Override
    public RetryPolicy retry() {
        return original.retry();
    }

    @Override
    public Duration catchUpWindow() {
        return original.catchUpWindow();
    }

    @Override
    public int maxCatchUp() {
        return original.maxCatchUp();
    }

    @Override
    public OverlapPolicy overlapPolicy() {
        return original.overlapPolicy();
    }

    @Override
    public AlertPolicy alerts() {
        return original.alerts();
    }

    @Override
    public Duration jitter() {
        return original.jitter();
    }

    @Override
    public Duration spread() {
        return original.spread();
    }

    @Override
    public CalendarPolicy calendars() {
        return original.calendars();
    }

    @Override
    public String namespace() {
        return original.namespace();
    }

    @Override
    public void run(JobContext context) throws Exception {
        original.run(context);
    }
}
