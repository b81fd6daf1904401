package dev.onebeat.scheduler.admin;

import dev.onebeat.scheduler.registry.JobCatalog;
import dev.onebeat.scheduler.registry.JobRegistry;
import dev.onebeat.scheduler.registry.RuntimeJobStore;
import java.util.Map;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Pauses and resumes jobs in the job catalog the whole cluster fires from, so every replica stops or
 * restarts firing them; the other jobs of the same schedule go on. Both are idempotent: pausing a
 * paused job changes nothing and writes no audit row. A pause survives restarts, rescheduling and
 * the job being orphaned and registered again: only a resume ends it.
 */
@Component
public class JobControl {

    private final JobCatalog catalog;
    private final JobRegistry registry;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final RuntimeJobStore store;

    JobControl(JobCatalog catalog, JobRegistry registry, AuditLog audit, TransactionTemplate transactions,
               RuntimeJobStore store) {
        this.store = store;
        this.catalog = catalog;
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
        return transactions.execute(status -> {
            // two pauses at once: the second sees the first's result and writes no second audit row
            store.lock(name);
            JobCatalog.Job job = catalog.find(name).orElseThrow(() -> new UnknownJobException(name));
            if (!pause && registry.find(name).isEmpty()) {
                throw new AdminConflictException("job '" + name + "' is not registered on this replica; it stays "
                        + "paused until a replica that defines it starts");
            }
            if (!catalog.setPaused(name, pause)) {
                return new JobState(name, pause);
            }
            audit.record(pause ? "job.pause" : "job.resume", "job", name, Map.of("paused", job.paused()),
                    Map.of("paused", pause), null);
            return new JobState(name, pause);
        });
    }
}
