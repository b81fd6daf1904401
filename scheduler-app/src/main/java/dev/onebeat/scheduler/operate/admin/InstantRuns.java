package dev.onebeat.scheduler.operate.admin;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.fire.FireHorizon;
import dev.onebeat.scheduler.engine.fire.InstantRecords;
import dev.onebeat.scheduler.engine.quartz.QuartzWork;
import dev.onebeat.scheduler.engine.quartz.Retries;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import dev.onebeat.scheduler.engine.registry.RuntimeJobStore;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Re-runs one instant of a job's schedule that did not commit — failed for good, skipped, or never
 * fired — as an operator asks: one more attempt of that very instant, with its keys, through the whole
 * fire path on whichever replica takes it (trigger kind {@code backfill}), audited. The ledger still
 * lets at most one attempt commit. An instant at or before the job's retention horizon is refused: its ledger row
 * may have been purged, so the ledger can no longer tell that it did not commit ({@link FireHorizon}).
 */
@Component
public class InstantRuns {

    private final InstantRecords ledger;
    private final JobCatalog catalog;
    private final JobRegistry registry;
    private final RuntimeJobStore store;
    private final Retries retries;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final FireHorizon horizons;

    InstantRuns(InstantRecords ledger, JobCatalog catalog, JobRegistry registry, RuntimeJobStore store, Retries retries,
                AuditLog audit, TransactionTemplate transactions, Clock clock, FireHorizon horizons) {
        this.horizons = horizons;
        this.ledger = ledger;
        this.catalog = catalog;
        this.registry = registry;
        this.store = store;
        this.retries = retries;
        this.audit = audit;
        this.transactions = transactions;
        this.clock = clock;
    }

    /**
     * @param job the job
     * @param scheduledAt the instant re-run
     * @param attempt the attempt it makes
     */
    public record Accepted(String job, Instant scheduledAt, int attempt) {
    }

    /**
     * @throws UnknownJobException if no such job is stored
     * @throws JobDefinitionException naming the instant and the nearest instants of the schedule, if it is not one;
     *         or if it is not due yet
     * @throws AdminConflictException if this replica does not register the job, the instant has committed or is at
     *         or before the job's retention horizon, or an attempt of it is already armed
     */
    public Accepted rerun(String name, Instant instant) {
        return QuartzWork.inTransaction(transactions, () -> {
            store.lock(name);
            if (catalog.find(name).isEmpty()) {
                throw new UnknownJobException(name);
            }
            PeriodicJob job = registry.find(name).map(RegisteredJob::job).orElseThrow(() -> new AdminConflictException(
                    "job '" + name + "' is not registered on this replica; it cannot be re-run until a replica that "
                            + "defines it runs"));
            requireOnSchedule(job, instant);
            if (instant.isAfter(clock.instant())) {
                throw new JobDefinitionException("instant: " + instant + " is not due yet; the schedule fires it then");
            }
            Integer committed = ledger.committedAttempt(name, instant).orElse(null);
            if (committed != null) {
                throw new AdminConflictException("instant " + instant + " of job '" + name + "' has committed already "
                        + "(attempt " + committed + "); its tasks went out once and are not sent again");
            }
            Optional<Instant> horizon = horizons.of(name);
            if (FireHorizon.beyond(horizon, instant)) {
                throw new AdminConflictException("instant " + instant + " of job '" + name + "' is at or before the "
                        + "job's retention horizon (" + horizon.get() + "): its ledger row may have been purged, so it "
                        + "may have committed; it is not fired again");
            }
            Optional<InstantRecords.LatestAttempt> latest = ledger.latestAttempt(name, instant);
            if (latest.isPresent() && latest.get().retryAt() != null) {
                int armed = latest.get().attempt() + 1;
                throw new AdminConflictException("instant " + instant + " of job '" + name + "' has attempt " + armed
                        + " armed already, due " + latest.get().retryAt());
            }
            int attempt = latest.map(InstantRecords.LatestAttempt::attempt).orElse(0) + 1;
            if (!retries.rerun(name, instant, attempt, clock.instant())) {
                throw new AdminConflictException("instant " + instant + " of job '" + name + "' is being re-run already"
                        + " (attempt " + attempt + ")");
            }
            Map<String, Object> after = new LinkedHashMap<>();
            after.put("instant", instant.toString());
            after.put("attempt", attempt);
            audit.record("job.rerun", "job", name, null, after, null);
            return new Accepted(name, instant, attempt);
        });
    }

    private static void requireOnSchedule(PeriodicJob job, Instant instant) {
        Timetable timetable = Timetable.of(job.schedule());
        ScheduledInstant next = timetable.next(instant.minusNanos(1));
        if (next != null && next.at().equals(instant)) {
            return;
        }
        List<String> nearest = new ArrayList<>();
        Instant before = timetable.latestAtOrBefore(instant);
        if (before != null) {
            nearest.add(before.toString());
        }
        ScheduledInstant after = timetable.next(instant);
        if (after != null) {
            nearest.add(after.at().toString());
        }
        throw new JobDefinitionException("instant: " + instant + " is not an instant of job '" + job.name() + "' ("
                + job.schedule().describe() + ")" + (nearest.isEmpty() ? "" : "; the nearest are " + String.join(" and ", nearest)));
    }
}
