package dev.onebeat.scheduler.operate.backfill;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.calendar.Calendars;
import dev.onebeat.scheduler.engine.fire.FireHorizon;
import dev.onebeat.scheduler.engine.fire.InstantRecords;
import dev.onebeat.scheduler.engine.quartz.QuartzWork;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import dev.onebeat.scheduler.operate.admin.Actor;
import dev.onebeat.scheduler.operate.admin.AdminConflictException;
import dev.onebeat.scheduler.operate.admin.AuditLog;
import dev.onebeat.scheduler.operate.admin.UnknownJobException;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Backfills of a job's instants, as an operator asks for them: every instant of the schedule in a range
 * (daylight-saving policy applied), each with its outcome so far; and, unless it is a dry run, a backfill
 * that fires those without a committed fire, oldest first, at a bounded rate ({@link BackfillRunner}), as
 * trigger kind {@code backfill}, with the keys of each instant. Deterministic keys make it safe: an instant
 * that has committed is not fired again, and the ledger keeps any other at one commit. An instant at or before the
 * job's retention horizon ({@link FireHorizon}) may have committed with its ledger row purged since: a dry run shows
 * it as {@value #BEYOND_HORIZON}, and a backfill whose range holds one is refused.
 */
@Component
public class Backfills {

    /** The most instants one backfill covers; a larger range is refused, so that it is split on purpose. */
    public static final int MAX_INSTANTS = 10_000;
    /** The outcome of an instant whose ledger row retention may have deleted: it is not fired again. */
    public static final String BEYOND_HORIZON = "beyond the retention horizon";

    private final BackfillTable table;
    private final JobCatalog catalog;
    private final JobRegistry registry;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final Calendars calendars;
    private final InstantRecords records;
    private final FireHorizon horizons;

    Backfills(BackfillTable table, JobCatalog catalog, JobRegistry registry, AuditLog audit,
              TransactionTemplate transactions, Clock clock, InstantRecords records, FireHorizon horizons,
              Calendars calendars) {
        this.calendars = calendars;
        this.records = records;
        this.horizons = horizons;
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
     * @param outcome {@code committed (<trigger>)}, {@code failed}, {@code skipped: <reason>},
     *     {@value #BEYOND_HORIZON}, or {@code none}
     * @param fires whether a backfill fires it: an instant of the schedule (not a time a gap removed) with no
     *     committed fire, after the job's retention horizon, that its calendars do not leave out
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
     * @throws AdminConflictException if this replica does not register the job, or (not for a dry run) the range
     *     holds an instant at or before the job's retention horizon that has no committed fire on record
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
        Optional<Instant> horizon = horizons.of(name);
        Map<Instant, InstantRecords.Slot> slots = records.slots(name, from, to);
        // a backfill does what the schedule would have done: an instant its calendars leave out stays out
        Function<Instant, String> exclusions = calendars.exclusions(job);
        List<PlannedInstant> planned = instants.stream().map(instant -> {
            InstantRecords.Slot slot = slots.get(instant.at());
            boolean committed = slot != null && slot.fire() != null;
            String excluded = committed || !instant.fires() ? null : exclusions.apply(instant.at());
            String outcome = committed ? outcome(slot)
                    : excluded != null ? "skipped: " + excluded
                    : instant.fires() && FireHorizon.beyond(horizon, instant.at()) ? BEYOND_HORIZON
                    : slot != null ? outcome(slot) : instant.fires() ? "none"
                    : "skipped: in a daylight-saving gap (gap=skip)";
            return new PlannedInstant(instant.at(), instant.localAt(), instant.note(), outcome,
                    instant.fires() && !committed && excluded == null && !BEYOND_HORIZON.equals(outcome));
        }).toList();
        long toFire = planned.stream().filter(PlannedInstant::fires).count();
        if (dryRun) {
            return new Plan(null, name, true, planned, toFire);
        }
        long beyond = planned.stream().filter(instant -> BEYOND_HORIZON.equals(instant.outcome())).count();
        if (beyond > 0) {
            throw new AdminConflictException("from: " + from + " reaches the retention horizon of job '" + name + "' ("
                    + horizon.orElseThrow() + "): " + beyond + " instant(s) at or before it may have committed, their "
                    + "ledger rows purged since, and are not fired again; start the backfill after " + horizon.get());
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
