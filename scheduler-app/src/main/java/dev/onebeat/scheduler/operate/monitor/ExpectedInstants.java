package dev.onebeat.scheduler.operate.monitor;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.calendar.Calendars;
import dev.onebeat.scheduler.engine.fire.InstantRecords;
import dev.onebeat.scheduler.engine.fire.InstantRecords.Run;
import dev.onebeat.scheduler.engine.fire.InstantRecords.Slot;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.engine.schedule.FireMoments;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import dev.onebeat.scheduler.operate.monitor.InstantJudge.Verdict;
import dev.onebeat.scheduler.operate.monitor.MonitorTable.Event;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.springframework.stereotype.Component;

/**
 * Expected against actual for one job: every instant its schedule (with its daylight-saving policy) expected in a
 * range (none before the job began firing on that schedule), each with its outcome as of now ({@link InstantJudge}), the runs outside the schedule in the range, and the
 * detector's events for it.
 */
@Component
public class ExpectedInstants {

    /** The most instants one answer holds. */
    public static final int MAX_LIMIT = 5000;
    /** The range an answer covers when it names no start: the day before its end. */
    public static final Duration DEFAULT_SPAN = Duration.ofDays(1);
    // a range left to its default may hold more instants than an answer: the latest are kept
    private static final int MAX_COMPUTED = 200_000;

    private final InstantRecords records;
    private final MonitorTable table;
    private final JobCatalog catalog;
    private final MonitorProperties properties;
    private final Calendars calendars;

    ExpectedInstants(InstantRecords records, MonitorTable table, JobCatalog catalog, MonitorProperties properties,
                     Calendars calendars) {
        this.calendars = calendars;
        this.catalog = catalog;
        this.records = records;
        this.table = table;
        this.properties = properties;
    }

    /**
     * One expected instant and what became of it.
     *
     * @param local the instant in the schedule's zone, with its offset
     * @param note which daylight-saving rule gave it, or null
     * @param outcome {@link InstantOutcome#text()}
     * @param reason why it was skipped, failed, retried or missed, or null
     * @param plannedAt when its fire was planned to begin: the instant plus the job's spread and jitter
     *     ({@link FireMoments}), the instant itself for a job that has neither
     * @param lagMillis how long after its planned moment its committed attempt began, negative if it began before (an
     *     early fire), or null
     * @param trigger the committed fire's trigger kind, or null
     * @param attempt the committed fire's attempt, or the latest attempt's, or null
     * @param graceEnds when a fire that has not begun makes the instant missed: its planned moment plus the grace
     */
    public record Expected(Instant instant, Instant plannedAt, OffsetDateTime local, String note, String outcome,
                           String reason,
                           Long lagMillis, String trigger, Integer attempt, Instant firedAt, Instant committedAt,
                           String node, Instant graceEnds) {
    }

    /**
     * @param from the first instant of the range, inclusive
     * @param to the end of the range, exclusive
     * @param truncated whether the range held more instants than the limit: the latest are given
     * @param counts instants per outcome
     */
    public record Timeline(String job, Instant from, Instant to, boolean truncated, Map<String, Integer> counts,
                           List<Expected> instants, List<Run> runs, List<Event> events) {
    }

