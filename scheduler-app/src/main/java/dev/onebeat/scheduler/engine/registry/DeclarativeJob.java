package dev.onebeat.scheduler.engine.registry;

import dev.onebeat.job.AlertPolicy;
import dev.onebeat.job.CalendarPolicy;
import dev.onebeat.job.JobContext;
import dev.onebeat.job.MisfirePolicy;
import dev.onebeat.job.OverlapPolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.RetryPolicy;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import java.time.Duration;
import java.time.Instant;

/**
 * A job defined by data alone (an {@code onebeat.jobs[]} entry or a runtime job): each fire dispatches
 * its one task and runs no user code, so its fires are known to be short and can share a transaction.
 *
 * @param name unique job name
 * @param schedule when it fires
 * @param misfirePolicy what happens to missed instants
 * @param lockAtMostFor the job lock's safety limit
 * @param retry how a failed fire is tried again
 * @param catchUpWindow how old an instant may be and still be fired
 * @param maxCatchUp how many missed instants {@code FIRE_ALL_MISSED} fires after an outage
 * @param overlapPolicy what an instant due while an earlier fire of the job runs does
 * @param alerts when an instant is missed and which events are sent
 * @param jitter how far past each instant its fire may move, a different offset at each instant
 * @param spread the window its schedule's members fire over, each at its own fixed offset
 * @param calendars the calendars it fires inside or not, and its active period
 * @param task the task each fire dispatches
 * @param templates its arguments' placeholders, filled from each fire's instant; {@code null} when they hold none
 * @param namespace the namespace it belongs to
 */
record DeclarativeJob(String name, Schedule schedule, MisfirePolicy misfirePolicy, Duration lockAtMostFor,
                      RetryPolicy retry, Duration catchUpWindow, int maxCatchUp,
                      OverlapPolicy overlapPolicy, AlertPolicy alerts, Duration jitter, Duration spread,
                      CalendarPolicy calendars, TaskRequest task,
                      ArgumentTemplates templates, String namespace) implements PeriodicJob {

    @Override
    public void run(JobContext context) {
        if (templates == null) {
            context.dispatch(task);
            return;
        }
        Instant at = context.scheduledAt();
        context.dispatch(new TaskRequest(task.task(), task.queue(), task.entity(), templates.args(at),
                templates.kwargs(at), task.notBefore(), task.delivery()));
    }
}
