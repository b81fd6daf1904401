package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.scheduler.engine.fire.FireRequest;
import dev.onebeat.scheduler.engine.fire.FireTrigger;
import dev.onebeat.scheduler.engine.fire.ScheduleFire;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The Quartz job of the one-shot triggers that hand back the lost fires of many jobs for one instant ({@link
 * HandBack#recover}, made by {@link LostFires}): fires them together, as recoveries, by the batch path ({@link
 * ScheduleFire#fireHandedBack}), and hands the jobs this replica does not register back one by one, as in a rolling
 * deploy. A Quartz job of its own, not {@link SingleFireJob}: a replica of a version before it cannot load its class,
 * so Quartz leaves the trigger in its ERROR state instead of firing it as a single fire it would not understand, and
 * {@link StrandedTriggers} on a newer replica puts it back.
 */
public class LostFiresJob implements org.quartz.Job {

    private static final Logger log = LoggerFactory.getLogger(LostFiresJob.class);

    private final ScheduleFire fire;
    private final TransactionTemplate transactions;
    private final Clock clock;

    public LostFiresJob(ScheduleFire fire, TransactionTemplate transactions, Clock clock) {
        this.fire = fire;
        this.transactions = transactions;
        this.clock = clock;
    }

    @Override
    public void execute(JobExecutionContext context) {
        JobDataMap data = context.getMergedJobDataMap();
        Instant scheduledAt = HandBack.instant(data);
        List<String> jobs = HandBack.jobs(data);
        List<String> unregistered;
        try {
            unregistered = fire.fireHandedBack(jobs, FireRequest.of(scheduledAt, FireTrigger.RECOVERY,
                    ScheduleFireJob.node(context)));
        } catch (RuntimeException e) {
            // the fires report their own failures: this is the instant's reads failing (its calendars, say), after
            // some of its jobs may have committed. The trigger ends with this fire; the look's later rounds, if any
            // is left, hand back what did not commit, and the missed-fire detector reports what stays unfired
            log.error("lost fires handed back together not all fired scheduledAt={} jobs={} error={}", scheduledAt,
                    jobs.size(), e.toString(), e);
            return;
        }
        if (unregistered.isEmpty()) {
            return;
        }
        try {
            // in one transaction, each as a single fire of its own: all are handed back, or none and all are counted
            QuartzWork.inTransaction(transactions, () -> {
                for (String job : unregistered) {
                    HandBack.recoverAlone(context.getScheduler(), job, scheduledAt, clock);
                }
                return null;
            });
            log.warn("jobs not registered on this replica, lost fires handed back to the cluster one by one "
                    + "scheduledAt={} jobs={}", scheduledAt, unregistered.size() <= 10 ? unregistered
                    : unregistered.size());
        } catch (RuntimeException e) {
            log.error("fires lost: could not hand them back scheduledAt={} jobs={} error={}", scheduledAt,
                    unregistered.size() <= 10 ? unregistered : unregistered.size(), e.toString(), e);
            HandBack.lost(unregistered.size());
        }
    }
}
