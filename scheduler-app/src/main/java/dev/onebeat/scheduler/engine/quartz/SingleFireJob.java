package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.scheduler.engine.fire.FirePath;
import dev.onebeat.scheduler.engine.fire.FireRequest;
import dev.onebeat.scheduler.engine.fire.FireTrigger;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import java.time.Clock;
import java.time.Instant;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The Quartz job of one-shot triggers that fire one job: a "trigger now" request, fired as
 * {@link FireTrigger#MANUAL} for the instant it was requested for, and a fire handed back to the
 * cluster ({@link HandBack}), fired for the instant it stands for; the next attempt of a failed fire
 * ({@link Retries}), fired as {@link FireTrigger#RETRY} for its instant. A replica that does not register
 * the job hands it back again.
 */
public class SingleFireJob implements org.quartz.Job {

    private final JobRegistry registry;
    private final FirePath firePath;
    private final TransactionTemplate transactions;
    private final Clock clock;

    public SingleFireJob(JobRegistry registry, FirePath firePath, TransactionTemplate transactions, Clock clock) {
        this.registry = registry;
        this.firePath = firePath;
        this.transactions = transactions;
        this.clock = clock;
    }

    @Override
    public void execute(JobExecutionContext context) {
        JobDataMap data = context.getMergedJobDataMap();
        String name = data.getString(QuartzTriggers.JOB_NAME);
        boolean manual = data.containsKey(QuartzTriggers.MANUAL_TIME);
        boolean retry = Retries.isRetry(data);
        Instant scheduledAt = retry ? Retries.instant(data) : HandBack.isHandedBack(data) ? HandBack.instant(data)
                : Instant.ofEpochMilli(data.getLong(QuartzTriggers.MANUAL_TIME));
        RegisteredJob job = registry.find(name).orElse(null);
        if (job == null) {
            QuartzWork.inTransaction(transactions, () -> {
                HandBack.again(context, name, scheduledAt, clock);
                return null;
            });
            return;
        }
        if (retry) {
            firePath.fire(job.job(), Retries.request(data, ScheduleFireJob.node(context)));
            return;
        }
        FireTrigger trigger = context.isRecovering() ? FireTrigger.RECOVERY
                : manual ? FireTrigger.MANUAL : FireTrigger.RECOVERY;
        // a request made before runs had their own key space carries no run: it keeps the instant's slot
        String run = manual && data.containsKey(QuartzTriggers.MANUAL_RUN) ? data.getString(QuartzTriggers.MANUAL_RUN)
                : null;
        firePath.fire(job.job(), FireRequest.of(scheduledAt, trigger, ScheduleFireJob.node(context)).withRun(run));
    }
}
