package dev.onebeat.scheduler.engine.schedule;

import dev.onebeat.job.DstPolicy;
import dev.onebeat.job.Schedule;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A cron's instants in its zone, under its daylight-saving policy.
 *
 * <p>The zone's offset changes only at its transitions, so the time line is cut into segments with
 * one offset each. In a segment, a matching wall-clock time {@code L} fires at {@code L - offset};
 * a time that the segment shares with its neighbour across an overlap is the first or the second of
 * two occurrences, kept as the overlap rule says; a time in the gap that opens the segment fires,
 * under {@code shift}, at {@code L - offset before the gap}, which is what {@code java.time} resolves it
 * to. The next instant after {@code t} is the earliest of those candidates in the segment holding
 * {@code t}, else in the following segments. Each step asks Quartz's field matcher for one or two
 * wall-clock times, so away from transitions the cost is that of Quartz's own next-time computation.
 */
final class CronTimetable implements Timetable {

    private static final long NANO = 1;

    private final WallClockCron cron;
    private final ZoneRules rules;
    private final DstPolicy.Gap gap;
    private final DstPolicy.Overlap overlap;
    private final String gapRule;
    private final String overlapRule;

    CronTimetable(Schedule.Cron schedule) {
        this.cron = new WallClockCron(schedule.quartzExpression());
        this.rules = schedule.zone().getRules();
        boolean elapsed = cron.countsElapsedTime();
        // an elapsed-time cron keeps every instant real time reaches: shifted gap times land on the
        // instants after the gap (or between them, for a gap that is not a whole hour), both
        // occurrences of an overlap fire
        this.gap = elapsed ? DstPolicy.Gap.SHIFT : schedule.dst().gap();
        this.overlap = elapsed ? DstPolicy.Overlap.BOTH : schedule.dst().overlap();
        this.gapRule = elapsed ? "elapsed time" : "gap=" + gap.text();
        this.overlapRule = elapsed ? "elapsed time" : "overlap=" + overlap.text();
    }

    @Override
    public ScheduledInstant next(Instant after) {
        ZoneOffsetTransition opening = rules.previousTransition(after.plusNanos(NANO));
        ZoneOffsetTransition closing = rules.nextTransition(after);
        ZoneOffset offset = rules.getOffset(after);
        Instant lower = after;
        ScheduledInstant best = null;
        while (true) {
            Segment segment = new Segment(opening, closing, offset);
            ScheduledInstant regular = segment.regular(lower);
            boolean exhausted = regular == REGULAR_EXHAUSTED;
            best = earliest(best, earliest(regular, segment.shifted(lower)));
            if (best != null && (closing == null || best.at().isBefore(closing.getInstant()))) {
                return best;
            }
            // no later wall-clock time matches: the following segments, and their gaps, have none either,
            // except that after an overlap the clocks show earlier times again, and one of those may match
            if (closing == null || (exhausted && !closing.isOverlap())) {
                return best;
            }
            opening = closing;
            offset = closing.getOffsetAfter();
            lower = closing.getInstant().minusNanos(NANO);
            closing = rules.nextTransition(closing.getInstant());
        }
    }

    @Override
    public Instant latestAtOrBefore(Instant at) {
        long minutes = 1;
        long max = MAX_LOOKBACK.toMinutes();
        while (true) {
            ScheduledInstant latest = null;
            for (ScheduledInstant next = next(at.minusSeconds(minutes * 60).minusNanos(NANO));
                 next != null && !next.at().isAfter(at); next = next(next.at())) {
                latest = next;
            }
            if (latest != null) {
                return latest.at();
            }
            if (minutes == max) {
                return null;
            }
            minutes = Math.min(minutes * 8, max);
        }
    }

    @Override
    public List<ScheduledInstant> between(Instant from, Instant to, int limit) {
        List<ScheduledInstant> instants = new ArrayList<>();
        for (ScheduledInstant next = next(from.minusNanos(NANO)); next != null && next.at().isBefore(to)
                && instants.size() < limit; next = next(next.at())) {
            instants.add(next);
        }
        if (gap == DstPolicy.Gap.SKIP) {
            addSkipped(instants, from, to);
            instants.sort(Comparator.comparing(ScheduledInstant::at));
            if (instants.size() > limit) {
                instants.subList(limit, instants.size()).clear();
            }
        }
        return instants;
    }

