package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RuntimeJobStore;
import dev.onebeat.scheduler.engine.registry.ScheduleKeys;
import dev.onebeat.scheduler.boot.database.StatementChunks;
import dev.onebeat.scheduler.boot.startup.DatabaseStartup;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Brings the job catalog and the schedules' Quartz triggers in line with this replica's registry
 * before the scheduler starts. Safe to run from any number of replicas at once: jobs are written
 * under their change locks, triggers under their schedule's lock, and every write is idempotent.
 *
 * <ul>
 *   <li>a job on an unchanged schedule is left alone: its schedule's trigger keeps its next fire time,
 *       and a pause is kept;</li>
 *   <li>a new job joins its schedule, whose trigger is created if it is the schedule's first job; a job
 *       on a changed schedule moves to the new one (a paused job stays paused);</li>
 *   <li>the replica records the jobs of its code and configuration it registers (runtime jobs, built by every
 *       replica from the database, are never orphaned); a job that no replica alive now registers is marked
 *       orphaned and reported, never deleted ({@link Orphans}, which judges again while the replicas run):
 *       it does not fire, its history stays, and it fires again once a live replica registers it (an
 *       operator's pause is kept). A replica that does not know a job orphans it only when it is the last
 *       one alive.</li>
 * </ul>
 * Jobs the catalog already holds as this replica would store them are not written at all (read first, without
 * locks: a restart with nothing changed writes no job); the others are written {@value #CHUNK} to a transaction, so
 * 10,000 new jobs cost 20 short transactions. The
 * registry includes the jobs and schedules stored through the admin API; the admin API applies its
 * own changes with {@link #apply} and {@link #remove}.
 */
@Component
public class ScheduleSync implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(ScheduleSync.class);
    static final int CHUNK = 500;

    private final Scheduler scheduler;
    private final JobRegistry registry;
    private final Clock clock;
    private final TransactionTemplate transactions;
    private final RuntimeJobStore runtimeJobs;
    private final JobCatalog catalog;
    private final ScheduleTriggers triggers;
    private final Orphans orphans;
    private final DatabaseStartup startup;

    ScheduleSync(Scheduler scheduler, JobRegistry registry, Clock clock, TransactionTemplate transactions,
                 RuntimeJobStore runtimeJobs, JobCatalog catalog, ScheduleTriggers triggers, Orphans orphans,
                 DatabaseStartup startup) {
        this.orphans = orphans;
        this.startup = startup;
        this.scheduler = scheduler;
        this.registry = registry;
        this.clock = clock;
        this.transactions = transactions;
        this.runtimeJobs = runtimeJobs;
        this.catalog = catalog;
        this.triggers = triggers;
    }

    /**
     * Stores {@code job} with its schedule as at start-up: unchanged is left alone, changed moves and a
     * pause is kept. Must run in the caller's Spring transaction, with the change it belongs to, under the
     * job's change lock.
     */
    public void apply(PeriodicJob job) throws SchedulerException {
        store(Map.of(job.name(), job));
    }

    /**
     * Deletes a job from the catalog, in the caller's Spring transaction; its schedule's trigger goes at
     * its next fire if no other job fires on it.
     */
    public void remove(String name) {
        catalog.delete(name);
    }

    /** Syncs, from the start again while the database cannot be reached: every write is idempotent. */
    @Override
    public void afterSingletonsInstantiated() {
        startup.run("registry sync", this::sync);
    }

    private void sync() throws SchedulerException {
        long start = System.nanoTime();
        runtimeJobs.reload();
        QuartzWork.inTransaction(transactions, () -> {
            addIfMissing(QuartzTriggers.scheduleJob());
            addIfMissing(QuartzTriggers.singleJob());
            addIfMissing(QuartzTriggers.lostJob());
            return null;
        });
        Set<String> pausedBefore = removeLegacyJobs();
        Map<String, PeriodicJob> registered = new TreeMap<>();
        registry.all().forEach(job -> registered.put(job.name(), job.job()));
        List<String> names = List.copyOf(registered.keySet());
        // a runtime job (defined through the admin API) is never orphaned, every replica builds it from the database
        // (JobCatalog.judgeOrphans): only the jobs of this replica's code and configuration are recorded as its own,
        // which spares a restart with a million runtime jobs a million rows written, and their deletion later
        orphans.register(names.stream().filter(name -> registry.defined(name).isPresent()).toList());
        // Jobs the catalog holds as this replica would store them need no write: a restart with nothing changed
        // locked every catalog row before (the upsert locks the rows it leaves alone) and read and built every runtime
        // job twice, 500 jobs a transaction. Read without locks, so a job another replica changes meanwhile is
        // either seen changed here, and stored under its change lock below, or changed after this read, by that
        // replica's own write, which skipping it here leaves as it is.
        List<JobCatalog.Entry> entries = registered.values().stream().map(ScheduleSync::entry).toList();
        Set<String> unchanged = catalog.unchanged(entries);
        Map<String, PeriodicJob> asStored = new TreeMap<>();
        List<String> toStore = new ArrayList<>(names.size() - unchanged.size());
        for (JobCatalog.Entry entry : entries) {
            if (unchanged.contains(entry.name())) {
                asStored.putIfAbsent(entry.scheduleKey(), registered.get(entry.name()));
            } else {
                toStore.add(entry.name());
            }
        }
        int stored = 0;
        for (List<String> chunk : StatementChunks.of(toStore, CHUNK)) {
            stored += QuartzWork.inTransaction(transactions, () -> {
                // the change locks make a change made since the reload above (a runtime job deleted or
                // rescheduled on another replica) win over this replica's older view of it
                runtimeJobs.lockAll(chunk);
                Map<String, PeriodicJob> current = new TreeMap<>();
                runtimeJobs.current(chunk).forEach((name, job) -> current.put(name, job.job()));
                int moved = store(current);
                for (String name : catalog.setOrphaned(current.keySet(), false)) {
                    log.info("job registered again, fires again job={}", name);
                }
                return moved;
            });
        }
        // the schedules of the jobs left as they were keep (or get back) their triggers
        for (List<String> keys : StatementChunks.of(List.copyOf(asStored.keySet()), CHUNK)) {
            QuartzWork.inTransaction(transactions, () -> {
                for (String key : triggers.missing(keys)) {
                    triggers.ensure(key, asStored.get(key));
                }
                return null;
            });
        }
        pausedBefore.forEach(name -> QuartzWork.inTransaction(transactions, () -> catalog.setPaused(name, true)));
        int orphaned = orphans.judge(true);
        log.info("jobs synced registered={} storedOrMoved={} orphaned={} unchanged={} tookMs={}", names.size(), stored,
                orphaned, unchanged.size(), (System.nanoTime() - start) / 1_000_000);
    }

    private static JobCatalog.Entry entry(PeriodicJob job) {
        return new JobCatalog.Entry(job.name(), ScheduleKeys.key(job), job.schedule().describe(), job.namespace());
    }

    /** Stores the jobs, creating the triggers of schedules that have none. @return jobs stored anew or moved */
    private int store(Map<String, PeriodicJob> jobs) throws SchedulerException {
        List<JobCatalog.Entry> entries = new ArrayList<>(jobs.size());
        Map<String, PeriodicJob> bySchedule = new TreeMap<>();
        jobs.values().forEach(job -> {
            JobCatalog.Entry entry = entry(job);
            entries.add(entry);
            bySchedule.putIfAbsent(entry.scheduleKey(), job);
        });
        List<JobCatalog.Move> moves = catalog.store(entries, clock.instant());
        for (JobCatalog.Move move : moves) {
            if (move.fromKey() == null) {
                log.debug("job stored job={} schedule={}", move.name(), move.toKey());
            } else {
                log.info("job moved to a new schedule job={} schedule='{}' from={} to={}", move.name(),
                        jobs.get(move.name()).schedule().describe(), move.fromKey(), move.toKey());
            }
        }
        for (String key : triggers.missing(bySchedule.keySet())) {
            triggers.ensure(key, bySchedule.get(key));
        }
        return moves.size();
    }

    private void addIfMissing(JobDetail job) throws SchedulerException {
        if (!scheduler.checkExists(job.getKey())) {
            scheduler.addJob(job, true);
        }
    }

    /**
     * Deletes the one Quartz job and trigger per onebeat job that earlier versions stored.
     *
     * @return the jobs whose legacy trigger was paused by an operator, to be paused in the catalog
     */
    private Set<String> removeLegacyJobs() {
        Set<String> paused = new HashSet<>();
        try {
            for (JobKey key : scheduler.getJobKeys(GroupMatcher.jobGroupEquals(QuartzTriggers.LEGACY_GROUP))) {
                QuartzWork.inTransaction(transactions, () -> {
                    Trigger.TriggerState state = scheduler.getTriggerState(
                            TriggerKey.triggerKey(key.getName(), QuartzTriggers.LEGACY_GROUP));
                    boolean orphaned = scheduler.getJobDetail(key) != null
                            && scheduler.getJobDetail(key).getJobDataMap().getBooleanValue("onebeat.orphaned");
                    if (state == Trigger.TriggerState.PAUSED && !orphaned) {
                        paused.add(key.getName());
                    }
                    return scheduler.deleteJob(key);
                });
            }
        } catch (SchedulerException e) {
            throw new IllegalStateException("could not list the Quartz jobs of an earlier version: " + e.getMessage(), e);
        }
        if (!paused.isEmpty()) {
            log.info("jobs of an earlier version moved to the job catalog, their pause kept paused={}", paused);
        }
        return paused;
    }
}
