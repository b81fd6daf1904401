package dev.onebeat.scheduler.operate.monitor;

import dev.onebeat.job.AlertPolicy;
import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.calendar.Calendars;
import dev.onebeat.scheduler.engine.fire.FireFaults;
import dev.onebeat.scheduler.engine.fire.InstantRecords;
import dev.onebeat.scheduler.engine.fire.InstantRecords.Range;
import dev.onebeat.scheduler.engine.fire.InstantRecords.Slot;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobCatalog.Standing;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import dev.onebeat.scheduler.engine.schedule.Descriptions;
import dev.onebeat.scheduler.engine.schedule.FireMoments;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import dev.onebeat.scheduler.operate.monitor.InstantJudge.Finding;
import dev.onebeat.scheduler.operate.monitor.InstantJudge.Verdict;
import dev.onebeat.scheduler.operate.monitor.MonitorTable.Event;
import dev.onebeat.scheduler.operate.monitor.MonitorTable.Progress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One check of the missed-fire detector: judges, oldest first, every instant of every job this replica registers,
 * and of every orphaned job no live replica registers (its instants are missed: it does not fire), from where the
 * previous check stopped up to now, and stops at a job's first instant not settled yet (pending,
 * running, retrying), so that each instant is judged once and in order. What it finds moves each job's streak and
 * makes its events: an instant missed (each one, up to {@link MonitorProperties#maxEventsPerCheck()} per job and
 * check, then one for the rest), failed for good (alerted from the job's {@code afterFailures}-th in a row), and
 * recovered (the {@code resolveAfter}-th success in a row of a job alerted on). The events, the jobs' progress and
 * whatever the {@link JobEventSink}s write for them (alert deliveries in the outbox) commit in one transaction.
 *
 * <p>A replica's first check reads every job; the checks after it only the jobs that may have something to judge (see
 * {@link #candidates}). Reads go 10,000 jobs a statement (the ledger, the attempts), plus the catalog, the locks and
 * the progress; jobs sharing a schedule and a starting point share its instants.
 */
@Component
public class MonitorCheck {

    private static final Duration CATALOG_MARGIN = Duration.ofMinutes(1);
    /** a batch's fires written below the ledger's mark commit within this after it (a batch takes milliseconds) */
    private static final Duration FIRE_MARGIN = Duration.ofSeconds(10);
    /**
     * How long past its grace a miss that no fault period explains waits while a database fault is near (see {@link
     * #run}): as long as a period lasts past its last failure, within which a replica that could not write its periods
     * has had a connection (the pool's timeout is as long) and a turn of its writer each second.
     */
    static final Duration FAULT_SETTLE = FireFaults.LINGER;

    private static final Logger log = LoggerFactory.getLogger(MonitorCheck.class);

    /**
     * What one check did.
     *
     * @param jobs the jobs it looked at
     * @param judged the instants it judged
     * @param events the events it wrote
     */
    public record Result(int jobs, int judged, List<Event> events, Duration took) {
    }

    private final JobRegistry registry;
    private final JobCatalog catalog;
    private final InstantRecords records;
    private final MonitorTable table;
    private final TransactionTemplate transactions;
    private final MonitorProperties properties;
    private final ObjectProvider<JobEventSink> sinks;
    private final MonitorMetrics metrics;
    private final FireFaults faults;
    private final Calendars calendars;
    /** this replica's last committed check, null before its first */
    private volatile Mark last;
    /** Set by a shutdown: a check under way ends at its next checkpoint, nothing of it written. */
    private volatile boolean stopping;
    /** the last name of the slice the running check sweeps, kept with its mark once it commits */
    private volatile String sweptUntil;

    MonitorCheck(JobRegistry registry, JobCatalog catalog, InstantRecords records, MonitorTable table,
                 TransactionTemplate transactions, MonitorProperties properties, ObjectProvider<JobEventSink> sinks,
                 MonitorMetrics metrics, FireFaults faults, Calendars calendars) {
        this.faults = faults;
        this.calendars = calendars;
        this.registry = registry;
        this.catalog = catalog;
        this.records = records;
        this.table = table;
        this.transactions = transactions;
        this.properties = properties;
        this.sinks = sinks;
        this.metrics = metrics;
    }

    /**
     * Judges the instants due by {@code now}; none while this replica has failures to reach the database it has not
     * written yet ({@link FireFaults#unwritten()}): the database fails every replica alike, and a miss judged before
     * the failures are written would be reported, once and for good, without its reason. Other replicas' periods
     * cannot be seen before they are written, so a miss that no written period explains waits, up to {@link
     * #FAULT_SETTLE} past its grace, while a fault is near: this replica's own period is not over ({@link
     * FireFaults#faulting()}), or a period written by any replica ends no earlier than {@code FAULT_SETTLE} before
     * the instant's window. With no fault near, a miss is judged as soon as its grace ends.
     *
     * @param now the time of the check: instants after it are not judged
     * @param node this replica, recorded with each event
     */
    public Result run(Instant now, String node) {
        long start = System.nanoTime();
        checkpoint();
        if (faults.unwritten()) {
            return new Result(0, 0, List.of(), Duration.ofNanos(System.nanoTime() - start));
        }
        // where the ledger and the locks stand before anything is read: what is written after is the next check's
        InstantRecords.LedgerMark ledgerMark = records.ledgerMark();
        Map<String, Set<Instant>> running = records.runningAll();
        Instant databaseNow = records.databaseNow();
        long generation = registry.generation();
        Set<String> candidates = candidates(now, ledgerMark, databaseNow);
        checkpoint();
        Map<String, Progress> before = candidates == null ? table.progress() : table.progress(candidates);
        checkpoint();
        Map<String, Standing> standings = candidates == null ? catalog.standings() : catalog.standings(candidates);
        checkpoint();
        List<JobWalk> walks = new ArrayList<>();
        Map<Schedule, Timetable> timetables = new HashMap<>();
        Map<List<Object>, List<ScheduledInstant>> shared = new HashMap<>();
        for (Judged judged : judgedHere(standings, candidates == null)) {
            checkpoint();
            PeriodicJob job = judged.job();
            Standing standing = judged.standing();
            Progress progress = before.get(job.name());
            if (progress == null) {
                // a job seen for the first time is judged from now on: its past is not this detector's to report
                progress = new Progress(job.name(), now, false, 0, 0, null, null);
            }
            Instant after = progress.checkedUntil().isBefore(standing.memberSince())
                    ? standing.memberSince().minusNanos(1) : progress.checkedUntil();
            Timetable timetable = timetables.computeIfAbsent(job.schedule(), Timetable::of);
            List<ScheduledInstant> instants = after.isBefore(now) ? shared.computeIfAbsent(
                    List.of(job.schedule(), after), key -> timetable.between(after.plusNanos(1), now.plusNanos(1),
                            properties.maxInstantsPerCheck())) : List.of();
            walks.add(new JobWalk(job, standing, instants, progress, judged.orphaned(),
                    properties.maxEventsPerCheck()));
        }
        // a range's end is one millisecond past its last instant: PostgreSQL keeps microseconds, and a nanosecond
        // past it would round back onto it
        List<Range> ranges = walks.stream().filter(walk -> !walk.instants.isEmpty())
                .map(walk -> new Range(walk.job.name(), walk.instants.get(0).at(),
                        walk.instants.get(walk.instants.size() - 1).at().plusMillis(1)))
                .toList();
        checkpoint();
        Map<String, Map<Instant, Slot>> slots = records.slots(ranges);
        // the periods in which replicas' fires could not reach the database: the reason of a miss among them, or,
        // ending up to FAULT_SETTLE before its window, a fault near it
        List<InstantRecords.Fault> faults = ranges.isEmpty() ? List.of() : records.faults(ranges.stream()
                .map(Range::from).min(Instant::compareTo).orElseThrow().minus(InstantJudge.ACQUIRED_BEFORE)
                .minus(FAULT_SETTLE), now);
        boolean faultingHere = this.faults.faulting();
        List<Event> events = new ArrayList<>();
        List<JobEventSink.Judged> judged = new ArrayList<>();
        List<Progress> changed = new ArrayList<>();
        int judgedCount = 0;
        for (JobWalk walk : walks) {
            checkpoint();
            judgedCount += walk(walk, slots.getOrDefault(walk.job.name(), Map.of()),
                    running.getOrDefault(walk.job.name(), Set.of()), timetables.get(walk.job.schedule()), now, node,
                    events, judged, faults, faultingHere);
            if (!walk.progress.equals(before.get(walk.job.name()))) {
                changed.add(walk.progress);
            }
        }
        checkpoint();
        List<Event> written = transactions.execute(status -> {
            // the progress first, where a stop may end the write (rolled back): no stop comes after the sinks
            table.save(changed, now, this::checkpoint);
            List<Event> inserted = table.insert(events);
            sinks.orderedStream().forEach(sink -> sink.record(inserted, judged));
            return inserted;
        });
        written.forEach(metrics::event);
        // committed: the next check on this replica may read only what could have changed since
        last = new Mark(ledgerMark, running.keySet(), databaseNow, generation,
                candidates == null ? null : sweptUntil);
        return new Result(walks.size(), judgedCount, written, Duration.ofNanos(System.nanoTime() - start));
    }

    /**
     * Ends every check from now on at its next checkpoint ({@link Stopped}): between its reads, at each job it judges,
     * or between the statements of its write, which is then rolled back. At a million jobs a check that judges every
     * job runs for seconds and writes for seconds more; one the closing pool cut off failed its rollback too. A read
     * under way is not cancelled: a check that judges every job reads the progress, the catalog and the running fires
     * whole, a statement each.
     */
    void stop() {
        stopping = true;
    }

    private void checkpoint() {
        if (stopping) {
            throw new Stopped();
        }
    }

    /** A check that a shutdown ended, nothing of it written; the next check goes on from the last committed one. */
    static final class Stopped extends RuntimeException {

        Stopped() {
            super("missed-fire check stopped by the shutdown, nothing of it written");
        }
    }

    /**
     * Where this replica's last committed check stood: what was written to the ledger before it, the jobs it saw
     * running (their fires commit later, possibly with lower row ids than the ledger's highest), and the database's
     * time when it began.
     */
    private record Mark(InstantRecords.LedgerMark ledger, Set<String> running, Instant at, long generation,
                        String sweptUntil) {
    }

    /**
     * @return the jobs that may have something to judge since this replica's last check, or null for every job (no
     *     check of this replica before, so nothing to go on from, or more than half the jobs to judge). A job none of
     *     these name has nothing to judge: its first instant not judged yet is not missed before its deadline, and no
     *     fire or attempt of it was written since. Checks by other replicas in between only make this set larger than
     *     it needs to be. The names a sweep of the catalog adds each check (a slice of
     *     {@code onebeat.monitor.sweep-jobs} in name order) catch what an operator's hand wrote outside these marks,
     *     within a round of the catalog.
     */
    private Set<String> candidates(Instant now, InstantRecords.LedgerMark ledgerNow, Instant databaseNow) {
        Mark mark = last;
        int jobs = registry.all().size();
        // the jobs the registry took in, changed or let go since (a job that reached it late could otherwise wait
        // for the sweep, and be judged from then on); null when it was replaced whole since
        Set<String> changed = mark == null ? null : registry.changedSince(mark.generation());
        // no mark of this replica; or an old one (another replica held the lock): the ledger rows since could be
        // many, read by name they would cost more than the whole tables; or the registry replaced since
        if (mark == null || changed == null
                || mark.at().isBefore(databaseNow.minus(properties.checkInterval().multipliedBy(4)))
                || (ledgerNow.fire() - mark.ledger().fire()) + (ledgerNow.attempt() - mark.ledger().attempt()) > jobs) {
            return null;
        }
        Set<String> candidates = new HashSet<>(table.due(now));
        candidates.addAll(changed);
        candidates.addAll(records.writtenAfter(mark.ledger(), mark.at().minus(FIRE_MARGIN)));
        candidates.addAll(mark.running());
        // a catalog write stamps updated_at with its transaction's start: a minute's margin for a long one
        candidates.addAll(catalog.changedSince(mark.at().minus(CATALOG_MARGIN)));
        int slice = properties.sweepJobs();
        List<String> sweep = catalog.namesAfter(mark.sweptUntil(), slice);
        if (sweep.size() < slice && mark.sweptUntil() != null) {
            // the round ended within this slice: go on from the first name, so every check sweeps a full slice
            sweep = new ArrayList<>(sweep);
            sweep.addAll(catalog.namesAfter(null, slice - sweep.size()));
        }
        candidates.addAll(sweep);
        sweptUntil = sweep.isEmpty() ? null : sweep.get(sweep.size() - 1);
        // most of the catalog (an instant of every job): reading the tables whole costs less than by name
        return candidates.size() * 2 > jobs ? null : candidates;
    }

    /** Makes the next check judge every job, as the first one of a replica does (after tables were written by hand). */
    void forget() {
        last = null;
    }

    /** A job this check judges, and whether it is judged as orphaned. */
    private record Judged(PeriodicJob job, Standing standing, boolean orphaned) {
    }

    /**
     * @return the jobs this replica judges: those it registers (the others are left to a replica that does, with
     *     their own alert policy), and the orphaned jobs no live replica registers, from the schedule the catalog
     *     keeps and the default alert policy: they do not fire, and that must not go unreported
     */
    private List<Judged> judgedHere(Map<String, Standing> standings, boolean all) {
        List<Judged> jobs = new ArrayList<>();
        if (all) {
            for (RegisteredJob registered : registry.all()) {
                Standing standing = standings.get(registered.name());
                if (standing != null) {
                    jobs.add(new Judged(registered.job(), standing, false));
                }
            }
        } else {
            for (Standing standing : standings.values()) {
                registry.find(standing.name()).ifPresent(registered ->
                        jobs.add(new Judged(registered.job(), standing, false)));
            }
        }
        for (Standing standing : standings.values()) {
            if (standing.orphaned() && registry.find(standing.name()).isEmpty()) {
                try {
                    jobs.add(new Judged(Jobs.periodic(standing.name(), Descriptions.parse(standing.schedule()))
                            .execute(context -> {
                                throw new IllegalStateException("an orphaned job is judged, never run here");
                            }), standing, true));
                } catch (RuntimeException e) {
                    log.warn("orphaned job not judged, its stored schedule does not parse job={} schedule='{}' "
                            + "error={}", standing.name(), standing.schedule(), e.toString());
                }
            }
        }
        return jobs;
    }

    private int walk(JobWalk walk, Map<Instant, Slot> slots, Set<Instant> running, Timetable timetable, Instant now,
                     String node, List<Event> events, List<JobEventSink.Judged> judged,
                     List<InstantRecords.Fault> faults, boolean faultingHere) {
        PeriodicJob job = walk.job;
        AlertPolicy policy = job.alerts();
        boolean monitored = policy.healthchecksUrl() != null || policy.sentryMonitor() != null;
        Progress p = walk.progress;
        int count = 0;
        Instant deadline = null;
        // an instant its calendars leave out is skipped, not awaited: the walk goes past it
        Function<Instant, String> exclusions = walk.orphaned ? instant -> null : calendars.exclusions(job);
        for (int i = 0; i < walk.instants.size(); i++) {
            ScheduledInstant expected = walk.instants.get(i);
            Instant next = i + 1 < walk.instants.size() ? walk.instants.get(i + 1).at() : nextAt(timetable, expected.at());
            // an orphaned job is no schedule's member: no fire of it can begin, so nothing is awaited
            Duration grace = walk.orphaned ? Duration.ZERO
                    : policy.graceFor(next == null ? null : Duration.between(expected.at(), next));
            Slot slot = slots.getOrDefault(expected.at(), Slot.EMPTY);
            // judged from the planned moment: a jitter or a spread is no lateness
            Instant planned = FireMoments.plannedAt(job, expected.at());
            Verdict verdict = InstantJudge.judge(planned, expected.fires(), exclusions.apply(expected.at()), slot,
                    running.contains(expected.at()), grace, properties.lateAfter(), job.catchUpWindow(), now, faults);
            if (walk.orphaned && verdict.outcome() == InstantOutcome.MISSED) {
                verdict = new Verdict(verdict.outcome(), "not fired: the job is orphaned, no live replica registers it",
                        verdict.lag(), verdict.finding());
            }
            Finding finding = verdict.finding();
            if (finding == Finding.UNSETTLED) {
                deadline = planned.plus(grace);
                break;
            }
            if (walk.standing.paused() && finding == Finding.MISSED && slot.attempt() == null) {
                // a paused job's instants are not expected; one that fell in the pause is skipped, not missed
                finding = Finding.NEUTRAL;
            }
            if (finding == Finding.MISSED && verdict.outcome() == InstantOutcome.MISSED && !walk.orphaned
                    && !verdict.reason().contains(InstantJudge.UNREACHABLE)
                    && now.isBefore(planned.plus(grace).plus(FAULT_SETTLE))
                    && (faultingHere || InstantJudge.faultNear(planned, FAULT_SETTLE, faults))) {
                // a replica's period of this instant may not be written yet: judged when it is, or at the wait's end
                deadline = planned.plus(grace).plus(FAULT_SETTLE);
                break;
            }
            count++;
            p = walk.judge(p, expected.at(), finding, verdict, slot, node, now, events);
            if (monitored && finding != Finding.NEUTRAL) {
                judged.add(new JobEventSink.Judged(job.name(), expected.at(), finding == Finding.FAILED ? "failed"
                        : finding == Finding.MISSED ? "missed" : "success", verdict.reason()));
            }
            p = new Progress(p.job(), expected.at(), p.alerting(), p.failuresInRow(), p.successesInRow(),
                    p.lastSuccessAt(), p.nextDeadline());
        }
        walk.flushUnreported(node, now, events);
        if (deadline == null && !walk.standing.paused()) {
            Instant upcoming = nextAt(timetable, p.checkedUntil());
            // an orphaned job's instants are missed at once (no fire of it can begin), so its deadline has no grace
            deadline = upcoming == null ? null : FireMoments.plannedAt(job, upcoming).plus(walk.orphaned
                    ? Duration.ZERO : policy.graceFor(nextGap(timetable, upcoming)));
        }
        walk.progress = new Progress(p.job(), p.checkedUntil(), p.alerting(), p.failuresInRow(), p.successesInRow(),
                p.lastSuccessAt(), walk.standing.paused() ? null : deadline);
        return count;
    }

    private static Instant nextAt(Timetable timetable, Instant after) {
        ScheduledInstant next = timetable.next(after);
        return next == null ? null : next.at();
    }

    private static Duration nextGap(Timetable timetable, Instant at) {
        Instant next = nextAt(timetable, at);
        return next == null ? null : Duration.between(at, next);
    }
}