    /**
     * @param from inclusive, or null for the day before {@code to}
     * @param to exclusive, or null for now (an instant due now included)
     * @param limit the most instants to give, and the most runs outside the schedule and events (the latest of each);
     *     only the listed instants' ledger and attempt rows are read, whatever the range
     * @throws JobDefinitionException naming {@code from}, {@code to} or {@code limit} when the range is empty or, given
     *     a start, holds more instants than {@code limit}
     */
    public Timeline of(PeriodicJob job, Instant from, Instant to, int limit) {
        // judged in database time, as the detector judges
        Instant now = records.databaseNow();
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new JobDefinitionException("limit: " + limit + " is not between 1 and " + MAX_LIMIT);
        }
        // a millisecond past now, so that an instant due now is in: PostgreSQL keeps microseconds
        Instant end = to == null ? now.plusMillis(1) : to;
        Instant start = from == null ? end.minus(DEFAULT_SPAN) : from;
        if (!start.isBefore(end)) {
            throw new JobDefinitionException("from: " + start + " is not before to: " + end);
        }
        Timetable timetable = Timetable.of(job.schedule());
        // nothing was expected of the job before it began firing on its schedule
        Instant since = catalog.memberSince(job.name()).filter(start::isBefore).orElse(start);
        List<ScheduledInstant> instants = since.isBefore(end) ? timetable.between(since, end, from == null ? MAX_COMPUTED : limit + 1)
                : List.of();
        boolean truncated = instants.size() > limit;
        if (truncated && from != null) {
            throw new JobDefinitionException("from: the range from " + start + " to " + end + " holds more than " + limit
                    + " instants of job '" + job.name() + "'; narrow it or ask for up to " + MAX_LIMIT + " with limit");
        }
        if (truncated) {
            instants = instants.subList(instants.size() - limit, instants.size());
        }
        // the records of the instants listed only: a range from the year 1 reads no more than limit instants' rows
        Map<Instant, Slot> slots = instants.isEmpty() ? Map.of() : records.slots(job.name(), instants.get(0).at(),
                instants.get(instants.size() - 1).at().plus(1, ChronoUnit.MICROS));
        Set<Instant> running = records.running(job.name());
        // only an instant whose grace has ended is missed: no fault after now says anything of one
        List<InstantRecords.Fault> faults = records.faults(start.minus(InstantJudge.ACQUIRED_BEFORE), now);
        List<Expected> expected = new ArrayList<>(instants.size());
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (InstantOutcome outcome : InstantOutcome.values()) {
            counts.put(outcome.text(), 0);
        }
        Function<Instant, String> exclusions = calendars.exclusions(job);
        for (int i = 0; i < instants.size(); i++) {
            ScheduledInstant at = instants.get(i);
            ScheduledInstant next = i + 1 < instants.size() ? instants.get(i + 1) : timetable.next(at.at());
            Duration grace = job.alerts().graceFor(next == null ? null : Duration.between(at.at(), next.at()));
            Slot slot = slots.getOrDefault(at.at(), Slot.EMPTY);
            // a jitter or a spread is no lateness: the grace and the lag count from the planned moment
            Instant planned = FireMoments.plannedAt(job, at.at());
            Verdict verdict = InstantJudge.judge(planned, at.fires(), exclusions.apply(at.at()), slot,
                    running.contains(at.at()), grace, properties.lateAfter(), job.catchUpWindow(), now, faults);
            counts.merge(verdict.outcome().text(), 1, Integer::sum);
            expected.add(new Expected(at.at(), planned, at.localAt(), at.note(), verdict.outcome().text(), verdict.reason(),
                    verdict.lag() == null ? null : verdict.lag().toMillis(),
                    slot.fire() == null ? null : slot.fire().trigger(),
                    slot.fire() != null ? Integer.valueOf(slot.fire().attempt())
                            : slot.attempt() == null ? null : slot.attempt().attempt(),
                    slot.fire() == null ? null : slot.fire().firedAt(),
                    slot.fire() == null ? null : slot.fire().committedAt(),
                    slot.fire() == null ? null : slot.fire().node(), planned.plus(grace)));
        }
        Instant first = expected.isEmpty() ? start : expected.get(0).instant();
        // runs and events over the range the instants cover: from the year 1 a backward scan would otherwise walk
        // every ledger row of the job looking for runs outside the schedule
        Instant covered = truncated ? first : start;
        return new Timeline(job.name(), covered, end, truncated, counts, expected,
                records.runs(job.name(), covered, end, limit), table.events(job.name(), covered, end, limit));
    }
}
