package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.scheduler.engine.fire.FireRequest;
import dev.onebeat.scheduler.engine.fire.FireTrigger;
import dev.onebeat.scheduler.engine.fire.Missed;
import dev.onebeat.scheduler.engine.fire.ScheduleFire;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import java.time.Clock;
import java.time.Instant;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The Quartz job of every schedule's trigger: works out the instant the fire stands for and fires the
 * schedule's jobs for it ({@link ScheduleFire}). Quartz may run it for several schedules, and for two
 * instants of one schedule, at once: each job's own lock keeps two fires of one job apart. A replica
 * dying during it makes a survivor run it again for the same instant (Quartz recovery).
 */
public class ScheduleFireJob implements org.quartz.Job {

    private static final Logger log = LoggerFactory.getLogger(ScheduleFireJob.class);

    private final ScheduleFire fire;
    private final ScheduleTriggers triggers;
    private final TransactionTemplate transactions;
    private final Clock clock;

    public ScheduleFireJob(ScheduleFire fire, ScheduleTriggers triggers, TransactionTemplate transactions, Clock clock) {
        this.fire = fire;
        this.triggers = triggers;
        this.transactions = transactions;
        this.clock = clock;
    }

    @Override
    public void execute(JobExecutionContext context) {
        JobDataMap data = context.getMergedJobDataMap();
        boolean recovering = context.isRecovering();
        String key = recovering ? data.getString(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_NAME)
                : context.getTrigger().getKey().getName();
        TimetableTrigger schedule = scheduleTrigger(context, key);
        if (schedule == null) {
            log.warn("schedule gone before its fire ran key={} recovering={}", key, recovering);
            return;
        }
        Timetable timetable = schedule.timetable();
        Instant quartzTime = quartzTime(context);
        Instant scheduledAt = LogicalInstants.ofFireTime(timetable, quartzTime);
        FireTrigger trigger = recovering ? FireTrigger.RECOVERY
                : TimetableTrigger.isFireTime(timetable, quartzTime) ? FireTrigger.SCHEDULED : FireTrigger.MISFIRE;
        Missed missed = MissedInstants.of(schedule, quartzTime, scheduledAt);
        awaitInstant(scheduledAt);
        ScheduleFire.Outcome outcome = fire.fire(key, FireRequest.of(scheduledAt, trigger, node(context)), missed);
        if (!outcome.unregistered().isEmpty()) {
            QuartzWork.inTransaction(transactions, () -> {
                HandBack.toCluster(context.getScheduler(), outcome.unregistered(), scheduledAt, clock);
                return null;
            });
        }
        if (outcome.members() == 0 && !recovering) {
            triggers.removeIfUnused(key, scheduledAt);
        }
    }

    /**
     * Waits until the instant, on the clock Quartz fires by: the trigger fired {@link TimetableTrigger#LEAD}
     * early so that Quartz's own work for it is done, and a fire starts no earlier than its instant. Not
     * interruptible: a fire that has begun finishes, as Quartz expects of a job at shutdown.
     */
    static void awaitInstant(Instant instant) {
        boolean interrupted = false;
        long until = Math.min(instant.toEpochMilli(), System.currentTimeMillis() + TimetableTrigger.LEAD.toMillis());
        try {
            for (long left = until - System.currentTimeMillis(); left > 0; left = until - System.currentTimeMillis()) {
                try {
                    Thread.sleep(left);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** @return the schedule's trigger: the one Quartz fired, or for a recovery the one stored; null if gone */
    private static TimetableTrigger scheduleTrigger(JobExecutionContext context, String key) {
        if (context.getTrigger() instanceof TimetableTrigger trigger) {
            return trigger;
        }
        try {
            return context.getScheduler().getTrigger(QuartzTriggers.scheduleTrigger(key)) instanceof TimetableTrigger stored
                    ? stored : null;
        } catch (SchedulerException e) {
            throw new IllegalStateException("cannot read the trigger of schedule " + key, e);
        }
    }

    /** The time Quartz fired the trigger at; for a recovery, the time of the fire that was interrupted. */
    static Instant quartzTime(JobExecutionContext context) {
        if (context.isRecovering()) {
            String original = context.getMergedJobDataMap()
                    .getString(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_SCHEDULED_FIRETIME_IN_MILLISECONDS);
            if (original != null) {
                return Instant.ofEpochMilli(Long.parseLong(original));
            }
        }
        return context.getScheduledFireTime().toInstant();
    }

    static String node(JobExecutionContext context) {
        try {
            return context.getScheduler().getSchedulerInstanceId();
        } catch (SchedulerException e) {
            return "unknown";
        }
    }
}
