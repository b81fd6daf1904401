package dev.onebeat.scheduler.admin;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.monitor.InstantRecords;
import dev.onebeat.scheduler.quartz.QuartzWork;
import dev.onebeat.scheduler.registry.JobCatalog;
import dev.onebeat.scheduler.registry.JobDefinitionException;
import dev.onebeat.scheduler.registry.JobRegistry;
import dev.onebeat.scheduler.registry.RegisteredJob;
import dev.onebeat.scheduler.schedule.ScheduledInstant;
import dev.onebeat.scheduler.schedule.Timetable;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Backfills of a job's instants, as an operator asks for them: every instant of the schedule in a range
 * (daylight-saving policy applied), each with its outcome so far; and, unless it is a dry run, a backfill
 * that fires those without a committed fire, oldest first, at a bounded rate ({@link BackfillRunner}), as
 * trigger kind {@code backfill}, with the keys of each instant. Deterministic keys make it safe: an instant
 * that has committed is not fired again, and the ledger keeps any other at one commit.
 */
@Component
public class Backfills {

    /** The most instants one backfill covers; a larger range is refused, so that it is split on purpose. */
    public static final int MAX_INSTANTS = 10_000;

    private final BackfillTable table;
    private final JobCatalog catalog;
    private final JobRegistry registry;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final InstantRecords records;

    Backfills(BackfillTable table, JobCatalog catalog, JobRegistry registry, AuditLog audit,
              TransactionTemplate transactions, Clock clock, InstantRecords records) {
        this.records = records;
        this.table = table;
        this.catalog = catalog;
        this.registry = registry;
        this.audit = audit;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** @return {@code committed (<trigger>)}, or the latest attempt's {@code failed}, {@code skipped: <reason>} */
    private static String outcome(InstantRecords.Slot slot) {
        if (slot.fire() != null) {
            return "committed (" + slot.fire().trigger() + ")";
        }
        return slot.attempt().outcome().equals("skipped") ? "skipped: " + slot.attempt().reason()
                : slot.attempt().outcome();
    }

    /**
     * One instant of the range.
     *
     * @param instant the instant
     * @param local the wall-clock time with its offset
     * @param note what daylight saving did to it, or null
     * @param outcome {@code committed (<trigger>)}, {@code failed}, {@code skipped: <reason>}, or {@code none}
     * @param fires whether a backfill fires it: an instant of the schedule (not a time a gap removed) with no
     *     committed fire
     */
    public record PlannedInstant(Instant instant, OffsetDateTime local, String note, String outcome, boolean fires) {
    }

    /**
     * What a backfill request covers.
     *
     * @param backfill the backfill started, or null for a dry run
     * @param job the job
     * @param dryRun whether nothing was started
     * @param instants every instant of the range, oldest first
     * @param toFire how many of them have no committed fire
     */
    public record Plan(Backfill backfill, String job, boolean dryRun, List<PlannedInstant> instants, long toFire) {
    }

    /**
     * @param from the range's start, inclusive
     * @param to the range's end, exclusive; not in the future
     * @param dryRun list the instants only
     * @throws UnknownJobException if there is no such job
     * @throws JobDefinitionException naming {@code from} or {@code to} when the range is empty, reaches into the
     *     future or holds more than {@link #MAX_INSTANTS} instants
     * @throws AdminConflictException if this replica does not register the job
     */
    public Plan start(String name, Instant from, Instant to, boolean dryRun) {
        PeriodicJob job = job(name);
        if (from == null || to == null) {
            throw new JobDefinitionException((from == null ? "from" : "to") + ": is missing; a backfill covers [from, to)");
        }
        if (!from.isBefore(to)) {
            throw new JobDefinitionException("to: " + to + " is not after from: " + from);
        }
        Instant now = clock.instant();
        if (to.isAfter(now)) {
            throw new JobDefinitionException("to: " + to + " is in the future; the schedule fires those instants itself");
        }
        List<ScheduledInstant> instants = Timetable.of(job.schedule()).between(from, to, MAX_INSTANTS + 1);
        if (instants.size() > MAX_INSTANTS) {
            throw new JobDefinitionException("to: the range from " + from + " to " + to + " holds more than "
                    + MAX_INSTANTS + " instants of job '" + name + "'; backfill it in parts");
        }
        Map<Instant, InstantRecords.Slot> slots = records.slots(name, from, to);
        List<PlannedInstant> planned = instants.stream().map(instant -> {
            InstantRecords.Slot slot = slots.get(instant.at());
            String outcome = slot != null ? outcome(slot) : instant.fires() ? "none"
                    : "skipped: in a daylight-saving gap (gap=skip)";
            return new PlannedInstant(instant.at(), instant.localAt(), instant.note(), outcome,
                    instant.fires() && !outcome.startsWith("committed"));
        }).toList();
        long toFire = planned.stream().filter(PlannedInstant::fires).count();
        if (dryRun) {
            return new Plan(null, name, true, planned, toFire);
        }
        int total = (int) instants.stream().filter(ScheduledInstant::fires).count();
        Backfill backfill = transactions.execute(status -> {
            long id = table.insert(name, from, to, total, Actor.current(), now);
            Map<String, Object> after = new LinkedHashMap<>();
            after.put("id", id);
            after.put("from", from.toString());
            after.put("to", to.toString());
            after.put("instants", total);
            after.put("toFire", toFire);
            audit.record("job.backfill", "job", name, null, after, null);
            return table.find(name, id).orElseThrow();
        });
        return new Plan(backfill, name, false, planned, toFire);
    }

    /**
     * Stops a running backfill: the instant it is firing finishes, no other starts.
     *
     * @throws UnknownJobException if the job has no such backfill
     * @throws AdminConflictException if it has ended already
     */
    public Backfill cancel(String name, long id) {
        return QuartzWork.inTransaction(transactions, () -> {
            Backfill backfill = table.find(name, id).orElseThrow(() -> new UnknownJobException(name, id));
            if (!table.end(id, name, Backfill.CANCELLED, clock.instant())) {
                throw new AdminConflictException("backfill " + id + " of job '" + name + "' has ended already ("
                        + backfill.state() + ")");
            }
            audit.record("job.backfill.cancel", "job", name, Map.of("id", id, "state", backfill.state(),
                    "done", backfill.done()), Map.of("id", id, "state", Backfill.CANCELLED), null);
            return table.find(name, id).orElseThrow();
        });
    }

    /** @throws UnknownJobException if there is no such job */
    public List<Backfill> list(String name, int limit) {
        if (catalog.find(name).isEmpty()) {
            throw new UnknownJobException(name);
        }
        return table.ofJob(name, limit);
    }

    /** @throws UnknownJobException if the job has no such backfill */
    public Backfill find(String name, long id) {
        return table.find(name, id).orElseThrow(() -> new UnknownJobException(name, id));
    }

    private PeriodicJob job(String name) {
        if (catalog.find(name).isEmpty()) {
            throw new UnknownJobException(name);
        }
        return registry.find(name).map(RegisteredJob::job).orElseThrow(() -> new AdminConflictException(
                "job '" + name + "' is not registered on this replica; it cannot be backfilled until a replica that "
                        + "defines it runs"));
    }
}
