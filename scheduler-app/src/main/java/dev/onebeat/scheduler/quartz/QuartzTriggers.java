package dev.onebeat.scheduler.quartz;

import dev.onebeat.job.MisfirePolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import java.time.Instant;
import java.util.Date;
import java.util.TimeZone;
import org.quartz.CalendarIntervalScheduleBuilder;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.ScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;

/** Builds the Quartz job and trigger of a onebeat job. */
public final class QuartzTriggers {

    /** Quartz group of every onebeat job and trigger. */
    public static final String GROUP = "onebeat";
    /** Trigger data key holding {@link #signature}: equal signatures mean the same fire instants. */
    static final String SIGNATURE = "onebeat.signature";
    /** Job data key set while a job is paused because no replica registers it any more. */
    static final String ORPHANED = "onebeat.orphaned";

    private QuartzTriggers() {
    }

    public static JobKey jobKey(String name) {
        return JobKey.jobKey(name, GROUP);
    }

    public static TriggerKey triggerKey(String name) {
        return TriggerKey.triggerKey(name, GROUP);
    }

    static String signature(PeriodicJob job) {
        return job.schedule().describe() + " misfire=" + job.misfirePolicy();
    }

    static JobDetail jobDetail(PeriodicJob job) {
        return JobBuilder.newJob(QuartzFireJob.class)
                .withIdentity(jobKey(job.name()))
                .withDescription(job.schedule().describe())
                .storeDurably()
                // a replica dying mid-fire makes a survivor re-run the fire with its original scheduled time
                .requestRecovery()
                .build();
    }

    static Trigger trigger(PeriodicJob job, Instant now) {
        TriggerBuilder<Trigger> builder = TriggerBuilder.newTrigger()
                .withIdentity(triggerKey(job.name()))
                .forJob(jobKey(job.name()))
                .usingJobData(SIGNATURE, signature(job));
        Schedule schedule = job.schedule();
        if (schedule instanceof Schedule.Interval interval) {
            long seconds = interval.interval().getSeconds();
            // aligned to the epoch, so every replica and every restart computes the same instants
            long start = Math.floorDiv(now.getEpochSecond() + seconds, seconds) * seconds;
            return builder.startAt(Date.from(Instant.ofEpochSecond(start)))
                    .withSchedule(intervalSchedule((int) seconds, job.misfirePolicy()))
                    .build();
        }
        Schedule.Cron cron = (Schedule.Cron) schedule;
        return builder.startAt(Date.from(now))
                .withSchedule(cronSchedule(cron, job.misfirePolicy()))
                .build();
    }

    private static ScheduleBuilder<?> intervalSchedule(int seconds, MisfirePolicy policy) {
        CalendarIntervalScheduleBuilder builder = CalendarIntervalScheduleBuilder.calendarIntervalSchedule()
                .withIntervalInSeconds(seconds);
        return switch (policy) {
            case FIRE_ONCE_NOW -> builder.withMisfireHandlingInstructionFireAndProceed();
            case FIRE_ALL_MISSED -> builder.withMisfireHandlingInstructionIgnoreMisfires();
            case SKIP_MISSED -> builder.withMisfireHandlingInstructionDoNothing();
        };
    }

    private static ScheduleBuilder<?> cronSchedule(Schedule.Cron cron, MisfirePolicy policy) {
        CronScheduleBuilder builder = CronScheduleBuilder.cronSchedule(cron.quartzExpression())
                .inTimeZone(TimeZone.getTimeZone(cron.zone()));
        return switch (policy) {
            case FIRE_ONCE_NOW -> builder.withMisfireHandlingInstructionFireAndProceed();
            case FIRE_ALL_MISSED -> builder.withMisfireHandlingInstructionIgnoreMisfires();
            case SKIP_MISSED -> builder.withMisfireHandlingInstructionDoNothing();
        };
    }
}
