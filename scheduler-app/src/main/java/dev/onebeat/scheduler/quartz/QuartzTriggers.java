package dev.onebeat.scheduler.quartz;

import dev.onebeat.job.MisfirePolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.TimeZone;
import org.quartz.CalendarIntervalScheduleBuilder;
import org.quartz.CalendarIntervalTrigger;
import org.quartz.CronScheduleBuilder;
import org.quartz.CronTrigger;
import org.quartz.DateBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.ScheduleBuilder;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;
import org.quartz.TriggerUtils;
import org.quartz.spi.OperableTrigger;

/** Builds the Quartz job and trigger of a onebeat job. */
public final class QuartzTriggers {

    /** Quartz group of every onebeat job and trigger. */
    public static final String GROUP = "onebeat";
    /** Trigger data key holding {@link #signature}: equal signatures mean the same fire instants. */
    static final String SIGNATURE = "onebeat.signature";
    /** Job data key set while a job is paused because no replica registers it any more. */
    static final String ORPHANED = "onebeat.orphaned";
    /** Quartz group of the one-shot triggers of "trigger now" requests. */
    static final String MANUAL_GROUP = "onebeat-manual";
    /** Trigger data key of a manual fire: the instant (epoch millis) it fires for. */
    static final String MANUAL_TIME = "onebeat.manual.scheduledAt";

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
        return scheduled(TriggerBuilder.newTrigger()
                .withIdentity(triggerKey(job.name()))
                .forJob(jobKey(job.name()))
                .usingJobData(SIGNATURE, signature(job)), job.schedule(), job.misfirePolicy(), now);
    }

    /**
     * A one-shot trigger firing {@code job} as soon as a replica is free, for {@code scheduledAt}. Stored in
     * the caller's transaction, so it exists exactly when the request that made it was committed.
     *
     * @param name unique per request (the request id)
     */
    public static Trigger manual(String job, String name, Instant scheduledAt) {
        return TriggerBuilder.newTrigger()
                .withIdentity(name, MANUAL_GROUP)
                .forJob(jobKey(job))
                .usingJobData(MANUAL_TIME, scheduledAt.toEpochMilli())
                .startNow()
                .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
                .build();
    }

    /**
     * The instants Quartz would fire {@code schedule} at, computed by the trigger a job with that
     * schedule gets, so daylight-saving gaps and overlaps come out as they will in production.
     *
     * @return the first {@code count} instants a trigger created at {@code from} fires at (an interval's
     *         first instant is the next multiple of it after {@code from}; a cron instant equal to
     *         {@code from} is included), fewer if the schedule ends
     */
    public static List<Instant> fireTimes(Schedule schedule, Instant from, int count) {
        Trigger trigger = scheduled(TriggerBuilder.newTrigger(), schedule, MisfirePolicy.FIRE_ONCE_NOW, from);
        return TriggerUtils.computeFireTimes((OperableTrigger) trigger, null, count).stream()
                .map(Date::toInstant)
                .toList();
    }

    private static Trigger scheduled(TriggerBuilder<Trigger> builder, Schedule schedule, MisfirePolicy policy,
                                     Instant now) {
        if (schedule instanceof Schedule.Interval interval) {
            long seconds = interval.interval().getSeconds();
            // aligned to the epoch, so every replica and every restart computes the same instants
            long start = Math.floorDiv(now.getEpochSecond() + seconds, seconds) * seconds;
            return builder.startAt(Date.from(Instant.ofEpochSecond(start)))
                    .withSchedule(intervalSchedule((int) seconds, policy))
                    .build();
        }
        Schedule.Cron cron = (Schedule.Cron) schedule;
        return builder.startAt(Date.from(now))
                .withSchedule(cronSchedule(cron, policy))
                .build();
    }

    /**
     * @return the schedule a stored trigger runs, written as {@link Schedule#describe()} writes it
     *         ({@code cron 0 0 8 ? * MON-FRI Europe/Paris}, {@code every 10s}); null for a one-shot trigger
     */
    public static String describe(Trigger trigger) {
        if (trigger instanceof CronTrigger cron) {
            return "cron " + cron.getCronExpression() + " " + cron.getTimeZone().getID();
        }
        if (trigger instanceof CalendarIntervalTrigger interval
                && interval.getRepeatIntervalUnit() == DateBuilder.IntervalUnit.SECOND) {
            return "every " + interval.getRepeatInterval() + "s";
        }
        return null;
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
