package dev.onebeat.scheduler.operate.admin;

import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RuntimeJobStore;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Pauses and resumes jobs in the job catalog the whole cluster fires from, so every replica stops or
 * restarts firing them; the other jobs of the same schedule go on. Both are idempotent: pausing a
 * paused job changes nothing and writes no audit row. A pause survives restarts, rescheduling and
 * the job being orphaned and registered again: only a resume ends it, or its own end time
 * ({@link #pause(String, String, Instant)}, which {@link PauseExpiry} applies).
 */
@Component
public class JobControl {

    private final JobCatalog catalog;
    private final JobRegistry registry;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final RuntimeJobStore store;

    private static final Logger log = LoggerFactory.getLogger(JobControl.class);

    private final Clock clock;

    JobControl(JobCatalog catalog, JobRegistry registry, AuditLog audit, TransactionTemplate transactions,
               RuntimeJobStore store, Clock clock) {
        this.clock = clock;
        this.store = store;
        this.catalog = catalog;
        this.registry = registry;
        this.audit = audit;
        this.transactions = transactions;
    }

    /** The longest pause reason. */
    public static final int MAX_REASON = 500;

    /**
     * @param name job name
     * @param paused whether it is paused
     * @param reason why, or null
     * @param until when the pause ends by itself, or null
     */
    public record JobState(String name, boolean paused, String reason, Instant until) {
    }

    /** @throws UnknownJobException if no such job is stored */
    public JobState pause(String name) {
        return pause(name, null, null);
    }

    /**
     * Pauses a job, saying why and until when; pausing a paused job again replaces its reason and end.
     * A job paused until a time fires again from its first instant at or after that time.
     *
     * @param reason why, shown in the API and the console; null or blank for none
     * @param until when the pause ends by itself; null for a pause only a resume ends
     * @throws UnknownJobException if no such job is stored
     * @throws JobDefinitionException naming the field, if {@code until} is not in the future or the reason too long
     */
    public JobState pause(String name, String reason, Instant until) {
        String why = reason == null || reason.isBlank() ? null : reason.strip();
        if (why != null && why.length() > MAX_REASON) {
            throw new JobDefinitionException("reason: must be at most " + MAX_REASON + " characters, was " + why.length());
        }
        if (until != null && !until.isAfter(clock.instant())) {
            throw new JobDefinitionException("until: " + until + " is not in the future; omit it for a pause only a "
                    + "resume ends");
        }
        return transactions.execute(status -> {
            store.lock(name);
            JobCatalog.Job job = catalog.find(name).orElseThrow(() -> new UnknownJobException(name));
            if (catalog.pause(name, why, until)) {
                audit.record("job.pause", "job", name, state(job.paused(), job.pauseReason(), job.pausedUntil()),
                        state(true, why, until), null);
            }
            return new JobState(name, true, why, until);
        });
    }

    /** Ends the pauses whose time has come, each audited as a resume by {@value Actor#SYSTEM}. @return how many */
    public int endPausesDue() {
        List<JobCatalog.ExpiredPause> ended = transactions.execute(status -> {
            List<JobCatalog.ExpiredPause> due = catalog.endPausesDue(clock.instant());
            for (JobCatalog.ExpiredPause pause : due) {
                audit.record("job.resume", "job", pause.name(), state(true, pause.reason(), pause.until()),
                        state(false, null, null), null);
            }
            return due;
        });
        ended.forEach(pause -> log.info("pause ended, job fires again job={} pausedUntil={} reason={}", pause.name(),
                pause.until(), pause.reason()));
        return ended.size();
    }

    private static Map<String, Object> state(boolean paused, String reason, Instant until) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("paused", paused);
        if (reason != null) {
            state.put("reason", reason);
        }
        if (until != null) {
            state.put("until", until.toString());
        }
        return state;
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
                return new JobState(name, pause, null, null);
            }
            audit.record(pause ? "job.pause" : "job.resume", "job", name,
                    state(job.paused(), job.pauseReason(), job.pausedUntil()), state(pause, null, null), null);
            return new JobState(name, pause, null, null);
        });
    }
}
