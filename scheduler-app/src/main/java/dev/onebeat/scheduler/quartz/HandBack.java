package dev.onebeat.scheduler.quartz;

import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a replica does with a fire of a job it does not register (during a rolling deploy, an older
 * replica may acquire the trigger of a job only newer replicas know). Skipping would lose the
 * instant; instead the replica hands it back to the cluster as a one-shot trigger carrying the
 * original fire time, which any replica may pick up. The one that registers the job fires it with
 * that time, so the keys are those of an on-time fire; the ledger stops any second fire.
 */
final class HandBack {

    private static final Logger log = LoggerFactory.getLogger(HandBack.class);

    static final String GROUP = "onebeat-handback";
    static final String ORIGINAL_TIME = "onebeat.handback.originalTime";
    static final String ATTEMPT = "onebeat.handback.attempt";
    /** About two minutes of hand-backs before the instant is given up, loudly. */
    static final int MAX_ATTEMPTS = 120;
    private static final Duration DELAY = Duration.ofSeconds(1);

    private HandBack() {
    }

    static boolean isHandedBack(JobExecutionContext context) {
        return context.getMergedJobDataMap().containsKey(ORIGINAL_TIME);
    }

    static Instant originalTime(JobExecutionContext context) {
        return Instant.ofEpochMilli(context.getMergedJobDataMap().getLong(ORIGINAL_TIME));
    }

    static void toCluster(JobExecutionContext context, Instant quartzTime) {
        String job = context.getJobDetail().getKey().getName();
        JobDataMap data = context.getMergedJobDataMap();
        int attempt = data.containsKey(ATTEMPT) ? data.getInt(ATTEMPT) + 1 : 1;
        if (attempt > MAX_ATTEMPTS) {
            log.error("fire lost: no replica registering the job took it job={} quartzTime={} attempts={}", job,
                    quartzTime, MAX_ATTEMPTS);
            return;
        }
        JobDataMap retryData = new JobDataMap();
        retryData.put(ORIGINAL_TIME, quartzTime.toEpochMilli());
        retryData.put(ATTEMPT, attempt);
        if (data.containsKey(QuartzTriggers.MANUAL_TIME)) {
            // a "trigger now" keeps the instant it was requested for, wherever it ends up firing
            retryData.put(QuartzTriggers.MANUAL_TIME, data.getLong(QuartzTriggers.MANUAL_TIME));
        }
        Trigger retry = TriggerBuilder.newTrigger()
                .withIdentity(job + "@" + quartzTime.toEpochMilli() + "#" + attempt, GROUP)
                .forJob(context.getJobDetail().getKey())
                .usingJobData(retryData)
                .startAt(Date.from(Instant.now().plus(DELAY)))
                .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
                .build();
        try {
            context.getScheduler().scheduleJob(retry);
            if (attempt == 1) {
                log.warn("job not registered on this replica, fire handed back to the cluster job={} quartzTime={}",
                        job, quartzTime);
            } else {
                log.debug("fire handed back again job={} quartzTime={} attempt={}", job, quartzTime, attempt);
            }
        } catch (SchedulerException e) {
            log.error("fire lost: could not hand it back job={} quartzTime={} error={}", job, quartzTime, e.toString(), e);
        }
    }
}
