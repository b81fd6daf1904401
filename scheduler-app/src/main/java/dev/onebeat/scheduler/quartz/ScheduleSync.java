package dev.onebeat.scheduler.quartz;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.registry.JobRegistry;
import dev.onebeat.scheduler.registry.RegisteredJob;
import dev.onebeat.scheduler.registry.RuntimeJobStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.ObjectAlreadyExistsException;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.impl.matchers.GroupMatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Brings the shared Quartz store in line with this replica's registry before the scheduler starts.
 * Safe to run from any number of replicas at once: every step is an idempotent write of the same
 * content, and Quartz serialises the writes with its own row lock.
 *
 * <ul>
 *   <li>an unchanged schedule (same signature) is left alone, keeping its next fire time;</li>
 *   <li>a new or changed one is stored, replacing the old trigger (a paused trigger stays paused), also
 *       when a cron schedule becomes an interval or back;</li>
 *   <li>a job no longer registered is paused and reported, never deleted: its history stays, and a
 *       replica of an older version that still runs it keeps the trigger it needs.</li>
 * </ul>
 * The registry includes the jobs and schedules stored through the admin API, loaded first; the admin
 * API applies its own changes to the store with {@link #apply} and {@link #remove}.
 */
@Component
public class ScheduleSync implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(ScheduleSync.class);

    private final Scheduler scheduler;
    private final JobRegistry registry;
    private final Clock clock;
    private final TransactionTemplate transactions;
    private final RuntimeJobStore runtimeJobs;

    ScheduleSync(Scheduler scheduler, JobRegistry registry, Clock clock, TransactionTemplate transactions,
                 RuntimeJobStore runtimeJobs) {
        this.scheduler = scheduler;
        this.registry = registry;
        this.clock = clock;
        this.transactions = transactions;
        this.runtimeJobs = runtimeJobs;
    }

    /**
     * Stores {@code job}'s schedule as at start-up: unchanged is left alone, changed is replaced and a
     * pause is kept. Must run in the caller's Spring transaction, with the change it belongs to.
     */
    public void apply(PeriodicJob job) throws SchedulerException {
        sync(job);
    }

    /** Deletes a runtime job and its triggers from the store, in the caller's Spring transaction. */
    public void remove(String name) throws SchedulerException {
        scheduler.deleteJob(QuartzTriggers.jobKey(name));
    }

    @Override
    public void afterSingletonsInstantiated() {
        runtimeJobs.reload();
        // Spring's job store holds Quartz's QRTZ_LOCKS row lock only inside a Spring transaction;
        // without one each statement commits alone and concurrent replicas insert the same trigger twice.
        // Each job is synced under its change lock, as it stands then: an admin change made on another
        // replica since the reload above (a runtime job deleted, a schedule changed) is not undone.
        for (String name : registry.all().stream().map(RegisteredJob::name).toList()) {
            QuartzWork.inTransaction(transactions, () -> {
                runtimeJobs.lock(name);
                Optional<RegisteredJob> job = runtimeJobs.current(name);
                if (job.isPresent()) {
                    sync(job.get().job());
                }
                return job;
            });
        }
        for (String name : orphanCandidates()) {
            QuartzWork.inTransaction(transactions, () -> {
                runtimeJobs.lock(name);
                // a runtime job created on another replica since the reload is not an orphan
                if (runtimeJobs.current(name).isEmpty()) {
                    pauseOrphan(name);
                }
                return name;
            });
        }
    }


    private void sync(PeriodicJob job) throws SchedulerException {
        Trigger existing = scheduler.getTrigger(QuartzTriggers.triggerKey(job.name()));
        String signature = QuartzTriggers.signature(job);
        if (existing != null && signature.equals(existing.getJobDataMap().getString(QuartzTriggers.SIGNATURE))) {
            log.info("schedule unchanged job={} nextFire={}", job.name(), existing.getNextFireTime().toInstant());
            readoptIfOrphaned(job);
            return;
        }
        boolean paused = existing != null
                && scheduler.getTriggerState(existing.getKey()) == Trigger.TriggerState.PAUSED;
        boolean wasOrphaned = isOrphaned(job.name());
        Trigger trigger = QuartzTriggers.trigger(job, clock.instant());
        if (existing != null && existing.getClass() != trigger.getClass()) {
            // Quartz replaces a trigger by updating its rows in place, which fails across kinds (cron and
            // interval keep their details in different tables); the job is durable and stays
            scheduler.unscheduleJob(existing.getKey());
        }
        try {
            scheduler.scheduleJob(QuartzTriggers.jobDetail(job), Set.of(trigger), true);
        } catch (ObjectAlreadyExistsException e) {
            log.debug("another replica stored job={} first", job.name());
        }
        if (paused && !wasOrphaned) {
            scheduler.pauseTrigger(trigger.getKey());
        }
        Trigger stored = scheduler.getTrigger(trigger.getKey());
        log.info("schedule {} job={} schedule='{}' nextFire={}", existing == null ? "created" : "replaced", job.name(),
                job.schedule().describe(), stored == null || stored.getNextFireTime() == null ? null
                        : stored.getNextFireTime().toInstant());
    }

    private void readoptIfOrphaned(PeriodicJob job) throws SchedulerException {
        if (isOrphaned(job.name())) {
            JobDetail detail = QuartzTriggers.jobDetail(job);
            scheduler.addJob(detail, true, true);
            scheduler.resumeJob(detail.getKey());
            log.info("job registered again, resumed job={}", job.name());
        }
    }

    private boolean isOrphaned(String name) throws SchedulerException {
        JobDetail detail = scheduler.getJobDetail(QuartzTriggers.jobKey(name));
        return detail != null && detail.getJobDataMap().getBooleanValue(QuartzTriggers.ORPHANED);
    }

    /** @return the stored jobs this replica does not register and that are not paused as orphans yet */
    private List<String> orphanCandidates() {
        Set<String> registered = new HashSet<>();
        registry.all().forEach(job -> registered.add(job.name()));
        List<String> candidates = new ArrayList<>();
        try {
            for (JobKey key : scheduler.getJobKeys(GroupMatcher.jobGroupEquals(QuartzTriggers.GROUP))) {
                if (!registered.contains(key.getName()) && !isOrphaned(key.getName())) {
                    candidates.add(key.getName());
                }
            }
        } catch (SchedulerException e) {
            throw new IllegalStateException("could not list the jobs of the Quartz store: " + e.getMessage(), e);
        }
        return candidates;
    }

    private void pauseOrphan(String name) throws SchedulerException {
        JobDetail detail = scheduler.getJobDetail(QuartzTriggers.jobKey(name));
        if (detail == null || isOrphaned(name)) {
            return;
        }
        JobDataMap data = new JobDataMap(detail.getJobDataMap());
        data.put(QuartzTriggers.ORPHANED, true);
        scheduler.addJob(detail.getJobBuilder().usingJobData(data).build(), true, true);
        scheduler.pauseJob(detail.getKey());
        log.warn("job no longer registered, paused (not deleted) job={}: remove it from the store by hand "
                + "if it is gone for good", name);
    }
}