    /** Adds the times of the gaps in {@code [from, to)} that do not fire, where no fire takes their instant. */
    private void addSkipped(List<ScheduledInstant> instants, Instant from, Instant to) {
        // a gap's times would fire at most a gap's length after it opens; no gap lasts two days
        for (ZoneOffsetTransition t = rules.nextTransition(from.minusSeconds(2 * 86_400)); t != null
                && t.getInstant().isBefore(to); t = rules.nextTransition(t.getInstant())) {
            if (!t.isGap()) {
                continue;
            }
            for (LocalDateTime local = cron.next(t.getDateTimeBefore().minusNanos(NANO));
                 local != null && local.isBefore(t.getDateTimeAfter()); local = cron.next(local)) {
                Instant at = local.toInstant(t.getOffsetBefore());
                ScheduledInstant firing = next(at.minusNanos(NANO));
                if (!at.isBefore(from) && at.isBefore(to) && (firing == null || !firing.at().equals(at))) {
                    instants.add(new ScheduledInstant(at, local, t.getOffsetAfter(), ScheduledInstant.Kind.GAP_SKIPPED,
                            gapRule));
                }
            }
        }
    }

    private static ScheduledInstant earliest(ScheduledInstant a, ScheduledInstant b) {
        if (a == null || a == REGULAR_EXHAUSTED) {
            return b;
        }
        if (b == null || b == REGULAR_EXHAUSTED) {
            return a;
        }
        // a shifted time landing on a regular one is that regular instant
        return b.at().isBefore(a.at()) || (b.at().equals(a.at()) && b.kind() == ScheduledInstant.Kind.REGULAR) ? b : a;
    }

    /** Marks "the cron matches no wall-clock time after this one", which ends the search. */
    private static final ScheduledInstant REGULAR_EXHAUSTED = ScheduledInstant.regular(Instant.EPOCH,
            LocalDateTime.MIN, ZoneOffset.UTC);

    /**
     * The instants from {@code opening} (a transition, or null for the zone's first offset) to
     * {@code closing} (the next transition, or null), where the offset is {@code offset}.
     */
    private final class Segment {

        private final ZoneOffsetTransition opening;
        private final ZoneOffsetTransition closing;
        private final ZoneOffset offset;

        Segment(ZoneOffsetTransition opening, ZoneOffsetTransition closing, ZoneOffset offset) {
            this.opening = opening;
            this.closing = closing;
            this.offset = offset;
        }

        /**
         * @return the first instant after {@code lower} of a wall-clock time shown by the clocks in this
         *         segment and kept by the overlap rule; null if there is none in the segment;
         *         {@link #REGULAR_EXHAUSTED} if the cron matches no time after it at all
         */
        ScheduledInstant regular(Instant lower) {
            LocalDateTime end = closing == null ? null : closing.getInstant().atOffset(offset).toLocalDateTime();
            LocalDateTime local = LocalDateTime.ofInstant(lower, offset);
            while (true) {
                local = cron.next(local);
                if (local == null) {
                    return REGULAR_EXHAUSTED;
                }
                if (end != null && !local.isBefore(end)) {
                    return null;
                }
                ScheduledInstant.Kind kind = occurrence(local);
                if (kind == ScheduledInstant.Kind.REGULAR) {
                    return ScheduledInstant.regular(local.toInstant(offset), local, offset);
                }
                if (kept(kind)) {
                    return new ScheduledInstant(local.toInstant(offset), local, offset, kind, overlapRule);
                }
            }
        }

        /**
         * @return the first instant after {@code lower} of a wall-clock time in the gap that opens this
         *         segment, when the gap rule shifts such times; null otherwise
         */
        ScheduledInstant shifted(Instant lower) {
            if (opening == null || !opening.isGap() || gap != DstPolicy.Gap.SHIFT) {
                return null;
            }
            ZoneOffset before = opening.getOffsetBefore();
            LocalDateTime from = LocalDateTime.ofInstant(lower, before);
            LocalDateTime gapStart = opening.getDateTimeBefore().minusNanos(NANO);
            if (!from.isBefore(opening.getDateTimeAfter())) {
                return null;
            }
            LocalDateTime local = cron.next(from.isAfter(gapStart) ? from : gapStart);
            if (local == null || !local.isBefore(opening.getDateTimeAfter())) {
                return null;
            }
            return new ScheduledInstant(local.toInstant(before), local, offset, ScheduledInstant.Kind.GAP_SHIFTED,
                    gapRule);
        }

        /** @return whether the clocks of this segment show {@code local} for the first, second or only time */
        private ScheduledInstant.Kind occurrence(LocalDateTime local) {
            if (opening != null && opening.isOverlap() && local.isBefore(opening.getDateTimeBefore())) {
                return ScheduledInstant.Kind.OVERLAP_SECOND;
            }
            if (closing != null && closing.isOverlap() && !local.isBefore(closing.getDateTimeAfter())) {
                return ScheduledInstant.Kind.OVERLAP_FIRST;
            }
            return ScheduledInstant.Kind.REGULAR;
        }

        private boolean kept(ScheduledInstant.Kind kind) {
            return overlap == DstPolicy.Overlap.BOTH
                    || (kind == ScheduledInstant.Kind.OVERLAP_FIRST) == (overlap == DstPolicy.Overlap.FIRST);
        }
    }
}
