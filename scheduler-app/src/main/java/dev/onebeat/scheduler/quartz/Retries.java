package dev.onebeat.scheduler.quartz;

import dev.onebeat.scheduler.fire.RetryScheduler;
import java.time.Instant;
import java.util.Date;
import org.quartz.JobDataMap;
import org.quartz.ObjectAlreadyExistsException;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.TriggerBuilder;
import org.springframework.stereotype.Component;

/**
 * The next attempts of failed fires, as one-shot Quartz triggers of {@link SingleFireJob} (group
 * {@value #GROUP}), stored in the caller's transaction: any replica registering the job fires it when it
 * is due, the replica that failed included or not, and a replica dying during it leaves it to Quartz's
 * recovery. The trigger is named by job, instant and attempt, so one attempt is armed once.
 */
@Component
class Retries implements RetryScheduler {

    static final String GROUP = "onebeat-retry";
    /** Trigger data key: the instant (epoch millis) the retried fire stands for. */
    static final String INSTANT = "onebeat.retry.instant";
    /** Trigger data key: the attempt this trigger makes, from 2. */
    static final String ATTEMPT = "onebeat.retry.attempt";

    private final Scheduler scheduler;

    Retries(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    static boolean isRetry(JobDataMap data) {
        return data.containsKey(ATTEMPT);
    }

    static Instant instant(JobDataMap data) {
        return Instant.ofEpochMilli(data.getLong(INSTANT));
    }

    static int attempt(JobDataMap data) {
        return data.getInt(ATTEMPT);
    }

    @Override
    public void schedule(String job, Instant scheduledAt, int attempt, Instant at) {
        try {
            scheduler.scheduleJob(TriggerBuilder.newTrigger()
                    .withIdentity(job + "@" + scheduledAt.toEpochMilli() + "#" + attempt, GROUP)
                    .forJob(QuartzTriggers.SINGLE_JOB)
                    .usingJobData(QuartzTriggers.JOB_NAME, job)
                    .usingJobData(INSTANT, scheduledAt.toEpochMilli())
                    .usingJobData(ATTEMPT, attempt)
                    .startAt(Date.from(at))
                    .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
                    .build());
        } catch (ObjectAlreadyExistsException e) {
            // armed before, by a fire of this attempt that a recovery repeated
        } catch (SchedulerException e) {
            throw new IllegalStateException("could not arm attempt " + attempt + " of job '" + job + "' at "
                    + scheduledAt + ": " + e.getMessage(), e);
        }
    }
}
