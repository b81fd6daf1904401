package dev.onebeat.scheduler.quartz;

import dev.onebeat.scheduler.fire.FirePath;
import dev.onebeat.scheduler.fire.FireTrigger;
import dev.onebeat.scheduler.registry.JobRegistry;
import dev.onebeat.scheduler.registry.RegisteredJob;
import java.time.Instant;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Quartz job behind every onebeat job: finds the onebeat job by name and hands the fire to
 * {@link FirePath}. Non-concurrent, so Quartz itself fires one instant of a job at a time across
 * the cluster, in step with the job's lock. A one-shot "trigger now" trigger carries the instant it
 * was requested for, and fires as {@link FireTrigger#MANUAL} for that instant.
 */
@DisallowConcurrentExecution
public class QuartzFireJob implements Job {

    private static final Logger log = LoggerFactory.getLogger(QuartzFireJob.class);

    private final JobRegistry registry;
    private final FirePath firePath;

    public QuartzFireJob(JobRegistry registry, FirePath firePath) {
        this.registry = registry;
        this.firePath = firePath;
    }

    @Override
    public void execute(JobExecutionContext context) {
        String name = context.getJobDetail().getKey().getName();
        RegisteredJob job = registry.find(name).orElse(null);
        Instant quartzTime = quartzScheduledTime(context);
        if (job == null) {
            HandBack.toCluster(context, quartzTime);
            return;
        }
        if (context.getMergedJobDataMap().containsKey(QuartzTriggers.MANUAL_TIME)) {
            Instant requested = Instant.ofEpochMilli(context.getMergedJobDataMap().getLong(QuartzTriggers.MANUAL_TIME));
            firePath.fire(job.job(), requested, context.isRecovering() ? FireTrigger.RECOVERY : FireTrigger.MANUAL,
                    node(context));
            return;
        }
        Instant scheduledAt = LogicalInstants.of(job.job().schedule(), quartzTime);
        FireTrigger trigger = context.isRecovering() || HandBack.isHandedBack(context) ? FireTrigger.RECOVERY
                : scheduledAt.equals(quartzTime) ? FireTrigger.SCHEDULED : FireTrigger.MISFIRE;
        firePath.fire(job.job(), scheduledAt, trigger, node(context));
    }

    private static Instant quartzScheduledTime(JobExecutionContext context) {
        if (HandBack.isHandedBack(context)) {
            return HandBack.originalTime(context);
        }
        if (context.isRecovering()) {
            String original = context.getMergedJobDataMap()
                    .getString(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_SCHEDULED_FIRETIME_IN_MILLISECONDS);
            if (original != null) {
                return Instant.ofEpochMilli(Long.parseLong(original));
            }
        }
        return context.getScheduledFireTime().toInstant();
    }

    private static String node(JobExecutionContext context) {
        try {
            return context.getScheduler().getSchedulerInstanceId();
        } catch (SchedulerException e) {
            return "unknown";
        }
    }
}
