package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.job.MisfirePolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import java.time.Instant;
import java.util.Date;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;

/**
 * The Quartz objects of onebeat: three durable Quartz jobs for the whole cluster, and triggers.
 *
 * <ul>
 *   <li>one {@link TimetableTrigger} per schedule of jobs defined by data (group {@value #SCHEDULE_GROUP},
 *       named by the schedule key), firing {@link ScheduleFireJob}, which fires every job of that
 *       schedule;</li>
 *   <li>one {@link TimetableTrigger} per job written in code, in the same group, firing the same Quartz job
 *       for that one job; two of its instants may meet in Quartz, and the job's overlap policy decides
 *       (earlier versions gave each such job a Quartz job of its own, {@link SerialFireJob} in group
 *       {@value #SERIAL_GROUP}, which Quartz never ran twice at once; migration 012 moves their triggers to the shared one);</li>
 *   <li>one-shot triggers firing {@link SingleFireJob} for one job: "trigger now" requests (group
 *       {@value #MANUAL_GROUP}) and fires handed back to the cluster ({@link HandBack}).</li>
 * </ul>
 */
public final class QuartzTriggers {

    /** Quartz group of the schedules' triggers. */
    public static final String SCHEDULE_GROUP = "onebeat-schedule";
    /** Quartz group of the Quartz jobs that earlier versions made for jobs written in code, one each. */
    static final String SERIAL_GROUP = "onebeat-job";
    /** Quartz group of onebeat's Quartz jobs. */
    static final String ENGINE_GROUP = "onebeat-engine";
    /** The Quartz job every schedule's trigger fires. */
    static final JobKey SCHEDULE_JOB = JobKey.jobKey("schedule", ENGINE_GROUP);
    /** The Quartz job the one-shot triggers of single fires fire. */
    static final JobKey SINGLE_JOB = JobKey.jobKey("single", ENGINE_GROUP);
    /** The Quartz job the one-shot triggers of lost fires handed back together fire ({@link LostFiresJob}). */
    static final JobKey LOST_JOB = JobKey.jobKey("lost", ENGINE_GROUP);
    /** Quartz group of the one Quartz job and trigger per onebeat job that versions before 0.2 stored. */
    static final String LEGACY_GROUP = "onebeat";
    /** Quartz group of the one-shot triggers of "trigger now" requests. */
    static final String MANUAL_GROUP = "onebeat-manual";
    /** Trigger data key of a single fire: the job's name. */
    static final String JOB_NAME = "onebeat.job";
    /** Trigger data key of a manual fire: the instant (epoch millis) it fires for. */
    static final String MANUAL_TIME = "onebeat.manual.scheduledAt";
    /** Trigger data key of a manual fire: its request id, the run its ledger row and task keys belong to. */
    static final String MANUAL_RUN = "onebeat.manual.run";

    private QuartzTriggers() {
    }

    /** @return the trigger of the schedule with that key */
    public static TriggerKey scheduleTrigger(String scheduleKey) {
        return TriggerKey.triggerKey(scheduleKey, SCHEDULE_GROUP);
    }

    static JobDetail scheduleJob() {
        return engineJob(SCHEDULE_JOB, ScheduleFireJob.class, "fires every job of a schedule at its instants");
    }

    static JobDetail singleJob() {
        return engineJob(SINGLE_JOB, SingleFireJob.class, "fires one job: trigger now, fires handed back");
    }

    /**
     * Not marked to request recovery, unlike the other two: a replica of an older version recovering a dead replica's
     * fire of it would store a recovery trigger for a job whose class it cannot load, which fails its whole recovery
     * of that replica. A replica dying while it fires one leaves the jobs not fired yet to the look's later rounds.
     */
    static JobDetail lostJob() {
        return JobBuilder.newJob(LostFiresJob.class)
                .withIdentity(LOST_JOB)
                .withDescription("fires the lost fires of many jobs for one instant, together")
                .storeDurably()
                .build();
    }

    private static JobDetail engineJob(JobKey key, Class<? extends org.quartz.Job> type, String description) {
        return JobBuilder.newJob(type)
                .withIdentity(key)
                .withDescription(description)
                .storeDurably()
                // a replica dying mid-fire makes a survivor re-run the fire with its original scheduled time
                .requestRecovery()
                .build();
    }

    /**
     * The trigger {@code job} fires from, first firing at its first instant after {@code now}.
     *
     * @param scheduleKey the trigger's key ({@link dev.onebeat.scheduler.engine.registry.ScheduleKeys#key})
     * @param quartzJob the Quartz job it fires: {@link #SCHEDULE_JOB}
     */
    static Trigger schedule(String scheduleKey, PeriodicJob job, JobKey quartzJob, Instant now) {
        return TriggerBuilder.newTrigger()
                .withIdentity(scheduleTrigger(scheduleKey))
                .forJob(quartzJob)
                .withDescription(job.schedule().describe() + " misfire=" + job.misfirePolicy())
                .startAt(Date.from(now))
                .withSchedule(new TimetableScheduleBuilder(job.schedule().describe(), misfire(job.misfirePolicy())))
                .build();
    }

    private static int misfire(MisfirePolicy policy) {
        return switch (policy) {
            case FIRE_ONCE_NOW -> TimetableTrigger.MISFIRE_FIRE_ONCE_NOW;
            case FIRE_ALL_MISSED -> TimetableTrigger.MISFIRE_CATCH_UP;
            case SKIP_MISSED -> TimetableTrigger.MISFIRE_DO_NOTHING;
        };
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
                .forJob(SINGLE_JOB)
                .usingJobData(JOB_NAME, job)
                .usingJobData(MANUAL_TIME, scheduledAt.toEpochMilli())
                .usingJobData(MANUAL_RUN, name)
                .startNow()
                .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
                .build();
    }

    /**
     * @return the schedule a stored trigger fires, written as {@link Schedule#describe()} writes it
     *         ({@code cron 0 0 8 ? * MON-FRI Europe/Paris}, {@code every 10s}); null for a one-shot trigger
     */
    public static String describe(Trigger trigger) {
        return trigger instanceof TimetableTrigger timetable ? timetable.schedule() : null;
    }
}
