package dev.onebeat.scheduler.admin;

import dev.onebeat.scheduler.quartz.QuartzTriggers;
import dev.onebeat.scheduler.quartz.QuartzWork;
import dev.onebeat.scheduler.registry.JobRegistry;
import dev.onebeat.scheduler.registry.RuntimeJobStore;
import java.util.Map;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Pauses and resumes jobs in the shared Quartz store, so the whole cluster stops or restarts firing
 * them. Both are idempotent: pausing a paused job changes nothing and writes no audit row. A pause
 * survives restarts: {@code ScheduleSync} keeps a paused trigger paused.
 */
@Component
public class JobControl {

    private final Scheduler scheduler;
    private final JobRegistry registry;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final RuntimeJobStore store;

    JobControl(Scheduler scheduler, JobRegistry registry, AuditLog audit, TransactionTemplate transactions,
               RuntimeJobStore store) {
        this.store = store;
        this.scheduler = scheduler;
        this.registry = registry;
        this.audit = audit;
        this.transactions = transactions;
    }

    /**
     * @param name job name
     * @param paused whether its trigger is paused
     */
    public record JobState(String name, boolean paused) {
    }

    /** @throws UnknownJobException if no such job is stored */
    public JobState pause(String name) {
        return change(name, true);
    }

    /**
     * @throws UnknownJobException if no such job is stored
     * @throws AdminConflictException if this replica does not register the job: it was paused because no
     *         replica runs it, and resuming would fire it where nobody can
     */
    public JobState resume(String name) {
        return change(name, false);
    }

    private JobState change(String name, boolean pause) {
        return QuartzWork.inTransaction(transactions, () -> {
            // two pauses at once: the second sees the first's result and writes no second audit row
            store.lock(name);
            JobKey key = QuartzTriggers.jobKey(name);
            if (!scheduler.checkExists(key)) {
                throw new UnknownJobException(name);
            }
            if (!pause && registry.find(name).isEmpty()) {
                throw new AdminConflictException("job '" + name + "' is not registered on this replica; it stays "
                        + "paused until a replica that defines it starts");
            }
            boolean wasPaused = isPaused(name);
            if (wasPaused == pause) {
                return new JobState(name, pause);
            }
            if (pause) {
                scheduler.pauseJob(key);
            } else {
                scheduler.resumeJob(key);
            }
            audit.record(pause ? "job.pause" : "job.resume", "job", name, Map.of("paused", wasPaused),
                    Map.of("paused", pause), null);
            return new JobState(name, pause);
        });
    }

    private boolean isPaused(String name) throws SchedulerException {
        return scheduler.getTriggerState(QuartzTriggers.triggerKey(name)) == Trigger.TriggerState.PAUSED;
    }
}
